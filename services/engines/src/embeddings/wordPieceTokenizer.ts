/**
 * The tokenizer of BERT-family uncased models (all-MiniLM-L6-v2 among them), written out so that running a local
 * model needs nothing but its `vocab.txt`. It follows the reference implementation (HuggingFace `tokenizers`:
 * BertNormalizer, BertPreTokenizer, WordPiece); the unit test pins ids produced by that implementation.
 */

export interface WordPieceTokenizerOptions {
  /**
   * Tokens per text including [CLS] and [SEP]; longer texts are cut. The position table of BERT models allows 512,
   * but sentence-transformers models such as all-MiniLM-L6-v2 were trained on at most 256 and are used that way.
   */
  maxTokens?: number
  /** Longer words become one [UNK], as in the reference (a word that long is not language). */
  maxCharsPerWord?: number
}

/** Model inputs of one text, all of the same length. */
export interface EncodedText {
  inputIds: number[]
  /** 1 for every token: padding is added by whoever batches texts together. */
  attentionMask: number[]
  /** 0 for every token: a single text is segment A. */
  tokenTypeIds: number[]
}

export interface WordPieceTokenizer {
  /** Word pieces without the special tokens and without truncation. */
  tokenize(text: string): string[]
  encode(text: string): EncodedText
  readonly padId: number
}

export const DEFAULT_MAX_TOKENS = 256
const DEFAULT_MAX_CHARS_PER_WORD = 100
const CONTINUATION_PREFIX = '##'

/** `vocab.txt`: one token per line, the line number (from 0) is the id. */
export function parseVocab(text: string): Map<string, number> {
  const vocab = new Map<string, number>()
  const lines = text.split(/\r?\n/)
  // The file ends with a newline, which is not an empty token.
  if (lines.at(-1) === '') lines.pop()
  lines.forEach((token, id) => {
    if (!vocab.has(token)) vocab.set(token, id)
  })
  return vocab
}

// NUL, U+FFFD and the Unicode "other" categories are dropped; tab, CR and LF are whitespace, not control.
const droppedCharacter = /[\0\uFFFD]|(?![\t\n\r])\p{C}/u
const whitespace = /\s/u
// ASCII symbols such as $, +, <, ^ and ` are not Unicode punctuation, but BERT splits on them too.
const punctuation = /[!-/:-@[-`{-~]|\p{P}/u
const combiningMark = /\p{Mn}/u

/** CJK ideographs are not separated by spaces in running text, so each one is a word of its own. */
function isCjkIdeograph(codePoint: number): boolean {
  return (
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) ||
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) ||
    (codePoint >= 0x20000 && codePoint <= 0x2a6df) ||
    (codePoint >= 0x2a700 && codePoint <= 0x2b73f) ||
    (codePoint >= 0x2b740 && codePoint <= 0x2b81f) ||
    (codePoint >= 0x2b820 && codePoint <= 0x2ceaf) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0x2f800 && codePoint <= 0x2fa1f)
  )
}

/**
 * Clean, separate CJK ideographs, strip accents, lower-case, then split on whitespace and punctuation (each
 * punctuation character is a word). Accents go before lower-casing, as in the reference normalizer.
 */
function basicTokenize(text: string): string[] {
  let spaced = ''
  for (const character of text) {
    if (droppedCharacter.test(character)) continue
    if (whitespace.test(character)) spaced += ' '
    else if (isCjkIdeograph(character.codePointAt(0) ?? 0)) spaced += ` ${character} `
    else spaced += character
  }
  let normalized = ''
  // Character by character, like the reference: a whole-string toLowerCase() would turn a final Σ into ς.
  for (const character of spaced.normalize('NFD')) {
    if (!combiningMark.test(character)) normalized += character.toLowerCase()
  }

  const words: string[] = []
  let word = ''
  for (const character of normalized) {
    if (whitespace.test(character) || punctuation.test(character)) {
      if (word !== '') words.push(word)
      word = ''
      if (!whitespace.test(character)) words.push(character)
    } else word += character
  }
  if (word !== '') words.push(word)
  return words
}

function requireToken(vocab: ReadonlyMap<string, number>, token: string): number {
  const id = vocab.get(token)
  if (id === undefined) throw new Error(`The vocabulary has no ${token} token: not a BERT vocabulary`)
  return id
}

export function createWordPieceTokenizer(
  vocab: ReadonlyMap<string, number>,
  options: WordPieceTokenizerOptions = {},
): WordPieceTokenizer {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS
  const maxCharsPerWord = options.maxCharsPerWord ?? DEFAULT_MAX_CHARS_PER_WORD
  if (maxTokens < 2) throw new Error(`maxTokens must leave room for [CLS] and [SEP], got ${maxTokens}`)
  const unknown = '[UNK]'
  const unknownId = requireToken(vocab, unknown)
  const classifierId = requireToken(vocab, '[CLS]')
  const separatorId = requireToken(vocab, '[SEP]')
  const padId = requireToken(vocab, '[PAD]')

  /** Greedy longest match first; a word with any part missing from the vocabulary is [UNK] as a whole. */
  function wordPieces(word: string): string[] {
    const characters = Array.from(word)
    if (characters.length > maxCharsPerWord) return [unknown]
    const pieces: string[] = []
    let start = 0
    while (start < characters.length) {
      let end = characters.length
      let piece: string | undefined
      while (start < end) {
        const candidate = (start > 0 ? CONTINUATION_PREFIX : '') + characters.slice(start, end).join('')
        if (vocab.has(candidate)) {
          piece = candidate
          break
        }
        end -= 1
      }
      if (piece === undefined) return [unknown]
      pieces.push(piece)
      start = end
    }
    return pieces
  }

  function tokenize(text: string): string[] {
    return basicTokenize(text).flatMap(wordPieces)
  }

  return {
    padId,
    tokenize,
    encode(text) {
      const pieceIds = tokenize(text)
        .slice(0, maxTokens - 2)
        .map((piece) => vocab.get(piece) ?? unknownId)
      const inputIds = [classifierId, ...pieceIds, separatorId]
      return {
        inputIds,
        attentionMask: inputIds.map(() => 1),
        tokenTypeIds: inputIds.map(() => 0),
      }
    },
  }
}
