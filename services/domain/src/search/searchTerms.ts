import { stemmer } from 'stemmer'

// Function words that carry no topic; kept short so that negations and numbers still count.
const stopwords = new Set(
  (
    'a about above after again all am an and any are as at be been before being below between both but by can could ' +
    'did do does doing down during each few for from further had has have having he her here hers herself him himself ' +
    'his how i if in into is it its itself just me more most my myself of off on once only or other our ours ' +
    'ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves s t'
  ).split(' '),
)

/** Lower-cased words of a text, apostrophes and accents folded ("Zoë's" → "zoe", "s"). */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[’`]/g, "'")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}

/**
 * The stemmed content words of a text, as the keyword index holds them ("went hiking", "hikes" → "went hike",
 * "hike"). Elasticsearch's integration build has no stemming analyzers, and Node computing the terms for both the
 * index and the query keeps them consistent whatever the engine distribution.
 */
export function searchTermsOf(text: string): string {
  return wordsOf(text)
    .filter((word) => !stopwords.has(word))
    .map((word) => stemmer(word))
    .join(' ')
}

export function isStopword(word: string): boolean {
  return stopwords.has(word)
}
