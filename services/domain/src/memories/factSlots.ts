/**
 * A changing fact as a memory states it: a subject's attribute with one value at a time (where someone lives, whom
 * they work for, their pet). Two memories of the same subject and attribute in one scope are versions of one fact:
 * the later one supersedes the earlier (supersession.ts). Which fact a statement states is read by the fact reader
 * (services/language, factReadings.ts); what a question asks for by its question reader (askedFactOf).
 */

export interface FactSlot {
  /** Whom the fact is about: the speaker's or named person's name in lower case, `self` for an unnamed "I". */
  subject: string
  /** The attribute, by its name in the catalogue (services/language/data/attributes.json): `residence`, `pet`. */
  attribute: string
  /** The normalized value, compared to tell a change from a restatement. */
  value: string
  /** subject + attribute: memories with the same key (in one scope) are versions of one fact. */
  key: string
}

/** A value as it is compared, to tell a change from a restatement: lower case, no article, no trailing mark. */
export function normalizedFactValue(value: string): string {
  return value
    .toLowerCase()
    .replace(/^(?:a|an|the) /, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.'’-]+$/, '')
}

export interface AskedFact {
  /** As in FactSlot: `residence`, `favourite_band`. */
  attribute: string
  /** Lower-case names the question mentions (one may be the fact's subject); empty when it names nobody. */
  subjects: string[]
  /** The question's words, to prefer the version whose value it names ("when did she move to Porto?"). */
  words: string[]
  /** It asks what holds now ("Where does Ana live?"), not what was ("Where did Ana live before?"). */
  current: boolean
}

const questionWords = new Set(
  'what where who whom whose when which why how is are was were does do did has have had can could will would should i the a an'.split(
    ' ',
  ),
)

/**
 * What a question asks of the attribute the question reader found it asks for (services/language): whose it is (the
 * names it writes), in which words, and whether it asks what holds now or what held before.
 */
export function askedFactOf(question: string, attribute: string): AskedFact {
  const tokens = question.split(/[^\p{L}'’-]+/u).filter(Boolean)
  const names = tokens
    .map((token) => token.replace(/(?:'s|’s|')$/, ''))
    .filter((token) => /^\p{Lu}/u.test(token) && !questionWords.has(token.toLowerCase()))
    .map((token) => token.toLowerCase())
  const words = tokens.map((token) => token.toLowerCase()).filter((token) => !questionWords.has(token))
  const current =
    !/\b(?:did|was|were|used to|before|previously|formerly|originally|first|when|ago|last year|back then|in \d{4})\b/i.test(
      question,
    )
  return { attribute, subjects: [...new Set(names)], words: [...new Set(words)], current }
}
