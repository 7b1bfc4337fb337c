/**
 * The default extractor: rules only, no model service. It turns a document into self-contained statements, one
 * per informative sentence or short group of sentences, with the speaker named and dates resolved.
 *
 * Modes:
 * - `fast`: speaker attribution, sentence segmentation, grouping of follow-up sentences, date resolution,
 *   near-duplicate removal, entity recognition. No relations.
 * - `long-range`: all of `fast`, plus sentence-initial he/she/they resolved to the last mentioned person(s) when
 *   unambiguous, and relations between the entities of each statement.
 * Grouping runs in both modes, so the same text yields the same statement boundaries whatever the mode.
 */
import { commonNounsOf } from '@memory-service/language'
import {
  assistantStatementBudget,
  isAssistantSpeaker,
  isUserRole,
  selectAssistantStatements,
} from './assistantTurns.js'
import { runInSlices, runToEnd, type TimeSlicing } from '../batching/timeSlices.js'
import { categorize } from './categorize.js'
import { entityKey } from './entityNames.js'
import { type EntityMention, entitiesOf, recognizeMentions, recognizeRelations } from './entityRecognition.js'
import type {
  ExtractedStatement,
  ExtractionInput,
  ExtractionResult,
  Extractor,
  IngestionMode,
  RecognizedEntity,
} from './extraction.js'
import { removeNearDuplicates } from './nearDuplicates.js'
import { finestStartOf, type ResolvedDate, resolveDates } from './relativeDates.js'
import { splitLongSentence, splitSentences, withPreferencesApart } from './sentences.js'
import { restoreDroppedSubject } from './droppedSubjects.js'
import { speakInThirdPerson } from './thirdPerson.js'
import { blocksOf, listSentences, withoutInlineMarkup } from './textBlocks.js'
import { splitTurns, type SpeakerTurn } from './turnSplitting.js'

/** Upper bound of a statement's content; longer groups are not formed and longer sentences are cut. */
export const MAX_STATEMENT_CONTENT = 400
// Room for "<Speaker> said: " and the date resolutions appended after splitting.
const MAX_SENTENCE = 300

const stopwords = new Set(
  `a an the and or but so if then than that this these those there here it its it's i i'm i've i'll i'd me my mine myself
  we we're we've we'll we'd us our ours ourselves you you're you've you'll you'd your yours yourself yourselves he he's
  him his himself she she's her hers herself they they're they've they'll they'd them their theirs themselves what
  what's which who who's whom whose when where why how all any both each few more most other some such no nor not only
  own same too very can will just don't should now is am are was were be been being have has had having do does did
  doing would could might must shall may to of in on at by for with about against between into through during before
  after above below from up down out off over under again further once also as until while because per via get got gets
  getting go going goes went gone let let's make made really quite pretty much many lot lots thing things stuff kind
  sort bit way ways one ones something anything everything nothing someone anyone everyone even still yet though
  although however maybe perhaps probably actually literally basically definitely totally absolutely sure well ever
  never always often sometimes usually already soon later today tonight tomorrow yesterday gonna wanna gotta kinda
  sorta cause 'cause can't won't didn't doesn't isn't aren't wasn't weren't haven't hasn't couldn't wouldn't shouldn't
  that's there's here's where's how's it'll that'll who'd ya yeah yep yup yes no nope ok okay oh ah aw aww wow hey hi
  hello haha hahaha lol omg hmm um uh thanks thank please sorry bye see talk catch soon great awesome cool nice amazing
  wonderful fantastic good sweet lovely incredible impressive fun super exactly right true agree agreed indeed hear
  heard know knew think mean guess`.split(/\s+/),
)

// Wishes and goodbyes: two content words ("Take care!", "Enjoy your day!") that still say nothing.
const courtesy =
  /^(?:take care|enjoy|have (?:a|an|fun)|good luck|best of luck|keep (?:it|up|going|at it)|hang in|stay (?:safe|strong|tuned)|happy \w+day|congrat|cheers|see (?:you|ya)|talk (?:to you )?soon|catch you|bye|let me know|keep me posted|thanks|thank you)\b/i

// Words that open a reply without informing. The ones that can also start a statement ("No doubt…", "Great that
// you…") only count when punctuation follows them.
const leadingInterjection =
  /^(?:(?:oh my god|oh my gosh|oh wow|oh|wow|whoa|yeah|yep|yup|hey|hi|hello|hiya|haha|hahaha|lol|lmao|aw+|hmm+|um+|uh+|ah+|omg|btw)\b[\s,!.…]*|(?:oh no|by the way|no|nope|yes|well|ok|okay|alright|sure|anyway|anyways|awesome|cool|nice|great|totally|definitely|absolutely|exactly|true|thanks|thank you|thx|honestly|seriously|basically|actually|literally)[,!.…]+\s*|(?:guess what|big news|good news|great news|fun fact|you know what)\s*[,!.…:–—-]+\s*)+/i

/** A bracketed or starred stage direction in chat exports: "[shares a photo: …]", "*waves*". */
const stageDirection = /\s*(?:\[[a-z][^\][]{2,400}\]|\*[a-z][^*]{2,200}\*)\s*/g

const followUpOpener =
  /^(?:it|its|it's|it’s|that|that's|that’s|this|they|they're|they’re|they've|he|he's|she|she's|so|and|but|which|these|those|then|plus|also)\b/i

const firstPersonSubjectOrOwner = /\b(?:I|i|I['’]m|I['’]ve|I['’]ll|I['’]d|[Mm]y|[Mm]ine)\b/

const questionEnd = /\?[!?"'”’)\]]*$/

interface Clause {
  text: string
  occurredOn: string | null
  dates: ResolvedDate[]
  aboutSpeaker: boolean
  mentions: EntityMention[]
  isFollowUp: boolean
  /** It names something beyond the conversation's participants: a date, a number, a person, place or thing. */
  namesSomething: boolean
  /** What the sentence says, in three grades: nothing (greeting, thanks), a little (a remark), enough to stand alone. */
  substance: 'none' | 'some' | 'standalone'
}

interface DocumentContext {
  input: ExtractionInput
  knownPeople: string[]
  knownProperNouns: Set<string>
  /** People of the last sentence that mentioned any, for he/she/they (long-range only). */
  lastPeople: { names: string[]; text: string }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function contentWordsOf(sentence: string, ignoredNames: ReadonlySet<string>): string[] {
  return (
    sentence
      .toLowerCase()
      .replace(/’/g, "'")
      .match(/[\p{L}][\p{L}']*/gu) ?? []
  ).filter((word) => word.length > 1 && !stopwords.has(word) && !ignoredNames.has(word.replace(/'s$/, '')))
}

/** Removes what addresses the listener rather than informs: "Wow, Mel! …" openers and a closing ", Mel!". */
function withoutAddress(sentence: string, addressees: readonly string[]): string {
  let text = sentence.replace(leadingInterjection, '')
  for (const name of addressees) {
    const escaped = escapeRegExp(name)
    text = text
      .replace(new RegExp(`^${escaped}\\s*[,!.]+\\s*`, 'u'), '')
      .replace(new RegExp(`,\\s*${escaped}\\s*(?=[!?.…]*$)`, 'u'), '')
  }
  text = text.replace(leadingInterjection, '').trim()
  return /[\p{L}\p{N}]/u.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : ''
}

const pronounSubject = /^(he|she|they)(?:(['’]s)|(['’]re)|(['’]ve)|(['’]ll)|(['’]d))?\b/i

/** Long-range coreference: a sentence opening with he/she/they names the person(s) last mentioned, if unambiguous. */
function resolveLeadingPronoun(text: string, speaker: string | null, context: DocumentContext): string {
  const match = pronounSubject.exec(text)
  if (!match) return text
  const speakerKey = speaker === null ? null : entityKey(speaker)
  const candidates = context.lastPeople.names.filter((name) => entityKey(name) !== speakerKey)
  const pronoun = (match[1] ?? '').toLowerCase()
  let subject: string | null = null
  if (pronoun !== 'they' && candidates.length === 1) subject = candidates[0] ?? null
  if (pronoun === 'they' && candidates.length === 2) {
    const [first, second] = candidates
    if (first && second && context.lastPeople.text.includes(`${first} and ${second}`))
      subject = `${first} and ${second}`
  }
  if (subject === null) return text
  const plural = pronoun === 'they'
  const rest = text.slice(match[0].length)
  const nextWord = /^\s+(\w+)/.exec(rest)?.[1]?.toLowerCase() ?? ''
  let verb = ''
  if (match[2]) verb = /^(?:been|got|gotten|had|done|gone|seen|made)$|ed$/.test(nextWord) ? ' has' : ' is'
  else if (match[3]) verb = ' are'
  else if (match[4]) verb = plural ? ' have' : ' has'
  else if (match[5]) verb = ' will'
  else if (match[6]) verb = ' would'
  return `${subject}${verb}${rest}`
}

/** One sentence made self-contained and graded; records its people in `context.lastPeople` for the next one. */
function clauseOf(sentence: string, turn: SpeakerTurn, context: DocumentContext): Clause | null {
  const { speaker } = turn
  const isStageDirection = /^\[[^\]]+\]$|^\*[^*]+\*$/.test(sentence)
  const stripped = isStageDirection
    ? `${speaker ?? 'Someone'} ${sentence.slice(1, -1)}`
    : withoutAddress(sentence, turn.addressees)
  if (stripped === '') return null
  const isQuestion = questionEnd.test(stripped)
  const isFollowUp = followUpOpener.test(stripped)

  let text = stripped
  let aboutSpeaker = isStageDirection && speaker !== null
  if (speaker !== null && !isStageDirection) {
    const rewrite = speakInThirdPerson(restoreDroppedSubject(stripped), speaker)
    text = rewrite.text
    aboutSpeaker = rewrite.aboutSpeaker
  }
  if (context.input.mode === 'long-range') text = resolveLeadingPronoun(text, speaker, context)
  const resolution = resolveDates(text, context.input.documentCreatedAt)
  const mentions = recognizeMentions(resolution.text, {
    speaker,
    knownPeople: context.knownPeople,
    knownProperNouns: context.knownProperNouns,
  })
  const people = mentions.filter((mention) => mention.type === 'person').map((mention) => mention.name)
  if (people.length > 0) context.lastPeople = { names: [...new Set(people)], text: resolution.text }

  const participants = new Set(
    [speaker, ...turn.addressees].filter((name): name is string => !!name).map(entityKey),
  )
  // A resolved date is content on its own: "See you tomorrow!" records a plan.
  const contentWords = contentWordsOf(stripped, participants).length + resolution.dates.length
  const namesSomething =
    resolution.dates.length > 0 ||
    /\d/.test(stripped) ||
    mentions.some((mention) => !participants.has(entityKey(mention.name)))
  let substance: Clause['substance'] = contentWords === 0 ? 'none' : 'some'
  if (isQuestion) {
    // Between people a question informs when it carries the asker's own news ("Have you seen the painting I made?")
    // or names something; "Could you tell me…" asks. What a user asks an assistant is what they work on ("what
    // happens if the user makes rapid consecutive calls?"): kept as asked when it has two content words.
    const asksAboutOwnNews = firstPersonSubjectOrOwner.test(stripped)
    const informs = asksAboutOwnNews || namesSomething || isUserRole(speaker)
    substance = informs && contentWords >= 2 ? 'standalone' : 'none'
  } else if (courtesy.test(stripped) && resolution.dates.length === 0) {
    substance = 'none'
  } else if (contentWords >= 2 || (namesSomething && contentWords >= 1)) {
    substance = 'standalone'
  }
  return {
    text: resolution.text,
    occurredOn: resolution.occurredOn,
    dates: resolution.dates,
    aboutSpeaker,
    mentions,
    isFollowUp: isFollowUp && !isQuestion,
    namesSomething,
    substance,
  }
}

/** Follow-up sentences ("It was so powerful.") join the statement before them, so each statement stands alone. */
function groupClauses(clauses: readonly Clause[]): Clause[][] {
  const groups: Clause[][] = []
  let current: Clause[] | null = null
  for (const clause of clauses) {
    if (clause.substance === 'none') continue
    const currentLength = current?.reduce((length, part) => length + part.text.length + 1, 0) ?? 0
    // Joined text leaves room for a "<Speaker> said: " prefix.
    const fits = currentLength + clause.text.length <= MAX_STATEMENT_CONTENT - 40
    if (current && clause.isFollowUp && fits) {
      current.push(clause)
      continue
    }
    if (clause.substance !== 'standalone') continue
    current = [clause]
    groups.push(current)
  }
  return groups
}

function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const cut = text.lastIndexOf(' ', maxChars - 1)
  return `${text.slice(0, cut > maxChars / 2 ? cut : maxChars - 1).trimEnd()}…`
}

function statementOf(
  group: readonly Clause[],
  speaker: string | null,
  mode: IngestionMode,
): ExtractedStatement {
  const body = group.map((clause) => clause.text).join(' ')
  const aboutSpeaker = group.some((clause) => clause.aboutSpeaker)
  const dates = group.flatMap((clause) => clause.dates)
  const mentions: EntityMention[] = []
  let offset = 0
  for (const clause of group) {
    mentions.push(
      ...clause.mentions.map((mention) => ({
        ...mention,
        start: mention.start + offset,
        end: mention.end + offset,
      })),
    )
    offset += clause.text.length + 1
  }
  const speakerKey = speaker === null ? null : entityKey(speaker)
  // A role may open the statement in lower case ("The user is…"); "the user" elsewhere may be the app's users.
  const namesSpeaker =
    speaker !== null &&
    (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(speaker)}(?![\\p{L}\\p{N}])`, 'u').test(body) ||
      ((isUserRole(speaker) || isAssistantSpeaker(speaker)) &&
        new RegExp(`^(?:the )?${escapeRegExp(speaker)}\\b`, 'i').test(body)))
  const mentioned =
    speaker !== null && !aboutSpeaker
      ? mentions.filter((mention) => entityKey(mention.name) !== speakerKey)
      : mentions
  let entities: RecognizedEntity[] = entitiesOf(mentioned, dates)
  if (speaker !== null && aboutSpeaker && !entities.some((entity) => entityKey(entity.name) === speakerKey)) {
    entities = [{ name: speaker, type: 'person' }, ...entities]
  }
  const relations = mode === 'long-range' ? recognizeRelations(body, mentioned, entities, speaker) : []
  let content = body
  if (speaker !== null && !namesSpeaker) {
    content = `${speaker} ${questionEnd.test(body) ? 'asked' : 'said'}: ${body}`
  }
  content = truncate(content, MAX_STATEMENT_CONTENT)
  const occurredOn = finestStartOf(dates)
  return {
    content,
    speaker,
    occurredOn,
    entities,
    relations,
    category: categorize({ content, occurredOn }),
  }
}

/** Capitalized words after a lower-case word: names, known to be names when they open a sentence elsewhere. */
function properNounsOf(text: string): Set<string> {
  const keys = new Set<string>()
  for (const match of text.matchAll(
    /(?<=[\p{Ll},]\s+)\p{Lu}[\p{Ll}\p{M}'’-]+(?:\s+\p{Lu}[\p{Ll}\p{M}'’-]+)*/gu,
  )) {
    keys.add(entityKey(match[0]))
  }
  return keys
}

/** Stage directions become sentences of their own; they are written without punctuation around them. */
function withStageDirectionsApart(text: string): string {
  return text.replace(stageDirection, (whole) => `\n\n${whole.trim()}\n\n`)
}

/**
 * The sentences of a turn, read by blocks: a list is one sentence (or a few, each with its lead), a heading opens
 * the paragraph after it, code says nothing.
 */
function sentencesOf(text: string): string[] {
  const sentences: string[] = []
  let heading: string | null = null
  for (const block of blocksOf(text)) {
    if (block.kind === 'heading') {
      heading = block.text
      continue
    }
    if (block.kind === 'list') sentences.push(...listSentences(block, MAX_SENTENCE))
    if (block.kind === 'prose') {
      const prose = splitSentences(withStageDirectionsApart(withoutInlineMarkup(block.text)))
        .flatMap(withPreferencesApart)
        .flatMap((sentence) => splitLongSentence(sentence, MAX_SENTENCE))
      if (heading !== null && prose[0] !== undefined && heading.length + prose[0].length < MAX_SENTENCE)
        prose[0] = `${heading.replace(/[:.]$/, '')}: ${prose[0]}`
      sentences.push(...prose)
    }
    heading = null
  }
  return sentences
}

/** The rules over a whole document, one sentence at a time: yields after each, returns the statements. */
function* statementSteps(input: ExtractionInput): Generator<void, ExtractedStatement[]> {
  const turns = splitTurns(input.text, input.documentType)
  const knownPeople = [
    ...new Set(
      turns.flatMap((turn) => [turn.speaker, ...turn.addressees]).filter((name): name is string => !!name),
    ),
  ]
  const context: DocumentContext = {
    input,
    knownPeople,
    knownProperNouns: properNounsOf(input.text),
    lastPeople: { names: [], text: '' },
  }
  const statements: ExtractedStatement[] = []
  for (const turn of turns) {
    const clauses: Clause[] = []
    for (const sentence of sentencesOf(turn.text)) {
      const clause = clauseOf(sentence, turn, context)
      if (clause !== null) clauses.push(clause)
      yield
    }
    if (isAssistantSpeaker(turn.speaker) && isCourtesyReply(turn.text, clauses)) continue
    const said = groupClauses(clauses).map((group) => statementOf(group, turn.speaker, input.mode))
    statements.push(
      ...(isAssistantSpeaker(turn.speaker)
        ? selectAssistantStatements(said, assistantStatementBudget(turn.text.length))
        : said),
    )
  }
  return removeNearDuplicates(statements, (statement) => statement.content)
}

/**
 * An assistant's short reply that names nothing and is about nothing ("That sounds good, tell me more.", "Got it,
 * thanks for sharing.") is courtesy: what the person said is their memory, the acknowledgement is no one's. A short
 * reply about something ("A pond needs a sunny spot…") informs: the tagger's common nouns tell the two apart.
 */
function isCourtesyReply(text: string, clauses: readonly Clause[]): boolean {
  return (
    text.length <= courtesyReplyLength &&
    !clauses.some((clause) => clause.namesSomething) &&
    !commonNounsOf(text).some((noun) => !stopwords.has(noun.toLowerCase()))
  )
}
const courtesyReplyLength = 160

/** Runs the rules over a whole document at once; for tests, benchmarks and synchronous callers. */
export function extractStatements(input: ExtractionInput): ExtractedStatement[] {
  return runToEnd(statementSteps(input))
}

/**
 * The same statements, read in time slices: a long document does not hold the thread (and the event loop of
 * whatever shares it: acknowledgements, projections) for the whole of its reading.
 */
export function extractStatementsInSlices(
  input: ExtractionInput,
  slicing: TimeSlicing = {},
): Promise<ExtractedStatement[]> {
  return runInSlices(statementSteps(input), slicing)
}

export function createBuiltinExtractor(): Extractor {
  return {
    name: 'builtin',
    async extract(input: ExtractionInput, signal?: AbortSignal): Promise<ExtractionResult> {
      signal?.throwIfAborted()
      return { statements: await extractStatementsInSlices(input, signal ? { signal } : {}) }
    },
  }
}
