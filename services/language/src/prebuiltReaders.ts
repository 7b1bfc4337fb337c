/**
 * The fact readers built ahead for the local embedding models (`npm run gen:fact-readers` writes them into
 * generated/, named by the model; a unit test checks each one's hash against the examples as they are). A model or
 * set of examples without one is trained at run time by the engines and kept on the machine.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { trainSoftmax, type SoftmaxClassifier, type TrainingOptions } from './classifier.js'
import type { FactReaderModels } from './factReading.js'
import { featuresOf, sparseWidth, type ReaderName } from './readerInputs.js'
import type { TrainingItem, TrainingSets } from './trainingSets.js'

export const generatedDirectory = fileURLToPath(new URL('../generated/', import.meta.url))

/** How every reader is trained: one set of options, part of the hash. */
export const readerTraining: Required<TrainingOptions> = {
  epochs: 30,
  batchSize: 32,
  learningRate: 0.01,
  l2: 1e-5,
  balanced: true,
}

export interface BuiltReaders {
  model: string
  hash: string
  readers: FactReaderModels
}

/** Names one model's readers for one set of examples and training options. */
export function readersHash(model: string, sets: TrainingSets): string {
  const hash = createHash('sha256').update(JSON.stringify([model, readerTraining, balancedReaders]))
  for (const [name, items] of Object.entries(sets))
    for (const { input, label } of items)
      hash.update(JSON.stringify([name, input.embed, [...input.sparse], label]))
  return hash.digest('hex').slice(0, 16)
}

/**
 * Which readers weigh each label by the inverse of its count: all of them. Unweighed, the stance reader took fewer
 * of the speaker's own values and let more traps through (facts-chat tune part: 0.44 → 0.30 new values read, traps
 * 0.95 → 0.77).
 */
export const balancedReaders: Record<ReaderName, boolean> = JSON.parse(
  process.env.READER_BALANCE ?? '{"topic":true,"stance":true,"kind":true,"role":true,"question":true}',
) as Record<ReaderName, boolean>

/** Trains one reader on its items, given each embedded text's vector. */
export function trainReader<Label extends string>(
  name: ReaderName,
  items: readonly TrainingItem<Label>[],
  vectorOf: (text: string) => ArrayLike<number>,
): SoftmaxClassifier<Label> {
  return trainSoftmax(
    items.map(({ input, label }) => ({ label, features: featuresOf(input, vectorOf(input.embed)) })),
    sparseWidth[name],
    { ...readerTraining, balanced: balancedReaders[name] },
  )
}

/** The file the readers of a model are generated into. */
export const prebuiltReadersFile = (model: string): string =>
  `${generatedDirectory}fact-readers.${model.replace(/[^\w.-]+/g, '_')}.json`

/** The readers shipped for this model, if they were built from these examples. */
export function prebuiltReaders(model: string, hash: string): FactReaderModels | null {
  const file = prebuiltReadersFile(model)
  if (!existsSync(file)) return null
  const built = JSON.parse(readFileSync(file, 'utf8')) as BuiltReaders
  return built.model === model && built.hash === hash ? built.readers : null
}
