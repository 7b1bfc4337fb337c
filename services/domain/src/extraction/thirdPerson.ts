/**
 * A speaker's first person rewritten into their name ("I went" → "Caroline went"), so a memory read on its own still
 * says whom it is about; verbs agree with the new subject.
 */

import { baseVerbs } from './baseVerbs.js'

/** Verb forms that make a clause finite ("is", "makes", "can't"). */
export const finiteVerbs = new Set(
  "is are was were 's has have had does do did can could will would should may might must isn't aren't wasn't weren't doesn't don't didn't can't won't hasn't haven't wouldn't shouldn't couldn't makes helps gives keeps brings takes means sounds looks seems feels gets goes lets needs requires involves costs pays works matters becomes".split(
    ' ',
  ),
)

const modalsAndNegatives = new Set(
  "can could will would shall should may might must ought can't cannot couldn't won't wouldn't shouldn't mustn't didn't wasn't weren't was were did had used gonna".split(
    ' ',
  ),
)

/** Irregular past forms; with regular "-ed" words they mark a past verb that takes no agreement. */
export const irregularPastVerbs = new Set(
  'went got made saw took came gave found knew thought told felt left kept began brought bought built caught chose drew drove ate fell fought flew forgot grew heard held hid led lent lost meant met paid ran rode rang rose said sold sent shook shot sang sat slept spoke spent stood stole struck swam taught tore threw understood woke wore won wrote did had was were became dug drank fed forgave froze hung laid lay sank slid spun stuck stung swore swept swung wept wound'.split(
    ' ',
  ),
)

/**
 * Past forms that are also adjectives or nouns at a sentence's start ("Broke again lol", "Bit tired"): past only after
 * a subject ("marcus and I broke up"), so a subjectless sentence opening with one is not given the speaker.
 */
const pastFormsAfterSubject = new Set(
  'broke bit blew bent bled bred burnt dealt dove dreamt fled flung forbade knelt leapt learnt lit mistook overcame overtook sought shone shrank spat sprang stank strode trod undertook withdrew awoke arose'.split(
    ' ',
  ),
)

/** Verbs whose present and past look the same; without knowing which, they are left unchanged. */
// "bet" is not among them: "I bet it was cold" is present.
const ambiguousTenseVerbs = new Set('let put cut set hit hurt quit read cost shut spread split'.split(' '))

const pastParticiples = new Set(
  'been had gone done seen known taken given got gotten forgotten eaten written driven spoken broken chosen fallen flown grown hidden ridden risen shown thrown worn won lost made met heard felt found left kept paid sent spent told thought bought brought caught taught'.split(
    ' ',
  ),
)

const adverbs = new Set(
  'just also always never still even really totally actually finally first once later almost soon ever often sometimes usually recently already definitely absolutely truly honestly literally seriously generally mostly only simply kinda sorta personally genuinely certainly rarely seldom hardly barely occasionally normally basically probably constantly now sure too def legit lowkey highkey def'.split(
    ' ',
  ),
)

/** Words that can follow "I" without being its verb ("I myself think", "you and I too"). */
const notVerbsAfterSubject = new Set(
  'myself me the a an you it this that these those he she they we too and or but so if when then there here not'.split(
    ' ',
  ),
)

const isAdverb = (word: string) => adverbs.has(word) || (word.length > 4 && word.endsWith('ly'))

const pastExceptions = new Set(
  'need feed seed speed indeed proceed exceed succeed breed bleed embed bed red shed wed'.split(' '),
)

export function isPastForm(word: string): boolean {
  return (
    irregularPastVerbs.has(word) ||
    pastFormsAfterSubject.has(word) ||
    ambiguousTenseVerbs.has(word) ||
    (/^[a-z]{2,}ed$/.test(word) && !pastExceptions.has(word))
  )
}

const irregularThirdPerson: Record<string, string> = {
  am: 'is',
  are: 'is',
  be: 'is',
  have: 'has',
  do: 'does',
  go: 'goes',
  "don't": "doesn't",
  "haven't": "hasn't",
  "aren't": "isn't",
  "ain't": "isn't",
  wanna: 'wants to',
  gotta: 'has to',
}

/** Simple-present third person of a base verb: love → loves, watch → watches, study → studies. */
export function thirdPersonOf(verb: string): string {
  const lower = verb.toLowerCase()
  const irregular = irregularThirdPerson[lower]
  if (irregular !== undefined) return irregular
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`
  return `${verb}s`
}

/** Keeps a replaced word's leading capital ("Do I" → "Does Caroline") and its apostrophe ("wasn’t" → "weren’t"). */
function withCaseOf(original: string, replacement: string): string {
  const styled = original.includes('’') ? replacement.replaceAll("'", '’') : replacement
  return /^\p{Lu}/u.test(original) ? styled.charAt(0).toUpperCase() + styled.slice(1) : styled
}

const wordToken = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu

export interface Token {
  text: string
  start: number
  end: number
  lower: string
}

export function tokensOf(sentence: string): Token[] {
  return Array.from(sentence.matchAll(wordToken), (match) => ({
    text: match[0],
    start: match.index,
    end: match.index + match[0].length,
    lower: match[0].toLowerCase().replace(/’/g, "'"),
  }))
}

/** Auxiliaries and modals that come before "I" in a question or an inversion ("Do I", "should I", "so am I"). */
const invertingAuxiliaries = new Set(
  "am was were do did have had can could will would shall should may might must don't didn't haven't hadn't can't couldn't won't wouldn't shouldn't aren't wasn't weren't".split(
    ' ',
  ),
)

/** The inverted auxiliary agreeing with a name ("Do I" → "Does Caroline") or with "they" ("was I" → "were they"). */
const invertedForName: Record<string, string> = {
  am: 'is',
  do: 'does',
  have: 'has',
  "don't": "doesn't",
  "haven't": "hasn't",
  "aren't": "isn't",
}
const invertedForThey: Record<string, string> = { am: 'are', was: 'were', "wasn't": "weren't" }
const verbForThey: Record<string, string> = { am: 'are', was: 'were', "wasn't": "weren't", "ain't": "aren't" }

/** "I has been ages": a verb that cannot follow "I" shows the "I" is a typo ("It"), not the speaker. */
const notAfterI = new Set("has is does hasn't isn't doesn't".split(' '))

/** Other people's pronouns: once one has been used, a later "they" could mean them, so the speaker is named again. */
const othersPlural = new Set(
  "they them their theirs themselves themself they're they've they'll they'd".split(' '),
)

/** Words that open a new clause: a compound predicate ("lives and works") does not reach past them. */
const clauseOpeners = new Set(
  'to that which who whom whose where when while because since if unless until so but as than though although whether how what why after before once i me you he she it we they there this these those'.split(
    ' ',
  ),
)

/** Words a verb is followed by but a noun rarely is: "and want to", "and love it", "and work." */
const verbFollowers = new Set(
  'a an the my your his her its our their this that these those some any every each all more no it them him her us you me myself yourself themselves to at in on for with about from into onto by of up out down off back over around through away together here there home hard well so too as like what how'.split(
    ' ',
  ),
)

const determiners = new Set('a an the my your his her its our their this that these those'.split(' '))
const prepositions = new Set(
  'of with for in on at from about by into through over under between among'.split(' '),
)

/** A speaker label that names a role, not a person: written "the user" in the statement. */
const userRoles = /^(?:user|human)$/i

interface Replacement {
  start: number
  end: number
  text: string
}

export interface ThirdPersonRewrite {
  text: string
  /** The speaker is a participant: first person singular was rewritten, or "we/us/our" includes them. */
  aboutSpeaker: boolean
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * Rewrites first person singular into the third person with agreement. The first mention names the speaker ("I'm"
 * → "Caroline is", "I love" → "Caroline loves", "my" → "Caroline's", "Do I" → "Does Caroline"); later ones are
 * "they/them/their/themself" ("they're", "they were"), unless another "they" came before them or they are part of
 * a compound ("my husband and I"), where the name is repeated. A role label ("User") is written "the user". Past
 * forms and modals keep their form; a second verb of a compound predicate agrees too ("lives and works"). "We/our/
 * us" stay; they only mark the speaker as a participant.
 */
export function speakInThirdPerson(sentence: string, speaker: string): ThirdPersonRewrite {
  const tokens = tokensOf(sentence)
  const name = userRoles.test(speaker) ? 'the user' : speaker
  const possessive = `${name}'s`
  const replacements: Replacement[] = []
  const separatorBefore = (index: number) => {
    const previous = tokens[index - 1]
    const token = tokens[index]
    return previous && token ? sentence.slice(previous.end, token.start) : ''
  }
  // Agreement only crosses plain spaces: punctuation between "I" and a word means the word is not its verb.
  const isPlainGap = (index: number) => /^\s+$/.test(separatorBefore(index))
  const atSentenceStart = (index: number) => {
    const token = tokens[index]
    if (!token) return false
    // The first word of the text, whatever precedes it ("// I'm using…", "- My plan…").
    if (index === 0) return true
    return /[.!?]["'”’)\]]*\s+["'“‘([]*$/.test(separatorBefore(index))
  }
  const replaceToken = (index: number, text: string) => {
    const token = tokens[index]
    if (token) replacements.push({ start: token.start, end: token.end, text })
  }

  const mentions = tokens.flatMap((token, index) =>
    isSpeakerMention(sentence, tokens, index) ? [index] : [],
  )
  const aboutSpeaker =
    mentions.length > 0 ||
    tokens.some((token) => /^(?:we|we're|we've|we'll|we'd|us|our|ours|ourselves)$/.test(token.lower))

  mentions.forEach((index, order) => {
    const token = tokens[index]
    if (!token) return
    const previous = tokens[index - 1]
    const coordinated = isCoordinated(tokens, index, sentence)
    const named =
      order === 0 || coordinated || tokens.slice(0, index).some((earlier) => othersPlural.has(earlier.lower))
    const apostrophe = token.text.includes('’') ? '’' : "'"
    const startCase = (text: string) => (atSentenceStart(index) ? capitalized(text) : text)
    // "reminding me I'm not alone" would read "reminding Caroline Caroline is…"; a "that" keeps the names apart.
    const thatAfterObject = named && previous?.lower === 'me' && isPlainGap(index) ? 'that ' : ''
    const put = (text: string, prefix = '') => replaceToken(index, prefix + startCase(text))
    switch (token.lower) {
      case 'me':
        put(named ? name : 'them')
        return
      case 'myself':
        put(named ? name : 'themself')
        return
      case 'my':
        put(named ? possessive : 'their')
        return
      case 'mine':
        put(named ? possessive : 'theirs')
        return
      case "i'm":
        put(named ? `${name} is` : `they${apostrophe}re`, thatAfterObject)
        if (named) conjugateCompoundPredicate(index)
        return
      case "i've":
        put(named ? `${name} has` : `they${apostrophe}ve`)
        if (named) conjugateCompoundPredicate(index)
        return
      case "i'll":
        put(named ? `${name} will` : `they${apostrophe}ll`)
        return
      case "i'd": {
        if (!named) return put(`they${apostrophe}d`)
        const next = nextVerbIndex(tokens, index, isPlainGap)
        const verb = next === null ? undefined : tokens[next]?.lower
        const isPerfect = verb !== undefined && (pastParticiples.has(verb) || /ed$/.test(verb))
        put(`${name} ${isPerfect ? 'had' : 'would'}`)
        return
      }
      default:
        break
    }
    put(named ? name : 'they', thatAfterObject)
    if (previous && isPlainGap(index) && invertingAuxiliaries.has(previous.lower)) {
      const auxiliary = (named ? invertedForName : invertedForThey)[previous.lower]
      if (auxiliary !== undefined) replaceToken(index - 1, withCaseOf(previous.text, auxiliary))
      return
    }
    if (coordinated) return
    const verbIndex = nextVerbIndex(tokens, index, isPlainGap)
    const verb = verbIndex === null ? undefined : tokens[verbIndex]
    if (verbIndex === null || !verb || tokens[index + 1]?.lower === 'and') return
    if (!named) {
      const agreeing = verbForThey[verb.lower]
      if (agreeing !== undefined) replaceToken(verbIndex, withCaseOf(verb.text, agreeing))
      return
    }
    if (modalsAndNegatives.has(verb.lower) || isPastForm(verb.lower)) return
    if (!/^[a-z']+$/.test(verb.lower) || notVerbsAfterSubject.has(verb.lower)) return
    conjugate(verbIndex)
    conjugateCompoundPredicate(verbIndex)
  })

  /** Third person singular of the verb at `index`; of a hyphenated verb's last part ("color-codes"). */
  function conjugate(index: number) {
    let last = index
    while (
      sentence[tokens[last]?.end ?? 0] === '-' &&
      tokens[last + 1]?.start === (tokens[last]?.end ?? 0) + 1
    )
      last++
    const verb = tokens[last]
    if (verb) replaceToken(last, withCaseOf(verb.text, thirdPersonOf(verb.lower)))
  }

  /**
   * "(Caroline) lives and work" → "lives and works": a base verb right after "and"/"or" in the same clause shares
   * the subject, unless it reads as a noun: after a determiner or preposition and not followed by what follows a
   * verb ("the music and dance scene", "your help and care.").
   */
  function conjugateCompoundPredicate(verbIndex: number) {
    for (let index = verbIndex + 1; index < tokens.length; index++) {
      const token = tokens[index]
      // Past a comma the clause is likely another one ("…, and look at this").
      if (!token || /[,.;:!?()"“”—–]|\s-\s/.test(separatorBefore(index))) return
      if (clauseOpeners.has(token.lower) || modalsAndNegatives.has(token.lower)) return
      if (/'(?:re|ve|ll|d|m)$/.test(token.lower)) return
      if (token.lower !== 'and' && token.lower !== 'or') continue
      let candidate = index + 1
      while (tokens[candidate] && isAdverb(tokens[candidate]?.lower ?? '') && isPlainGap(candidate))
        candidate++
      const verb = tokens[candidate]
      if (!verb || !isPlainGap(candidate) || verb.text !== verb.lower || !baseVerbs.has(verb.lower)) continue
      const after = tokens[candidate + 1]
      const followedLikeAVerb =
        sentence[verb.end] === '-' ||
        (after !== undefined &&
          isPlainGap(candidate + 1) &&
          (verbFollowers.has(after.lower) || isAdverb(after.lower) || after.text !== after.lower))
      // After a noun phrase ("your help and care.") "and" more likely joins another noun.
      const afterNounPhrase = tokens
        .slice(verbIndex + 1, index)
        .some((word) => determiners.has(word.lower) || prepositions.has(word.lower))
      if (followedLikeAVerb || !afterNounPhrase) conjugate(candidate)
      index = candidate
    }
  }

  let text = ''
  let cursor = 0
  for (const replacement of replacements.sort((a, b) => a.start - b.start)) {
    text += sentence.slice(cursor, replacement.start) + replacement.text
    cursor = replacement.end
  }
  return { text: text + sentence.slice(cursor), aboutSpeaker }
}

const firstPersonForms = new Set(['i', "i'm", "i've", "i'll", "i'd", 'me', 'my', 'mine', 'myself'])

/** A first-person word that refers to the speaker: not part of a compound ("me-time"), "i.e.", "Henry I" or a typo. */
function isSpeakerMention(sentence: string, tokens: readonly Token[], index: number): boolean {
  const token = tokens[index]
  if (!token || !firstPersonForms.has(token.lower)) return false
  if (sentence[token.start - 1] === '-' || sentence[token.end] === '-') return false
  if (token.lower !== 'i') return true
  if (token.text === 'i' && sentence.slice(token.end, token.end + 2) === '.e') return false
  const previous = tokens[index - 1]
  const next = tokens[index + 1]
  const gapBefore = previous ? sentence.slice(previous.end, token.start) : ''
  if (previous && /^\p{Lu}/u.test(previous.text) && /^\s+$/.test(gapBefore) && next === undefined)
    return false
  return !(next && /^\s+$/.test(sentence.slice(token.end, next.start)) && notAfterI.has(next.lower))
}

/** "my husband and I", "you and me", "me and my friends": the speaker as one of a compound. */
function isCoordinated(tokens: readonly Token[], index: number, sentence: string): boolean {
  const token = tokens[index]
  if (!token || !['i', 'me', 'myself'].includes(token.lower)) return false
  const previous = tokens[index - 1]?.lower
  const next = tokens[index + 1]?.lower
  if (previous === 'and' || previous === 'or' || previous === 'nor')
    return token.lower !== 'i' || isCompoundSubject(tokens, index - 1, sentence)
  return (next === 'and' || next === 'or') && token.lower !== 'myself'
}

const firstPersonSubjects = new Set(['i', "i'm", "i've", "i'll", "i'd"])
const subjectOpeners = new Set('you he she we they him her them us'.split(' '))
const conjunctions = new Set(
  'and or but nor so because when while if that since after before although though until unless where which who'.split(
    ' ',
  ),
)

/**
 * "My husband and I love …" (a compound subject: plural agreement) versus "I love it and I think …" or "…, and I
 * see" (a second clause): the words from the clause start to "and" form a subject only when they are a short
 * phrase with no verb that opens with a determiner, or a name, or a pronoun alone, and no comma comes before "and".
 */
function isCompoundSubject(tokens: readonly Token[], conjunctionIndex: number, sentence: string): boolean {
  const before = tokens[conjunctionIndex - 1]
  const conjunction = tokens[conjunctionIndex]
  if (!before || !conjunction || /[,;:]/.test(sentence.slice(before.end, conjunction.start))) return false
  let first = conjunctionIndex - 1
  for (let index = conjunctionIndex - 1; index >= 0; index--) {
    const token = tokens[index]
    if (!token) break
    if (firstPersonSubjects.has(token.lower) || finiteVerbs.has(token.lower) || isPastForm(token.lower))
      return false
    // "…, and my kids and I": the conjunct starts after the word that opened its clause.
    if (conjunctions.has(token.lower)) break
    first = index
    // A clause starts after punctuation and a space ("Last week, my wife and I"), not inside "38,000".
    const gap = sentence.slice(tokens[index - 1]?.end ?? 0, token.start)
    if (/[,;:.!?–—]\s/.test(gap) || /\s-\s/.test(gap)) break
  }
  const conjunct = tokens.slice(first, conjunctionIndex)
  const opener = conjunct[0]
  if (!opener || conjunct.length > 4) return false
  if (determiners.has(opener.lower)) return true
  if (conjunct.length === 1 && subjectOpeners.has(opener.lower)) return true
  // "Jon and I", "Mary Jane and I" (a name), not "PNPM packages and I".
  return conjunct.every((token) => /^\p{Lu}/u.test(token.text))
}

/** The first word after `index` that is not an adverb, if only spaces separate them. */
function nextVerbIndex(
  tokens: readonly Token[],
  index: number,
  isPlainGap: (index: number) => boolean,
): number | null {
  for (let next = index + 1; next < tokens.length; next++) {
    const token = tokens[next]
    if (!token || !isPlainGap(next)) return null
    if (!isAdverb(token.lower)) return next
  }
  return null
}
