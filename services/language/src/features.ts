/**
 * What a reader sees of a text: its sentence vector (from the embedding model: what it means, whatever the words)
 * and its words as hashed, stemmed unigrams and bigrams (which words: "my sister", "want to", "used to", "not",
 * "visiting" — the cues a mean-pooled sentence vector blurs). A linear model over both is fastText's recipe with a
 * sentence encoder beside it; every weight is learned from the labelled examples.
 *
 * Statements are stored in the third person ("Amara's sister moved to Nairobi"), the examples are written in the
 * first; before hashing, the speaker's name reads as "i" and their possessive as "my", and stemming makes "lives"
 * and "live" one word, so the words of both read alike.
 */
import { stemmer } from 'stemmer'
import { isKnownOrganization, isWorldCity } from './names.js'

/** Buckets of the hashed words. */
export const hashedWords = 2048
/** Buckets of the hashed character trigrams of a span ("S21", "-Fit", "Dr."). */
export const hashedCharacters = 1024

/** A sparse part of a feature vector: bucket → weight. */
export type SparseFeatures = Map<number, number>

export interface Features {
  dense: ArrayLike<number>
  sparse: SparseFeatures
}

/** FNV-1a over the string's UTF-16 code units: a stable hash, the same in every process. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

function addHashed(into: SparseFeatures, key: string, buckets: number, offset: number): void {
  const hash = hashOf(key)
  const bucket = offset + (hash % buckets)
  // The sign from another bit: collisions cancel out on average instead of adding up.
  const sign = hash >>> 31 === 0 ? 1 : -1
  into.set(bucket, (into.get(bucket) ?? 0) + sign)
}

function normalized(features: SparseFeatures): SparseFeatures {
  let norm = 0
  for (const value of features.values()) norm += value * value
  if (norm === 0) return features
  const scale = 1 / Math.sqrt(norm)
  for (const [bucket, value] of features) features.set(bucket, value * scale)
  return features
}

const wordPattern = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?|[?!]/gu

/** The words of a text as the hashed features count them: lower case, the speaker as "i", stemmed. */
export function wordsOf(text: string, speaker?: string): string[] {
  let written = text
  if (speaker) {
    const name = speaker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    written = written
      .replace(new RegExp(`(?<![\\p{L}])(?:the )?${name}['’]s(?![\\p{L}])`, 'giu'), 'my')
      .replace(new RegExp(`(?<![\\p{L}])(?:the )?${name}(?![\\p{L}])`, 'giu'), 'i')
  }
  return (written.match(wordPattern) ?? [])
    .map((word) =>
      word
        .toLowerCase()
        .replace(/['’]s$/, '')
        .replace(/^i['’](?:m|ve|ll|d)$/, 'i'),
    )
    .map((word) => (/^[a-z]+$/.test(word) ? stemmer(word) : word))
}

/** Hashed unigrams and bigrams of a text's words, at `offset` in the feature vector, unit length. */
export function wordFeatures(text: string, speaker?: string, offset = 0): SparseFeatures {
  const words = wordsOf(text, speaker)
  const features: SparseFeatures = new Map()
  words.forEach((word, index) => {
    addHashed(features, word, hashedWords, offset)
    if (index > 0) addHashed(features, `${words[index - 1] ?? ''} ${word}`, hashedWords, offset)
  })
  return normalized(features)
}

/** Hashed character trigrams of a span ("^Dr", "S21", "Fit$"), at `offset`, unit length. */
export function characterFeatures(span: string, offset = 0): SparseFeatures {
  const written = `^${span}$`
  const features: SparseFeatures = new Map()
  for (let index = 0; index + 3 <= written.length; index++)
    addHashed(features, written.slice(index, index + 3), hashedCharacters, offset)
  return normalized(features)
}

/** Flags of a span's form and whether a gazetteer knows it, each a bucket of its own. */
export const spanFlags = 6

/** A span's form and gazetteer flags at `offset`: a known city, a known organization, capitals, digits. */
export function spanFlagFeatures(span: string, offset: number): SparseFeatures {
  const flags = [
    isWorldCity(span),
    isKnownOrganization(span),
    /^\p{Lu}/u.test(span),
    /^[\p{Lu}\d\s.&-]+$/u.test(span) && /\p{Lu}{2}/u.test(span),
    /\d/.test(span),
    span.trim().split(/\s+/).length > 1,
  ]
  const features: SparseFeatures = new Map()
  flags.forEach((flag, index) => {
    if (flag) features.set(offset + index, 1)
  })
  return features
}

/** Two sparse parts as one. */
export function joined(...parts: SparseFeatures[]): SparseFeatures {
  const features: SparseFeatures = new Map()
  for (const part of parts)
    for (const [bucket, value] of part) features.set(bucket, (features.get(bucket) ?? 0) + value)
  return features
}

/** The words around a span by where they are: the one just before it, the others before, the ones after. */
export function roleWordFeatures(
  text: string,
  span: { start: number; end: number },
  speaker?: string,
): SparseFeatures {
  const before = wordsOf(text.slice(0, span.start), speaker).slice(-6)
  const after = wordsOf(text.slice(span.end), speaker).slice(0, 3)
  const features: SparseFeatures = new Map()
  before.forEach((word, index) => {
    addHashed(features, `L:${word}`, hashedWords, 0)
    if (index === before.length - 1) addHashed(features, `L1:${word}`, hashedWords, 0)
    if (index === before.length - 2)
      addHashed(features, `L2:${word} ${before[index + 1] ?? ''}`, hashedWords, 0)
  })
  after.forEach((word, index) => {
    addHashed(features, `R:${word}`, hashedWords, 0)
    if (index === 0) addHashed(features, `R1:${word}`, hashedWords, 0)
  })
  return normalized(features)
}
