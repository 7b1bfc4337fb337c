import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  askedAttributeOf,
  meaningOf,
  prebuiltReaders,
  readersHash,
  readFact,
  trainingSetsOf,
  trainReader,
  type FactReaderModels,
  type FactReading,
  type FactReadingBars,
  type StatementMeaning,
  type StatementToRead,
  type ReaderName,
  type TrainingItem,
  type TrainingSets,
} from '@memory-service/language'
import { embedQueries, type Embedder } from './embeddings.js'

/** Texts embedded per model call while training. */
const groupSize = 64
/** Span and context vectors kept for reuse: the same names and phrases recur across a user's statements. */
const spanCacheSize = 4096

type ReaderEmbedder = Pick<Embedder, 'model' | 'embed' | 'embedQueries'>

async function embedAll(
  texts: string[],
  embed: (texts: string[]) => Promise<number[][]>,
): Promise<number[][]> {
  const vectors: number[][] = []
  for (let start = 0; start < texts.length; start += groupSize)
    vectors.push(...(await embed(texts.slice(start, start + groupSize))))
  return vectors
}

async function trained<Label extends string>(
  name: ReaderName,
  items: TrainingItem<Label>[],
  embed: (texts: string[]) => Promise<number[][]>,
) {
  const unique = [...new Set(items.map(({ input }) => input.embed))]
  const vectors = new Map((await embedAll(unique, embed)).map((vector, index) => [unique[index], vector]))
  return trainReader(name, items, (text) => vectors.get(text) ?? [])
}

/**
 * Embeds the training sets with the model and trains the five readers (a minute or more on two cores: the examples'
 * messages, spans, contexts and questions). Questions are embedded as the model reads questions.
 */
export async function trainFactReaders(
  embedder: ReaderEmbedder,
  sets: TrainingSets = trainingSetsOf(),
): Promise<FactReaderModels> {
  const asStored = (texts: string[]) => embedder.embed(texts)
  const asQuestions = (texts: string[]) => embedQueries(embedder as Embedder, texts)
  return {
    topic: await trained('topic', sets.topic, asStored),
    stance: (await trained('stance', sets.stance, asStored)) as FactReaderModels['stance'],
    kind: await trained('kind', sets.kind, asStored),
    role: await trained('role', sets.role, asStored),
    question: await trained('question', sets.question, asQuestions),
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
    read: (statement, readOptions = {}) =>
      readFact(models, statement, embedSpans, {
        ...(options.bars && !readOptions.asVersionOf ? { bars: options.bars } : {}),
        ...(readOptions.asVersionOf ? { asVersionOf: readOptions.asVersionOf } : {}),
      }),
    meaning: (statement) => meaningOf(models, statement),
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
    const sets = trainingSetsOf()
    const hash = readersHash(embedder.model, sets)
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
      models = await trainFactReaders(embedder, sets)
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
