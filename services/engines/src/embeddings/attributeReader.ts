import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  attributeExampleStatements,
  attributeExampleStatementsInSlices,
  classifyAttribute,
  trainAttributeClassifier,
  type AttributeClassifier,
  type AttributeSimilarities,
  type LabelledVector,
} from '@memory-service/domain'
import type { Embedder } from './embeddings.js'

import { prebuiltAttributeClassifiers } from './attributeClassifiers.js'

/** Examples embedded per model call. */
const groupSize = 64

/** Names one model's classifier for one set of examples: a classifier built for other examples is not used. */
export function attributeExamplesHash(model: string, examples = attributeExampleStatements()): string {
  return createHash('sha256')
    .update(JSON.stringify([model, examples]))
    .digest('hex')
    .slice(0, 16)
}

/** Embeds the examples with the model and trains the classifier on them (several seconds on two cores). */
export async function buildAttributeClassifier(
  embedder: Pick<Embedder, 'embed'>,
  examples = attributeExampleStatements(),
): Promise<AttributeClassifier> {
  const vectors: LabelledVector[] = []
  for (let start = 0; start < examples.length; start += groupSize) {
    const group = examples.slice(start, start + groupSize)
    const embedded = await embedder.embed(group.map(({ text }) => text))
    embedded.forEach((vector, offset) => {
      const example = group[offset]
      if (example) vectors.push({ label: example.label, vector })
    })
  }
  return trainAttributeClassifier(vectors)
}

/** Which changing attribute a statement's vector reads as, for the fact reading of factMeaning.ts. */
export interface AttributeReader {
  /** The probability of each attribute, and of "no fact", for a statement's vector. */
  read(vector: readonly number[]): AttributeSimilarities
}

/**
 * The attribute reader of this process's model: a classifier trained on the attributes' example statements
 * (factPrototypes.ts and factExamples.ts) embedded by the model. The default model's ships with the code; for another
 * model it is built once per process on first use and, with `cacheDir`, kept on the machine (a file named by the
 * model and the examples' hash), since embedding the examples and training take the model and the CPU half a minute.
 */
export function createAttributeReader(
  embedder: Pick<Embedder, 'model' | 'embed'>,
  options: { cacheDir?: string } = {},
): () => Promise<AttributeReader> {
  let loaded: Promise<AttributeReader> | null = null

  async function build(): Promise<AttributeReader> {
    // Read by the first document of the process, beside the write path: in slices, not in one stretch.
    const examples = await attributeExampleStatementsInSlices()
    const hash = attributeExamplesHash(embedder.model, examples)
    // The default model's classifier ships with the code (attributeClassifiers.ts); others are built once here.
    let classifier: AttributeClassifier | null =
      prebuiltAttributeClassifiers.find(
        (prebuilt) => prebuilt.model === embedder.model && prebuilt.hash === hash,
      )?.classifier ?? null
    const file = options.cacheDir
      ? join(
          options.cacheDir,
          `attribute-classifier-${embedder.model.replace(/[^\w.-]+/g, '_')}-${hash}.json`,
        )
      : null
    if (!classifier && file) {
      try {
        classifier = JSON.parse(readFileSync(file, 'utf8')) as AttributeClassifier
      } catch {
        // Not built on this machine yet (or unreadable): built below.
      }
    }
    if (!classifier) {
      classifier = await buildAttributeClassifier(embedder, examples)
      if (file && options.cacheDir) {
        try {
          mkdirSync(options.cacheDir, { recursive: true })
          const partial = `${file}.${String(process.pid)}.tmp`
          writeFileSync(partial, JSON.stringify(classifier))
          renameSync(partial, file)
        } catch {
          // A cache that cannot be written costs the next process the same few seconds, nothing else.
        }
      }
    }
    const trained = classifier
    return { read: (vector) => classifyAttribute(trained, vector) }
  }

  return () => {
    loaded ??= build()
    // A failed build (the model was unavailable) is tried again by the next caller.
    loaded.catch(() => (loaded = null))
    return loaded
  }
}
