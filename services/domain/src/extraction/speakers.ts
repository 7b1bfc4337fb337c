/**
 * Who says what: splits chat logs, transcripts and emails into speaker turns, and rewrites a speaker's first person
 * into their name ("I went" → "Caroline went"), so a memory read on its own still says whom it is about.
 */

export interface SpeakerTurn {
  /** The speaker's name as labelled, or null for text without speaker labels (notes, articles). */
  speaker: string | null
  text: string
  /** Names the turn addresses: email recipients and names used as vocatives ("Thanks, Melanie!"). */
  addressees: string[]
}

/** Document types whose lines are speaker turns even when only one line carries a label. */
const conversationalTypes = new Set([
  'ai-chat-conversation',
  'human-chat-conversation',
  'meeting-transcript',
  'audio',
  'support-ticket',
])

const roleLabels: Record<string, string> = {
  user: 'User',
  assistant: 'Assistant',
  human: 'Human',
  ai: 'AI',
  system: 'System',
  bot: 'Bot',
  agent: 'Agent',
  customer: 'Customer',
}

/** Labels that introduce a field or a section, not a speaker ("Note: …", "Action items:"). */
const fieldLabels = new Set(
  'note|notes|subject|re|fwd|fw|from|to|cc|bcc|date|sent|time|when|where|location|venue|agenda|summary|attendees|participants|present|absent|action items|action item|next steps|decisions|decision|todo|to do|warning|caution|update|ps|p.s|p.s.|nb|question|answer|q|a|tip|tips|example|important|reminder|result|results|status|title|topic|total|price|cost|address|phone|email|e-mail|tel|fax|website|url|link|source|category|tags|tag|type|name|description|details|deadline|due|owner|priority|goal|goals|objective|objectives|outcome|background|context|conclusion|overview|highlights|key points|remember|bonus|edit|fyi|btw|ingredients|directions|instructions|pros|cons|disclaimer|translation|transcript|minutes|meeting|step|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|january|february|march|april|may|june|july|august|september|october|november|december'.split(
    '|',
  ),
)

const nameWord = String.raw`\p{Lu}[\p{L}\p{M}'’.-]*`
const nameParticle = String.raw`(?:van|von|de|der|den|da|del|della|di|du|la|le|bin|al|el)`
const personName = String.raw`${nameWord}(?:\s+(?:${nameWord}|${nameParticle}(?=\s)|\d{1,2}\b)){0,3}`
const roleName = String.raw`(?:[Uu]ser|[Aa]ssistant|[Hh]uman|AI|ai|[Ss]ystem|[Bb]ot|[Aa]gent|[Cc]ustomer)`
const timestamp = String.raw`(?:\[[^\]\n]{0,24}\d[^\]\n]{0,24}\]|\(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?\)|\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?(?:\s*[-–|])?)`
const emphasis = String.raw`(?:\*\*|__)?`
const speakerLine = new RegExp(
  String.raw`^\s*(?:${timestamp}\s*)?${emphasis}(${roleName}|${personName})(?:\s*\([^()\n]{1,40}\))?${emphasis}\s*:${emphasis}(?:\s+|$)(.*)$`,
  'u',
)

function speakerLabelOf(line: string): { speaker: string; rest: string } | null {
  const match = speakerLine.exec(line)
  const label = match?.[1]?.trim()
  if (!match || !label) return null
  const lower = label.toLowerCase()
  const role = roleLabels[lower]
  if (role !== undefined) return { speaker: role, rest: match[2] ?? '' }
  if (fieldLabels.has(lower) || /^dear\b/i.test(label) || /^\d/.test(label)) return null
  return { speaker: label, rest: match[2] ?? '' }
}

/**
 * Splits a document into speaker turns. Lines "Name: text" (also "[10:02] Name: text", "**Name**: text",
 * "Name (Role): text") start a turn; unlabelled lines continue the current one. Outside chats and transcripts a
 * single "Word: text" line is more likely a field than a speaker, so labels count only when two lines carry one.
 * Emails become one turn of their sender.
 */
export function splitTurns(text: string, documentType: string): SpeakerTurn[] {
  if (documentType === 'email' || /^\s*From:\s/i.test(text)) {
    const email = parseEmail(text)
    if (email) return [email]
  }
  const lines = text.split(/\r?\n|\r/)
  const labels = lines.map(speakerLabelOf)
  const labelled = labels.filter((label) => label !== null).length
  const trustLabels = conversationalTypes.has(documentType) ? labelled >= 1 : labelled >= 2
  if (!trustLabels) return [{ speaker: null, text: text.trim(), addressees: addressedNames(text) }]

  const turns: { speaker: string | null; lines: string[] }[] = []
  lines.forEach((line, index) => {
    const label = labels[index]
    if (label) turns.push({ speaker: label.speaker, lines: [label.rest] })
    else if (turns.length > 0) turns[turns.length - 1]?.lines.push(line)
    else turns.push({ speaker: null, lines: [line] })
  })
  return turns
    .map(({ speaker, lines: turnLines }) => {
      const turnText = turnLines.join('\n').trim()
      return { speaker, text: turnText, addressees: addressedNames(turnText) }
    })
    .filter((turn) => turn.text !== '')
}

const emailHeader = /^(From|To|Cc|Bcc|Subject|Date|Sent|Reply-To):[ \t]*(.*)$/i
const quotedReplyStart =
  /^(?:On\s.{4,200}\swrote:\s*$|-{2,}\s*(?:Original Message|Forwarded message)\s*-{2,}|_{5,}\s*$|From:\s)/im
const signOff =
  /^(?:best|best regards|best wishes|kind regards|warm regards|regards|cheers|sincerely|yours|yours truly|all the best|take care|talk soon|thanks|thanks again|thank you|many thanks|love|xoxo)[,.!]?\s*$/i

function parseEmail(text: string): SpeakerTurn | null {
  const lines = text.replace(/^\s+/, '').split(/\r?\n|\r/)
  const headers = new Map<string, string>()
  let bodyStart = 0
  for (const [index, line] of lines.entries()) {
    const header = emailHeader.exec(line)
    if (!header) {
      bodyStart = line.trim() === '' ? index + 1 : index
      break
    }
    headers.set((header[1] ?? '').toLowerCase(), (header[2] ?? '').trim())
    bodyStart = index + 1
  }
  if (headers.size === 0) return null

  let body = lines.slice(bodyStart).join('\n')
  const reply = quotedReplyStart.exec(body)
  if (reply) body = body.slice(0, reply.index)
  const bodyLines = body
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('>') && !/^sent from my\b/i.test(line.trim()))
  const signatureAt = bodyLines.findIndex(
    (line, index) => /^--\s*$/.test(line) || (index > 0 && signOff.test(line.trim())),
  )
  const content = (signatureAt >= 0 ? bodyLines.slice(0, signatureAt) : bodyLines).join('\n').trim()

  const sender = senderName(headers.get('from') ?? '')
  const recipients = [headers.get('to'), headers.get('cc')]
    .flatMap((field) => (field ? splitAddressList(field) : []))
    .map(senderName)
    .filter((name): name is string => name !== null && !name.includes('@'))
  const subject = (headers.get('subject') ?? '').replace(/^(?:\s*(?:re|fwd?|aw|sv)\s*:\s*)+/i, '').trim()
  const about = subject === '' ? '' : `${sender ?? 'Someone'} sent an email about ${subject}.\n\n`
  return {
    speaker: sender,
    text: `${about}${content}`.trim(),
    addressees: [...new Set([...recipients, ...addressedNames(content)])],
  }
}

function splitAddressList(field: string): string[] {
  return field.match(/"[^"]*"\s*<[^>]*>|[^,;<"]+<[^>]*>|[^,;]+/g)?.map((part) => part.trim()) ?? []
}

/** "Jane Doe <jane@x.org>" → "Jane Doe"; "\"Doe, Jane\" <…>" → "Jane Doe"; "jane.doe@x.org" → "Jane Doe". */
function senderName(field: string): string | null {
  const display = field
    .replace(/<[^>]*>/g, '')
    .replace(/["']/g, '')
    .trim()
  if (display !== '' && !display.includes('@')) {
    const lastFirst = /^([^,]+),\s*([^,]+)$/.exec(display)
    return lastFirst ? `${lastFirst[2]} ${lastFirst[1]}` : display
  }
  const address = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(field)?.[0]
  if (!address) return null
  const localParts = (address.split('@')[0] ?? '').split(/[._-]+/).filter((part) => /^[a-z]+$/i.test(part))
  if (localParts.length < 2) return address
  return localParts.map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase()).join(' ')
}

/** Forms of address that are not names ("Thanks, guys!", "Hey buddy"). */
const nonNameAddresses = new Set(
  'god man dude bro bruh guys guy everyone everybody all folks team buddy bud sir madam maam mom dad mum mommy daddy babe baby honey girl girls friend friends mate pal love dear sweetie there you yall'.split(
    ' ',
  ),
)

/** Capitalized at the start of a clause but not names: "Well, …", "Honestly, …". */
const clauseOpeners = new Set(
  'well yes yeah yep no nope oh ah so also anyway anyways besides however meanwhile otherwise overall plus still then now okay ok sure right wow hey hi hello thanks thank sorry congrats congratulations please sadly luckily honestly'.split(
    ' ',
  ),
)

const interjection =
  'hey|hi|hello|hiya|heya|yo|thanks|thank you|thx|congrats|congratulations|bye|goodbye|see ya|see you|cheers|dear|morning|good morning|good night|welcome|sorry|wow|oh|aw+|yeah|yes|yep|nope|no|ok|okay|sure|great|awesome|cool|nice|haha|lol|omg|ah|totally|absolutely|definitely|exactly|true|agreed'
const afterInterjection = new RegExp(
  String.raw`(?:^|[\s,.!?])(?:${interjection})[\s,]+(\p{L}[\p{L}'’-]*)(?=\s*(?:[!,.?;:—–-]|$))`,
  'giu',
)
// After a capitalized word the comma lists places ("Portland, Oregon."), not a vocative ("That's great, Jon!").
const tailVocative = /(?<!\p{Lu}[\p{L}'’-]*),\s*(\p{Lu}[\p{L}'’-]*)\s*(?=[!?.]|$)/gu
const headVocative = /(?:^|[.!?]\s+)(\p{Lu}[\p{L}'’-]*),\s/gu

function isAddressName(word: string): boolean {
  const lower = word.toLowerCase().replace(/['’]s$/, '')
  return (
    /^\p{Lu}\p{Ll}/u.test(word) &&
    !nonNameAddresses.has(lower) &&
    !clauseOpeners.has(lower) &&
    !fieldLabels.has(lower) &&
    !lower.endsWith('ly')
  )
}

/**
 * Names used as vocatives, in order of appearance: "Hey Mel!", "Thanks, Caroline.", "That's great, Jon!",
 * "Maria, look at this".
 */
export function addressedNames(text: string): string[] {
  const found: { name: string; at: number }[] = []
  for (const pattern of [afterInterjection, tailVocative, headVocative]) {
    pattern.lastIndex = 0
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const word = match[1] ?? ''
      if (isAddressName(word)) found.push({ name: word, at: match.index + match[0].indexOf(word) })
    }
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map(({ name }) => name))]
}

// ——— First person → speaker ———

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

/** Verbs whose present and past look the same; without knowing which, they are left unchanged. */
const ambiguousTenseVerbs = new Set(
  'let put cut set hit hurt quit read bet cost shut spread split'.split(' '),
)

const pastParticiples = new Set(
  'been had gone done seen known taken given got gotten forgotten eaten written driven spoken broken chosen fallen flown grown hidden ridden risen shown thrown worn won lost made met heard felt found left kept paid sent spent told thought bought brought caught taught'.split(
    ' ',
  ),
)

const adverbs = new Set(
  'just also always never still even really totally actually finally often sometimes usually recently already definitely absolutely truly honestly literally seriously generally mostly only simply kinda sorta personally genuinely certainly rarely seldom hardly barely occasionally normally basically probably constantly now sure too def legit lowkey highkey def'.split(
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

function isPastForm(word: string): boolean {
  return (
    irregularPastVerbs.has(word) ||
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

/** Keeps a replaced word's leading capital: "Do I" → "Does Caroline". */
function withCaseOf(original: string, replacement: string): string {
  return /^\p{Lu}/u.test(original) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement
}

const wordToken = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu

interface Token {
  text: string
  start: number
  end: number
  lower: string
}

function tokensOf(sentence: string): Token[] {
  return Array.from(sentence.matchAll(wordToken), (match) => ({
    text: match[0],
    start: match.index,
    end: match.index + match[0].length,
    lower: match[0].toLowerCase().replace(/’/g, "'"),
  }))
}

const invertedAuxiliaries: Record<string, string> = {
  am: 'is',
  do: 'does',
  have: 'has',
  "don't": "doesn't",
  "haven't": "hasn't",
  "aren't": "isn't",
}

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

/**
 * Rewrites first person singular into the speaker's name with third-person agreement: "I'm" → "Caroline is",
 * "I love" → "Caroline loves", "my" → "Caroline's", "me"/"myself" → "Caroline". Past forms, modals, and verbs of a
 * compound subject ("my husband and I love") keep their form. "We/our/us" stay; they only mark the speaker as
 * a participant.
 */
export function speakInThirdPerson(sentence: string, speaker: string): ThirdPersonRewrite {
  const tokens = tokensOf(sentence)
  const replacements: Replacement[] = []
  const separatorBefore = (index: number) => {
    const previous = tokens[index - 1]
    const token = tokens[index]
    return previous && token ? sentence.slice(previous.end, token.start) : ''
  }
  // Agreement only crosses plain spaces: punctuation between "I" and a word means the word is not its verb.
  const isPlainGap = (index: number) => /^\s+$/.test(separatorBefore(index))
  let aboutSpeaker = false
  // "reminding me I'm not alone" would read "reminding Caroline Caroline is…"; a "that" keeps the names apart.
  const thatAfterObject = (index: number) =>
    tokens[index - 1]?.lower === 'me' && isPlainGap(index) ? 'that ' : ''

  tokens.forEach((token, index) => {
    const previous = tokens[index - 1]
    const replace = (text: string, prefix = '') => {
      replacements.push({ start: token.start, end: token.end, text: prefix + withCaseOf(token.text, text) })
      aboutSpeaker = true
    }
    // "me-time", "all-in-one": a pronoun inside a hyphenated compound is part of a word, not a reference.
    if (sentence[token.start - 1] === '-' || sentence[token.end] === '-') return
    switch (token.lower) {
      case 'me':
      case 'myself':
        replace(speaker)
        return
      case 'my':
      case 'mine':
        replace(`${speaker}'s`)
        return
      case "i'm":
        replace(`${speaker} is`, thatAfterObject(index))
        return
      case "i've":
        replace(`${speaker} has`)
        return
      case "i'll":
        replace(`${speaker} will`)
        return
      case "i'd": {
        const next = nextVerbIndex(tokens, index, isPlainGap)
        const verb = next === null ? undefined : tokens[next]?.lower
        const isPerfect = verb !== undefined && (pastParticiples.has(verb) || /ed$/.test(verb))
        replace(`${speaker} ${isPerfect ? 'had' : 'would'}`)
        return
      }
      case 'i': {
        // "i.e." and a roman numeral after a name ("Part I", "Henry I") are not the speaker.
        if (token.text === 'i' && sentence.slice(token.end, token.end + 2) === '.e') return
        if (
          previous &&
          /^\p{Lu}/u.test(previous.text) &&
          isPlainGap(index) &&
          tokens[index + 1] === undefined
        )
          return
        replace(speaker, thatAfterObject(index))
        if (previous && invertedAuxiliaries[previous.lower] !== undefined && isPlainGap(index)) {
          replacements.push({
            start: previous.start,
            end: previous.end,
            text: withCaseOf(previous.text, invertedAuxiliaries[previous.lower] ?? previous.text),
          })
          return
        }
        if (
          previous &&
          ['and', 'or', 'nor'].includes(previous.lower) &&
          isCompoundSubject(tokens, index - 1, sentence)
        ) {
          return
        }
        const verbIndex = nextVerbIndex(tokens, index, isPlainGap)
        const verb = verbIndex === null ? undefined : tokens[verbIndex]
        if (!verb || modalsAndNegatives.has(verb.lower) || isPastForm(verb.lower)) return
        if (tokens[index + 1]?.lower === 'and') return
        if (!/^[a-z']+$/.test(verb.lower) || notVerbsAfterSubject.has(verb.lower)) return
        replacements.push({
          start: verb.start,
          end: verb.end,
          text: withCaseOf(verb.text, thirdPersonOf(verb.lower)),
        })
        return
      }
      default:
        if (/^(?:we|we're|we've|we'll|we'd|us|our|ours|ourselves)$/.test(token.lower)) aboutSpeaker = true
    }
  })

  let text = ''
  let cursor = 0
  for (const replacement of replacements.sort((a, b) => a.start - b.start)) {
    text += sentence.slice(cursor, replacement.start) + replacement.text
    cursor = replacement.end
  }
  return { text: text + sentence.slice(cursor), aboutSpeaker }
}

const subjectPronouns = new Set(['i', 'we', 'he', 'she', 'they', 'you', "i'm", "i've", "i'll", "i'd"])

/**
 * "My husband and I love …" (a compound subject: plural agreement) versus "I love it and I think …" (a second
 * clause): the words from the clause start to "and" form a subject only when they hold no pronoun subject or verb.
 */
function isCompoundSubject(tokens: readonly Token[], conjunctionIndex: number, sentence: string): boolean {
  for (let index = conjunctionIndex - 1; index >= 0; index--) {
    const token = tokens[index]
    if (!token) break
    if (subjectPronouns.has(token.lower) || finiteVerbs.has(token.lower) || isPastForm(token.lower))
      return false
    const gap = sentence.slice(tokens[index - 1]?.end ?? 0, token.start)
    if (/[,;:.!?–—]/.test(gap)) break
  }
  return true
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

// ——— Dropped subjects ———

/** Base verbs of feeling and thinking that chat speakers start sentences with, subject dropped ("Love it!"). */
const droppedSubjectVerbs = new Set(
  'love hope think guess need want wish feel hate miss wonder agree appreciate enjoy bet reckon plan prefer adore suppose doubt believe'.split(
    ' ',
  ),
)

/** Adjectives about oneself that open subjectless chat sentences ("Glad to hear it", "So excited!"). */
const droppedSubjectAdjectives = new Set(
  'glad happy excited thrilled stoked proud grateful thankful sad tired exhausted bored scared nervous stressed swamped busy keen ready sorry lucky blessed pumped psyched amazed curious worried relieved honored honoured'.split(
    ' ',
  ),
)

const intensifiers = new Set(
  'so super really pretty very totally just still also always never definitely honestly truly absolutely'.split(
    ' ',
  ),
)

const notDroppedSubjectPast = new Set(
  'based compared related given supposed called named located interested tired bored need indeed red bed'.split(
    ' ',
  ),
)

const finiteVerbs = new Set(
  "is are was were 's has have had does do did can could will would should may might must isn't aren't wasn't weren't doesn't don't didn't can't won't hasn't haven't wouldn't shouldn't couldn't makes helps gives keeps brings takes means sounds looks seems feels gets goes lets needs requires involves costs pays works matters becomes".split(
    ' ',
  ),
)

/** Index of the first token after the first clause break (",", " – ", ";"…), or the token count. */
function firstClauseEnd(tokens: readonly Token[], sentence: string): number {
  const breakAt = tokens.findIndex(
    (token, index) =>
      index > 0 && /[,;:–—.!?]|\s-\s/.test(sentence.slice(tokens[index - 1]?.end ?? 0, token.start)),
  )
  return breakAt < 0 ? tokens.length : breakAt
}

/** The first clause has no finite verb: "Researching adoption agencies – …" vs "Taking care of ourselves is vital". */
function firstClauseLacksVerb(tokens: readonly Token[], clauseEnd: number): boolean {
  return !tokens.slice(0, clauseEnd).some((token, index) => {
    if (finiteVerbs.has(token.lower) || /^\p{L}+'s$/u.test(token.lower)) return true
    // "…hearing the gratitude fills me with joy": an -s word before an object is the clause's verb.
    const next = index + 1 < clauseEnd ? (tokens[index + 1]?.lower ?? '') : ''
    return index > 0 && /[^su]s$/.test(token.lower) && objectStarters.has(next)
  })
}

const objectStarters = new Set('me us you him her them it my our your his their the a an so'.split(' '))

/**
 * Restores the subject chat speakers drop ("Dyed my hair last week", "Glad to be part of it", "Still working on
 * it", "Can't wait!") as first person, for `speakInThirdPerson` to name the speaker. Imperatives ("Check this
 * out") and questions are left alone: only past verbs, feeling/thinking verbs, self-describing adjectives,
 * subjectless gerund clauses and negated modals signal a dropped "I".
 */
export function restoreDroppedSubject(sentence: string): string {
  if (/\?\s*$/.test(sentence)) return sentence
  const tokens = tokensOf(sentence)
  let first = 0
  while (tokens[first] && intensifiers.has(tokens[first]?.lower ?? '') && tokens[first + 1]) first++
  const lead = tokens[0]
  const head = tokens[first]
  if (!lead || !head || !/^\p{Lu}/u.test(lead.text)) return sentence
  const word = head.lower
  const insertAt = lead.start
  const withPrefix = (prefix: string) => {
    const rest = sentence.slice(insertAt)
    return `${sentence.slice(0, insertAt)}${prefix} ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`
  }
  if (/^(?:can't|cannot|couldn't|won't|didn't|haven't|wasn't)$/.test(word)) return withPrefix('I')
  if (word === 'been') return withPrefix("I've")
  if (word === 'gonna' || word === 'wanna' || word === 'gotta')
    return withPrefix(word === 'gonna' ? "I'm" : 'I')
  if (droppedSubjectAdjectives.has(word)) return withPrefix("I'm")
  if (droppedSubjectVerbs.has(word)) return withPrefix('I')
  if (/^[a-z]{3,}ing$/.test(word)) {
    const clauseEnd = firstClauseEnd(tokens, sentence)
    // "Taking in kids in need – you're so kind" praises what the listener does, not what the speaker does.
    const remarksOnListener = tokens
      .slice(clauseEnd)
      .some((token) => /^(?:you|you're|your)$/.test(token.lower))
    if (!remarksOnListener && firstClauseLacksVerb(tokens, clauseEnd)) return withPrefix("I'm")
  }
  const isPast =
    irregularPastVerbs.has(word) || (/^[a-z]{2,}ed$/.test(word) && !notDroppedSubjectPast.has(word))
  // A capitalized "-ed" word followed by a verb is a name ("Jared went"), not a subjectless past verb.
  const next = tokens[first + 1]?.lower ?? ''
  // "Made me think", "Took us hours": the dropped subject is "it", not the speaker.
  const followedByVerb = finiteVerbs.has(next) || isPastForm(next) || ['and', 'me', 'us'].includes(next)
  if (isPast && !followedByVerb && word !== 'did' && word !== 'was' && word !== 'were') return withPrefix('I')
  return sentence
}
