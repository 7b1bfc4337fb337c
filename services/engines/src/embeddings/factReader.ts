import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  decisionExamplesOf,
  decisionFolds,
  decisionMessagesOf,
  decisionTraining,
  foldOf,
  setsOutside,
  trainingSteps,
  askedAttributeOf,
  meaningOf,
  prebuiltReaders,
  readersHash,
  readFact,
  trainingSetsOf,
  trainingSetSteps,
  trainReader,
  type FactReaderModels,
  type FactReading,
  type FactReadingBars,
  type StatementMeaning,
  type StatementToRead,
  type ReaderName,
  type TrainingItem,
  type TrainingSets,
  type DecisionMessage,
  type DecisionSets,
} from '@memory-service/language'
import { runInSlices, withoutResolvedDates } from '@memory-service/domain'
import { embedQueries, type Embedder } from './embeddings.js'

/** Texts embedded per model call while training. */
const groupSize = 64
/** Span and context vectors kept for reuse: the same names and phrases recur across a user's statements. */
const spanCacheSize = 4096

type ReaderEmbedder = Pick<Embedder, 'model' | 'embed' | 'embedQueries'>

/** Vectors of the texts embedded once while training, kept as float32: folds read the same texts again. */
function embeddingOnce(
  embed: (texts: string[]) => Promise<number[][]>,
): (texts: string[]) => Promise<Float32Array[]> {
  const vectors = new Map<string, Float32Array>()
  return async (texts) => {
    const missing = [...new Set(texts.filter((text) => !vectors.has(text)))]
    for (let start = 0; start < missing.length; start += groupSize) {
      const group = missing.slice(start, start + groupSize)
      const embedded = await embed(group)
      group.forEach((text, index) => vectors.set(text, Float32Array.from(embedded[index] ?? [])))
    }
    return texts.map((text) => vectors.get(text) ?? new Float32Array())
  }
}

type Embedded = (texts: string[]) => Promise<ArrayLike<number>[]>

async function trainedOn<Label extends string>(
  name: ReaderName,
  items: TrainingItem<Label>[],
  embed: Embedded,
) {
  const unique = [...new Set(items.map(({ input }) => input.embed))]
  const vectors = new Map((await embed(unique)).map((vector, index) => [unique[index], vector]))
  // In time slices: a process that trains on first use (a model without shipped readers) goes on acknowledging
  // writes and heartbeating to Kafka meanwhile.
  return runInSlices(trainReader(name, items, (text) => vectors.get(text) ?? []))
}

async function statementReaders(sets: TrainingSets, asStored: Embedded) {
  return {
    topic: await trainedOn('topic', sets.topic, asStored),
    stance: (await trainedOn('stance', sets.stance, asStored)) as FactReaderModels['stance'],
    kind: await trainedOn('kind', sets.kind, asStored),
    role: await trainedOn('role', sets.role, asStored),
  }
}

/**
 * Embeds the training sets with the model and trains the readers (minutes on two cores: the examples' messages,
 * spans, contexts and questions): the statement readers on every writer's examples, and the decision on what
 * readers trained on one fold of the writers make of the other fold's messages (decisionTraining.ts). Questions are
 * embedded as the model reads questions.
 */
export async function trainFactReaders(
  embedder: ReaderEmbedder,
  sets: TrainingSets = trainingSetsOf(),
  messages: DecisionMessage[] = decisionMessagesOf(),
): Promise<FactReaderModels> {
  const asStored = embeddingOnce((texts) => embedder.embed(texts))
  const asQuestions = embeddingOnce((texts) => embedQueries(embedder as Embedder, texts))
  const readers = await statementReaders(sets, asStored)
  const question = await trainedOn('question', sets.question, asQuestions)
  const writers = [...new Set(messages.map(({ writer }) => writer))]
  const decisionSets: DecisionSets = { decision: [], version: [] }
  for (let fold = 0; fold < decisionFolds; fold++) {
    const outside = await statementReaders(setsOutside(sets, fold, writers), asStored)
    for (const message of messages.filter(({ writer }) => foldOf(writer, writers) === fold)) {
      const { decision, version } = await decisionExamplesOf(outside, message, asStored)
      decisionSets.decision.push(...decision)
      decisionSets.version.push(...version)
    }
  }
  return {
    ...readers,
    question,
    decision: await runInSlices(trainingSteps(decisionSets.decision, 0, decisionTraining)),
    version: await runInSlices(trainingSteps(decisionSets.version, 0, decisionTraining)),
  }
}

/** What a statement states and what a question asks, by the readers of this process's model. */
export interface FactReader {
  readonly models: FactReaderModels
  /** The fact a statement states, or null; `asVersionOf` reads it as a version of that attribute only. */
  read(statement: StatementToRead, options?: { asVersionOf?: string }): Promise<FactReading | null>
  /** The topic and stance of a statement, from its vector and words (no embedding). */
  meaning(statement: { content: string; speaker?: string; vector: ArrayLike<number> }): StatementMeaning
  /** The attribute a question asks for, from its words and its vector embedded as a question. */
  askedAttribute(
    question: string,
    questionVector: ArrayLike<number>,
  ): { attribute: string; probability: number } | null
}

export interface FactReaderOptions {
  /** Where readers trained on this machine are kept (a file per model and examples' hash). */
  cacheDir?: string
  bars?: FactReadingBars
}

function readerOf(
  models: FactReaderModels,
  embedder: ReaderEmbedder,
  options: FactReaderOptions,
): FactReader {
  const cache = new Map<string, number[]>()
  async function embedSpans(texts: string[]): Promise<number[][]> {
    const missing = [...new Set(texts.filter((text) => !cache.has(text)))]
    if (missing.length > 0) {
      const vectors = await embedder.embed(missing)
      missing.forEach((text, index) => {
        if (cache.size >= spanCacheSize) cache.delete(cache.keys().next().value as string)
        cache.set(text, vectors[index] ?? [])
      })
    }
    return texts.map((text) => cache.get(text) ?? [])
  }
  return {
    models,
    // Read as the speaker said it: the readers learned from what people write, without the extractor's dates.
    read: (statement, readOptions = {}) =>
      readFact(models, { ...statement, content: withoutResolvedDates(statement.content) }, embedSpans, {
        ...(options.bars && !readOptions.asVersionOf ? { bars: options.bars } : {}),
        ...(readOptions.asVersionOf ? { asVersionOf: readOptions.asVersionOf } : {}),
      }),
    meaning: (statement) =>
      meaningOf(models, { ...statement, content: withoutResolvedDates(statement.content) }),
    askedAttribute: (question, vector) => askedAttributeOf(models, question, vector),
  }
}

/**
 * The fact reader of this process's model: its readers ship with the code for the local models
 * (services/language/generated); for another model they are trained once on first use and, with `cacheDir`, kept
 * on the machine, since embedding the examples and training take the model and the CPU a minute or more.
 */
export function createFactReader(
  embedder: ReaderEmbedder,
  options: FactReaderOptions = {},
): () => Promise<FactReader> {
  let loaded: Promise<FactReader> | null = null

  async function build(): Promise<FactReader> {
    const hash = readersHash(embedder.model)
    let models = prebuiltReaders(embedder.model, hash)
    const file = options.cacheDir
      ? join(options.cacheDir, `fact-readers-${embedder.model.replace(/[^\w.-]+/g, '_')}-${hash}.json`)
      : null
    if (!models && file) {
      try {
        models = JSON.parse(readFileSync(file, 'utf8')) as FactReaderModels
      } catch {
        // Not trained on this machine yet (or unreadable): trained below.
      }
    }
    if (!models) {
      models = await trainFactReaders(embedder, await runInSlices(trainingSetSteps()))
      if (file && options.cacheDir) {
        try {
          mkdirSync(options.cacheDir, { recursive: true })
          const partial = `${file}.${String(process.pid)}.tmp`
          writeFileSync(partial, JSON.stringify(models))
          renameSync(partial, file)
        } catch {
          // A cache that cannot be written costs the next process the same training, nothing else.
        }
      }
    }
    return readerOf(models, embedder, options)
  }

  return () => {
    loaded ??= build()
    // A failed build (the model was unavailable) is tried again by the next caller.
    loaded.catch(() => (loaded = null))
    return loaded
  }
}
