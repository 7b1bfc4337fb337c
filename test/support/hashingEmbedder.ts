/**
 * A stand-in embedder for tests that need vectors but not meaning: texts sharing words get similar vectors, the
 * same text always the same vector, and nothing is loaded. Deliberately not part of services/shared and not
 * selectable by configuration, so it can never embed real memories.
 */
import type { Embedder } from '@memory-service/engines'

/** FNV-1a, 32 bit: fast, stable across runs and platforms, and good enough to spread words over the buckets. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/** Lower-cased words and the pairs of neighbouring words, so that word order counts a little. */
function features(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const pairs = words.slice(1).map((word, index) => `${words[index] ?? ''} ${word}`)
  return [...words, ...pairs]
}

function hashedVector(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0)
  // A text without words still needs a unit vector; it gets the one of a feature no word can produce.
  const found = features(text)
  for (const feature of found.length > 0 ? found : [' ']) {
    const hash = fnv1a(feature)
    // The sign bit keeps colliding features from always adding up, so collisions average out.
    const bucket = (hash >>> 1) % dimension
    vector[bucket] = (vector[bucket] ?? 0) + (hash & 1 ? 1 : -1)
  }
  const norm = Math.hypot(...vector)
  // Features can cancel out exactly in one bucket; then fall back to a fixed axis rather than divide by zero.
  return norm > 0 ? vector.map((value) => value / norm) : vector.map((_, index) => (index === 0 ? 1 : 0))
}

/** `model` is the label stored with its vectors: another one passes for another model (a re-embedding test). */
export function createHashingEmbedder(dimension: number, model = 'test/hashing'): Embedder {
  return {
    model,
    dimension,
    async embed(texts) {
      return texts.map((text) => hashedVector(text, dimension))
    },
    // No prefixes: a question shares its words' buckets with the memories that hold them.
    async embedQueries(texts) {
      return texts.map((text) => hashedVector(text, dimension))
    },
    async close() {
      // Nothing to release.
    },
  }
}
