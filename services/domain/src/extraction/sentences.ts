/**
 * Sentence segmentation for chat turns, emails, transcripts and notes. Rule-based and linear in the text length:
 * the extractor runs it on every document of a bulk load.
 */

// A bullet marker only counts when a space follows it: "-5 degrees" and "3.5" are not list items.
const bulletMarker = /^\s*(?:[-*•·▪◦‣–]|\d{1,3}[.)])\s+/
const headingMarker = /^\s*#{1,6}\s+/
const terminalPunctuation = /[.!?…:;]["'”’)\]]*\s*$/
const pictographic = /\p{Extended_Pictographic}/u

/** Words after which a period never ends a sentence: titles and Latin abbreviations that always continue. */
const continuingAbbreviations = new Set(
  'mr mrs ms dr prof sr jr st vs e.g i.e cf approx fig mt gen col lt sgt capt rev hon dept no nos vol ca jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
)

/** Abbreviations that may also end a sentence ("…in the U.S. Then we…"). */
const possiblyFinalAbbreviations = new Set(['etc', 'a.m', 'p.m', 'inc', 'ltd', 'co', 'corp', 'llc', 'al'])

/** Capitalized, these start sentences often and names rarely: after an ambiguous abbreviation they begin a new one. */
const sentenceOpeners = new Set(
  "i we he she they it this that these those there the a an my our his her their its but and so then also however we're i'm it's".split(
    ' ',
  ),
)

/**
 * Joins hard-wrapped lines back into paragraphs and keeps list items, headings and blank-line paragraphs apart.
 * A line break ends a unit when the line is complete (ends in punctuation) or the next line clearly starts something
 * new (a bullet, a heading); a line ending in a comma or a function word, or a next line in lower case, continues.
 */
function textUnits(text: string): string[] {
  const units: string[] = []
  let current = ''
  const flush = () => {
    if (current.trim() !== '') units.push(current.trim())
    current = ''
  }
  for (const rawLine of text.split(/\r?\n|\r|\u2028|\u2029/)) {
    const line = rawLine.trim()
    if (line === '') {
      flush()
      continue
    }
    if (bulletMarker.test(line) || headingMarker.test(line)) {
      flush()
      current = line.replace(bulletMarker, '').replace(headingMarker, '')
      continue
    }
    if (current !== '' && !continuesOnNextLine(current, line)) flush()
    current = current === '' ? line : `${current} ${line}`
  }
  flush()
  return units
}

const continuationWords = new Set(
  'a an the and or but of to in on at for with from by about as than that which who whose my your our their his her its is are was were be been will would can could should to'.split(
    ' ',
  ),
)

function continuesOnNextLine(previous: string, next: string): boolean {
  if (terminalPunctuation.test(previous)) return false
  if (/[,\-–—(]$/.test(previous)) return true
  if (/^[\p{Ll}\d]/u.test(next)) return true
  const lastWord = /([\p{L}']+)\W*$/u.exec(previous)?.[1]?.toLowerCase() ?? ''
  return continuationWords.has(lastWord)
}

/** Index ranges of double-quoted spans, so "She said "Stop. Now." and left" stays one sentence. */
function quotedRanges(unit: string): [number, number][] {
  const ranges: [number, number][] = []
  const quote = /"[^"\n]{1,300}"|“[^”\n]{1,300}”/g
  for (let match = quote.exec(unit); match; match = quote.exec(unit)) {
    ranges.push([match.index, match.index + match[0].length])
  }
  return ranges
}

function wordBefore(unit: string, end: number): string {
  const start = Math.max(unit.lastIndexOf(' ', end - 1), unit.lastIndexOf('(', end - 1)) + 1
  return unit.slice(start, end).replace(/^["'“‘(]+/, '')
}

function isAbbreviationPeriod(unit: string, periodIndex: number, after: string): boolean {
  const word = wordBefore(unit, periodIndex)
  const lower = word.toLowerCase()
  if (continuingAbbreviations.has(lower)) return !(lower === 'no' && !/^\s*\d/.test(after))
  // A single capital is an initial ("J. K. Rowling"); "I." ends a sentence.
  if (/^\p{Lu}$/u.test(word) && word !== 'I') return true
  const dotted = /^(?:\p{L}\.)+\p{L}$/u.test(word)
  if (dotted || possiblyFinalAbbreviations.has(lower)) {
    const nextWord = /^\s*["'“]?([\p{L}']+)/u.exec(after)?.[1]
    return (
      nextWord === undefined || !/^\p{Lu}/u.test(nextWord) || !sentenceOpeners.has(nextWord.toLowerCase())
    )
  }
  return false
}

/** Emoji (with modifiers and joiners) directly after a boundary belong to the sentence they close. */
function extendOverTrailingEmoji(unit: string, end: number): number {
  const trailing = /^(?:\s*(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f)+)+/u.exec(
    unit.slice(end),
  )
  return trailing ? end + trailing[0].length : end
}

function splitUnit(unit: string): string[] {
  const sentences: string[] = []
  const quotes = quotedRanges(unit)
  const insideQuote = (index: number) => quotes.some(([start, end]) => index > start && index < end - 1)
  let sentenceStart = 0
  // A run of terminators with closing quotes/brackets, or an emoji run, followed by whitespace or the end.
  const boundary =
    /([.!?…]+)(["'”’)\]]*)(?=\s|$)|((?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f)+)(?=\s+["“]?\p{Lu})/gu
  for (let match = boundary.exec(unit); match; match = boundary.exec(unit)) {
    const terminators = match[1]
    let end = match.index + match[0].length
    const after = unit.slice(end)
    if (terminators !== undefined) {
      if (insideQuote(match.index)) continue
      const ellipsis = /\.\.|…/.test(terminators)
      if (ellipsis && /^\s*\p{Ll}/u.test(after)) continue
      if (terminators === '.' && match[2] === '' && isAbbreviationPeriod(unit, match.index, after)) continue
    } else if (!pictographic.test(match[0]) || insideQuote(match.index)) {
      continue
    }
    end = extendOverTrailingEmoji(unit, end)
    boundary.lastIndex = end
    sentences.push(unit.slice(sentenceStart, end))
    sentenceStart = end
  }
  sentences.push(unit.slice(sentenceStart))
  return sentences
}

/**
 * Splits text into sentences. Line structure counts: list items, headings and paragraphs are separate units even
 * without final punctuation. Pieces with no letter or digit (a lone emoji, "!!!") are dropped: they state nothing.
 */
export function splitSentences(text: string): string[] {
  return textUnits(text)
    .flatMap(splitUnit)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence))
}

const clauseBreak = /[;:](?=\s)|\s[-–—](?=\s)|,(?=\s(?:and|but|so|because|which|while|although|though)\b)/g

/**
 * Cuts a sentence longer than `maxChars` into pieces of at most `maxChars`, preferring clause boundaries (";",
 * " – ", ", and …") in the later two thirds and falling back to word boundaries; a transcript without punctuation
 * is one long "sentence".
 */
export function splitLongSentence(sentence: string, maxChars: number): string[] {
  const pieces: string[] = []
  let rest = sentence.trim()
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars)
    let pieceEnd = -1
    let restStart = -1
    clauseBreak.lastIndex = 0
    for (let match = clauseBreak.exec(window); match; match = clauseBreak.exec(window)) {
      if (match.index < maxChars / 3) continue
      // Punctuation stays with the clause it closes; a dash belongs to neither side.
      const isDash = match[0].trim() !== ';' && match[0].trim() !== ':' && match[0] !== ','
      pieceEnd = isDash ? match.index : match.index + 1
      restStart = match.index + match[0].length
    }
    if (pieceEnd < 0) {
      const space = window.lastIndexOf(' ')
      pieceEnd = space > 0 ? space : maxChars
      restStart = pieceEnd
    }
    pieces.push(rest.slice(0, pieceEnd).trim())
    rest = rest.slice(restStart).trim()
  }
  if (rest !== '') pieces.push(rest)
  return pieces
}

/** A first-person preference after a comma, with the word that joins it: ", and I prefer …", ", so I'd rather …". */
const preferenceOpening =
  /,\s+(?:(?:and|so|but|because|since|as)\s+)?(?=(?:I|we)(?:\s+(?:(?:really|also|generally|usually|always|much|definitely)\s+)?(?:prefer|would rather|like it when|can['’]t stand|hate it when)|['’]d\s+(?:much\s+)?rather)\b)/iu
/** Where a clause after a preference starts: a comma before a request or another clause ("…, so can you help me"). */
const clauseAfterPreference =
  /,\s+(?=(?:so|and|but|how|what|which|can|could|would|will|considering|because|since|while|I|my|please|then)\b)/iu

/** A piece cut from a sentence, ended as a sentence: "…as a ratio," → "…as a ratio.". */
function closed(piece: string): string {
  const trimmed = piece.trim().replace(/[,;:]$/, '')
  return trimmed === '' || /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

/**
 * A preference told inside a longer sentence, as its own sentence: "I'm trying to understand probability as a ratio,
 * and I prefer step-by-step explanations with concrete examples, so can you help me…" says three things, and the
 * preference is what a later request is answered by. Sentences that open with the preference stay whole.
 */
export function withPreferencesApart(sentence: string): string[] {
  const pieces: string[] = []
  let rest = sentence
  for (let match = preferenceOpening.exec(rest); match; match = preferenceOpening.exec(rest)) {
    const before = rest.slice(0, match.index + 1).trim()
    const preference = rest.slice(match.index + match[0].length)
    const end = clauseAfterPreference.exec(preference)
    pieces.push(closed(before), closed(end ? preference.slice(0, end.index) : preference))
    rest = end ? preference.slice(end.index + end[0].length) : ''
  }
  if (rest.trim() !== '') pieces.push(rest.trim())
  return pieces.filter((piece) => piece !== '')
}
