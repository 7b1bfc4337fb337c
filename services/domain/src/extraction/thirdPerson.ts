/**
 * A speaker's first person rewritten into their name ("I went" → "Caroline went"), so a memory read on its own still
 * says whom it is about; verbs agree with the new subject.
 */

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

export function isPastForm(word: string): boolean {
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
