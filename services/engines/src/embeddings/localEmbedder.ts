import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { EmbeddingError, type Embedder } from './embeddings.js'
import {
  openSessionInThread,
  openSessionInWorker,
  type ModelOutput,
  type ModelPriority,
  type ModelSession,
} from './modelSession.js'
import {
  isLocalEmbeddingModelName,
  localEmbeddingModelNames,
  localEmbeddingModels,
  poolTokenVectors,
  withPrefix,
  type LocalEmbeddingModel,
} from './localEmbeddingModels.js'
import { createWordPieceTokenizer, parseVocab, type EncodedText } from './wordPieceTokenizer.js'

export interface LocalEmbedderOptions {
  /** Folder with one sub-folder per model; `stack:up` fills `<cache>/models`. */
  modelDir: string
  /**
   * One of {@link localEmbeddingModels} (its pooling and prefixes apply), and the sub-folder of modelDir holding its
   * `model.onnx` and `vocab.txt`.
   */
  model: string
  /** Configured vector dimension (EMBEDDINGS_DIMENSION); checked against the model at creation. */
  dimension: number
  /**
   * CPU threads per inference. One by default: that leaves the other core of a two-core machine to the rest of the
   * service and its servers, and a second onnxruntime thread also spin-waits between runs. Two threads embed about
   * 1.6 times as fast (short sentences on a two-core machine: 230 against 350–410 per second).
   */
  threads?: number
  /**
   * Where inference runs. `worker` (the default): a worker thread of its own, so the event loop that serves requests
   * and consumes Kafka goes on while the model computes (onnxruntime-node computes on the calling thread). `caller`:
   * on the calling thread, for a process that does nothing else meanwhile.
   */
  thread?: 'worker' | 'caller'
  /** The model's CPU priority on its worker thread (ModelSessionOptions.priority). @default 'normal' */
  priority?: ModelPriority
  /**
   * Texts per inference run; each run is padded to its longest text.
   * @default the model's own (LocalEmbeddingModel.batchSize)
   */
  batchSize?: number
  /** Tokens per text including [CLS] and [SEP]; longer texts are cut. @default the model's own limit */
  maxTokens?: number
}

const MODEL_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'] as const
type ModelInput = (typeof MODEL_INPUTS)[number]
const isModelInput = (name: string): name is ModelInput => (MODEL_INPUTS as readonly string[]).includes(name)

/** The required files of a model folder, or an error that says how to get them. */
function modelFiles(options: LocalEmbedderOptions): { model: string; vocab: string } {
  const folder = join(options.modelDir, options.model)
  const files = { model: join(folder, 'model.onnx'), vocab: join(folder, 'vocab.txt') }
  const missing = Object.values(files).filter((file) => !existsSync(file))
  if (missing.length > 0) {
    throw new Error(
      `Local embedding model ${options.model} is not installed (missing ${missing.join(', ')}). ` +
        'Run `npm run stack:up`, which fetches the default model into the cache, ' +
        'or set EMBEDDINGS_MODEL_DIR to a folder that holds it.',
    )
  }
  return files
}

function unitLength(vector: Float64Array): number[] {
  const norm = Math.hypot(...vector)
  return Array.from(vector, (value) => value / norm)
}

function profileOf(model: string): LocalEmbeddingModel {
  if (!isLocalEmbeddingModelName(model)) {
    throw new Error(
      `EMBEDDINGS_MODEL ${model} is not a local model: EMBEDDINGS_PROVIDER=local runs ${localEmbeddingModelNames.join(', ')}`,
    )
  }
  return localEmbeddingModels[model]
}

/**
 * A sentence-embedding model in ONNX on the CPU: WordPiece tokens of the text behind the model's prefix for its role
 * (stored text or query) in, the token vectors pooled as the model wants (mean over the attention mask, or [CLS]; or
 * the model's own `sentence_embedding` output when it has one) out, scaled to unit length, as sentence-transformers
 * computes it.
 */
export async function createLocalEmbedder(options: LocalEmbedderOptions): Promise<Embedder> {
  const profile = profileOf(options.model)
  const files = modelFiles(options)
  const batchSize = options.batchSize ?? profile.batchSize
  const tokenizer = createWordPieceTokenizer(parseVocab(await readFile(files.vocab, 'utf8')), {
    maxTokens: options.maxTokens ?? profile.maxTokens,
  })
  let session: ModelSession
  try {
    const open = options.thread === 'caller' ? openSessionInThread : openSessionInWorker
    session = await open({
      model: files.model,
      threads: options.threads ?? 1,
      ...(options.priority ? { priority: options.priority } : {}),
    })
  } catch (error) {
    throw new Error(
      `Cannot load ${files.model} (delete its folder and run \`npm run stack:up\` to fetch it again): ${String(error)}`,
      { cause: error },
    )
  }
  const label = `local/${options.model}`

  const inputs = session.inputNames.filter(isModelInput)
  const unknownInputs = session.inputNames.filter((name) => !isModelInput(name))
  const chosenOutput = ['sentence_embedding', 'last_hidden_state'].find((name) =>
    session.outputNames.includes(name),
  )
  if (unknownInputs.length > 0 || chosenOutput === undefined) {
    await session.release()
    throw new Error(
      `${files.model} is not a BERT-style sentence-embedding model: inputs ${session.inputNames.join(', ')}, ` +
        `outputs ${session.outputNames.join(', ')} (expected inputs among ${MODEL_INPUTS.join(', ')} and an ` +
        'output sentence_embedding or last_hidden_state)',
    )
  }
  // Function declarations below are hoisted, so they would not see the narrowing of chosenOutput.
  const output: string = chosenOutput
  const pooledByModel = output === 'sentence_embedding'

  function feeds(batch: EncodedText[]): { inputs: Record<string, BigInt64Array>; dims: [number, number] } {
    const width = Math.max(...batch.map((encoded) => encoded.inputIds.length))
    const columns: Record<ModelInput, BigInt64Array> = {
      input_ids: new BigInt64Array(batch.length * width).fill(BigInt(tokenizer.padId)),
      attention_mask: new BigInt64Array(batch.length * width),
      token_type_ids: new BigInt64Array(batch.length * width),
    }
    batch.forEach((encoded, row) => {
      encoded.inputIds.forEach((id, position) => {
        const at = row * width + position
        columns.input_ids[at] = BigInt(id)
        columns.attention_mask[at] = BigInt(encoded.attentionMask[position] ?? 0)
        columns.token_type_ids[at] = BigInt(encoded.tokenTypeIds[position] ?? 0)
      })
    })
    return {
      inputs: Object.fromEntries(inputs.map((name) => [name, columns[name]])),
      dims: [batch.length, width],
    }
  }

  function modelPooled(pooled: ModelOutput, rows: number): Float64Array[] {
    const size = pooled.dims.at(-1) ?? 0
    const data = pooled.data
    return Array.from({ length: rows }, (_, row) =>
      Float64Array.from(data.subarray(row * size, (row + 1) * size)),
    )
  }

  async function embedBatch(batch: EncodedText[]): Promise<number[][]> {
    let tensor: ModelOutput
    try {
      const { inputs: columns, dims } = feeds(batch)
      tensor = await session.run(columns, dims, output)
    } catch (error) {
      throw new EmbeddingError(
        'EMBEDDING_FAILED',
        `${label} failed: ${error instanceof Error ? error.message : String(error)}`,
        false,
        { cause: error },
      )
    }
    const vectors = pooledByModel
      ? modelPooled(tensor, batch.length)
      : poolTokenVectors(
          profile.pooling,
          tensor,
          batch.map((encoded) => encoded.attentionMask),
        )
    return vectors.map(unitLength)
  }

  async function embedAs(
    role: 'passage' | 'query',
    texts: string[],
    signal?: AbortSignal,
  ): Promise<number[][]> {
    // Batches of similar length waste little work on padding; results go back in the caller's order.
    const queue = withPrefix(profile, role, texts)
      .map((text, index) => ({ index, encoded: tokenizer.encode(text) }))
      .sort((a, b) => a.encoded.inputIds.length - b.encoded.inputIds.length)
    const vectors = new Array<number[]>(texts.length)
    for (let start = 0; start < queue.length; start += batchSize) {
      if (signal?.aborted) {
        throw new EmbeddingError('EMBEDDING_UNAVAILABLE', `${label}: cancelled`, true, {
          cause: signal.reason,
        })
      }
      const batch = queue.slice(start, start + batchSize)
      const embedded = await embedBatch(batch.map(({ encoded }) => encoded))
      batch.forEach(({ index }, offset) => (vectors[index] = embedded[offset] ?? []))
    }
    return vectors
  }

  const [probe] = await embedAs('passage', ['dimension check'])
  if (probe?.length !== options.dimension) {
    await session.release()
    throw new Error(
      `EMBEDDINGS_DIMENSION is ${options.dimension}, but ${label} produces ${String(probe?.length)}-dimensional ` +
        `vectors: set EMBEDDINGS_DIMENSION=${String(probe?.length)} or choose another model`,
    )
  }

  return {
    model: label,
    dimension: options.dimension,
    embed: (texts, signal) => embedAs('passage', texts, signal),
    embedQueries: (texts, signal) => embedAs('query', texts, signal),
    close: () => session.release(),
  }
}
