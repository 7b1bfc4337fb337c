/**
 * The spans of a statement that could name an attribute's value: runs of nouns, proper nouns, adjectives and numbers
 * as wink-nlp's part-of-speech tagger reads them ("Glasgow", "an iced matcha latte" → "iced matcha latte",
 * "Fiat Egea", "The Master and Margarita", "five-a-side football"), and every shorter span inside a run. Which span
 * is the value, and of which attribute, is learned from labelled examples (factReading.ts), not decided here: this
 * only offers the candidates, the same way for every attribute.
 *
 * wink-nlp (MIT) with its light English model: a maintained tagger (UD tags, about 0.1 ms a sentence), chosen over
 * compromise, whose lexicon-based tags were slower here and mark fewer of the names people type in lower case.
 */
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'

const nlp = winkNLP(model)

/** A span of the text: its words and where they are. */
export interface ValueSpan {
  text: string
  start: number
  end: number
}

/** Parts of speech a value's words have. */
const contentTags = new Set(['PROPN', 'NOUN', 'ADJ', 'NUM', 'X'])
/** Small words inside a name written in capitals: "University of Tokyo", "Universidad de Salamanca". */
const nameJoiners = new Set(
  'of and de del della da do dos das la le les van von der den the y e di du'.split(' '),
)
/** Longest candidate, in words (written words: "five-a-side" is one). */
const maxWords = 4
/** The writer themself, never their own value: wink-nlp tags "I'm" a proper noun. */
const firstPerson = /^(?:i|i['’](?:m|ve|ll|d)|me|my|mine|myself|we|us|our)$/i
/** Candidates per statement at most: the longest runs' spans beyond it are left out. */
const maxSpans = 40

interface Word {
  text: string
  tag: string
  start: number
  end: number
}

function wordsOf(text: string): Word[] {
  const tokens = nlp.readDoc(text).tokens()
  const values = tokens.out()
  // wink-nlp knows its helpers by identity: `its.pos` is passed as it is, not bound (it uses no `this`).
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const tags = tokens.out(nlp.its.pos) as string[]
  const words: Word[] = []
  let at = 0
  for (const [index, value] of values.entries()) {
    const start = text.indexOf(value, at)
    if (start < 0) continue
    at = start + value.length
    words.push({ text: value, tag: tags[index] ?? 'X', start, end: at })
  }
  return words
}

/** The words of a text its tagger reads as common nouns ("pond", "spot"): what a reply is about, if anything. */
export function commonNounsOf(text: string): string[] {
  return wordsOf(text)
    .filter((word) => word.tag === 'NOUN')
    .map((word) => word.text)
}

const capitalized = (word: Word) => /^\p{Lu}/u.test(word.text)
/**
 * A word a value may consist of: a content word, or one the tagger read as a verb that is written as a name
 * ("Specialized Allez") or is a participle before a noun ("iced matcha latte").
 */
function isContent(word: Word, next: Word | undefined): boolean {
  if (firstPerson.test(word.text)) return false
  if (contentTags.has(word.tag)) return true
  return (
    word.tag === 'VERB' &&
    (capitalized(word) || (/ed$/i.test(word.text) && next !== undefined && contentTags.has(next.tag)))
  )
}
/** "The" opening a name in capitals: "The Master and Margarita", "The Bear". */
const opensName = (word: Word, next: Word | undefined) =>
  word.text === 'The' && next !== undefined && capitalized(next) && contentTags.has(next.tag)

/**
 * The candidate spans of a statement, longest runs first; none overlapping `excluded` words (the speaker's name,
 * which is never their own value).
 */
export function valueSpansOf(text: string, excluded: readonly string[] = []): ValueSpan[] {
  const words = wordsOf(text)
  const leftOut = new Set(excluded.map((word) => word.toLowerCase()))
  // Runs of value words; a hyphen without spaces joins ("five-a-side"), a small word joins two capitalized words.
  const content = words.map((word, index) => isContent(word, words[index + 1]))
  // Runs of value words, as positions: a hyphen without spaces joins ("five-a-side"), as does a small word between
  // two capitalized ones ("University of Tokyo").
  const runs: number[][] = []
  let run: number[] = []
  const close = () => {
    while (run.length > 0 && !content[run[run.length - 1] as number]) run.pop()
    if (run.length > 0) runs.push(run)
    run = []
  }
  for (const [index, word] of words.entries()) {
    const previous = words[index - 1]
    const next = words[index + 1]
    const attached = previous !== undefined && previous.end === word.start && run.length > 0
    const joiner =
      run.length > 0 &&
      nameJoiners.has(word.text.toLowerCase()) &&
      capitalized(words[run[run.length - 1] as number] as Word) &&
      next !== undefined &&
      capitalized(next)
    if (leftOut.has(word.text.toLowerCase())) close()
    else if (
      content[index] ||
      joiner ||
      (attached && word.tag !== 'PUNCT') ||
      (attached && word.text === '-')
    )
      run.push(index)
    else if (run.length === 0 && opensName(word, next)) run.push(index)
    else close()
  }
  close()
  // A span starts and ends on a value word (or an opening "The"); its length counts written words.
  const canStart = (index: number) => content[index] || opensName(words[index] as Word, words[index + 1])
  const spans: ValueSpan[] = []
  const seen = new Set<string>()
  for (const positions of runs.sort((a, b) => b.length - a.length)) {
    for (let from = 0; from < positions.length; from++) {
      for (let to = positions.length - 1; to >= from; to--) {
        const first = words[positions[from] as number] as Word
        const last = words[positions[to] as number] as Word
        if (!canStart(positions[from] as number) || !content[positions[to] as number]) continue
        const spanText = text.slice(first.start, last.end)
        if (spanText.split(/\s+/).length > maxWords) continue
        const key = `${String(first.start)}:${String(last.end)}`
        if (seen.has(key)) continue
        seen.add(key)
        spans.push({ text: spanText, start: first.start, end: last.end })
      }
    }
  }
  return spans.slice(0, maxSpans)
}

/**
 * The words around a span, as the role reader sees them: up to six words before it and three after ("since Amara got
 * the keys to the flat in Glasgow", "moved from Leeds to Bristol").
 */
export function contextOf(text: string, span: ValueSpan, before = 6, after = 3): string {
  const left = text.slice(0, span.start).split(/\s+/).filter(Boolean).slice(-before)
  const right = text.slice(span.end).split(/\s+/).filter(Boolean).slice(0, after)
  return [...left, span.text, ...right].join(' ')
}

/** Whether two spans share a character. */
export const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean =>
  a.start < b.end && b.start < a.end
