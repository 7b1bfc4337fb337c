/**
 * The fact readers built ahead for the local embedding models (`npm run gen:fact-readers` writes them into
 * generated/, named by the model; a unit test checks each one's hash against the examples as they are). A model or
 * set of examples without one is trained at run time by the engines and kept on the machine.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { trainingSteps, type SoftmaxClassifier, type TrainingOptions } from './classifier.js'
import type { FactReaderModels } from './factReading.js'
import { examplesDirectory } from './examples.js'
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

/**
 * How the decision is trained: its labels as they come (most candidates are no value), so that its probability of a
 * value is one to compare with 0.5, not inflated by weighing the rare labels up.
 */
export const decisionTraining: Required<TrainingOptions> = { ...readerTraining, balanced: false }

/**
 * What the readers are, beyond their examples and options: a change of what they read or how they are combined
 * (features, candidates, the decision) changes it, so readers built before are not taken for current ones.
 */
export const readersVersion = 2

export interface BuiltReaders {
  model: string
  /** The examples' files and the training options they were trained with (readersHash). */
  hash: string
  /** What the readers were trained on, item by item (trainingSetsHash): a test checks it against the code. */
  setsHash: string
  readers: FactReaderModels
}

/**
 * Names one model's readers for the example files as they are and the training options: cheap (the files' bytes),
 * so a process finds its shipped readers without building the training sets (seconds of wink-nlp on the thread
 * that also heartbeats to Kafka). A change of how the readers read (the features, the spans) changes what they are
 * trained on without changing the files: the unit test that compares trainingSetsHash catches it.
 */
export function readersHash(model: string): string {
  const hash = createHash('sha256').update(
    JSON.stringify([model, readerTraining, balancedReaders, decisionTraining, readersVersion]),
  )
  for (const file of readdirSync(examplesDirectory).sort())
    hash.update(file).update(readFileSync(`${examplesDirectory}${file}`))
  return hash.digest('hex').slice(0, 16)
}

/** Names what one model's readers are trained on, item by item. */
export function trainingSetsHash(model: string, sets: TrainingSets): string {
  const hash = createHash('sha256').update(
    JSON.stringify([model, readerTraining, balancedReaders, decisionTraining, readersVersion]),
  )
  for (const [name, items] of Object.entries(sets))
    for (const { input, label } of items)
      hash.update(JSON.stringify([name, input.embed, [...input.sparse], label]))
  return hash.digest('hex').slice(0, 16)
}

/** The shipped readers' file of a model as it is, if any (for the check of what they were trained on). */
export function builtReadersOf(model: string): BuiltReaders | null {
  const file = prebuiltReadersFile(model)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BuiltReaders) : null
}

/**
 * Which readers weigh each label by the inverse of its count: all of them. Unweighed, the stance reader took fewer
 * of the speaker's own values and let more traps through (facts-chat tune part: 0.44 → 0.30 new values read, traps
 * 0.95 → 0.77).
 */
export const balancedReaders: Record<ReaderName, boolean> = {
  topic: true,
  stance: true,
  kind: true,
  role: true,
  question: true,
}

/** Trains one reader on its items, given each embedded text's vector, a step at a time (trainingSteps). */
export function trainReader<Label extends string>(
  name: ReaderName,
  items: readonly TrainingItem<Label>[],
  vectorOf: (text: string) => ArrayLike<number>,
): Generator<void, SoftmaxClassifier<Label>> {
  return trainingSteps(
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
  const built = builtReadersOf(model)
  return built && built.model === model && built.hash === hash ? built.readers : null
}
