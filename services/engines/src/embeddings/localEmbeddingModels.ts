/**
 * How each local model reads a text and makes one vector of its token vectors, as its authors use it for
 * retrieval. The files come from `stack:up` (infra/models/fetchModels.ts); the local embedder applies this.
 */
export interface LocalEmbeddingModel {
  /**
   * `mean`: the mean of the token vectors over the attention mask (sentence-transformers' mean pooling); `cls`: the
   * vector of the first token, [CLS].
   */
  pooling: 'mean' | 'cls'
  /** Put before a stored text (a memory, its reading in context). */
  passagePrefix: string
  /** Put before a question or search query. */
  queryPrefix: string
  /** Tokens per text including [CLS] and [SEP], the prefix included; longer texts are cut. */
  maxTokens: number
  /** Length of its vectors (EMBEDDINGS_DIMENSION must say the same). */
  dimension: number
  /**
   * Texts per inference run. A model whose activations are quantized as it runs (DynamicQuantizeLinear) scales them
   * by the range of the whole run, padding included, so a text's vector would depend on the texts beside it (cosine
   * 0.994–0.997 to its vector alone): such a model takes one text per run, and gives every text one vector.
   */
  batchSize: number
}

/** The models EMBEDDINGS_MODEL may name with EMBEDDINGS_PROVIDER=local, by folder name under EMBEDDINGS_MODEL_DIR. */
export const localEmbeddingModels = {
  /** sentence-transformers: mean pooling, no prefix, trained on at most 256 tokens; int8 weights only. */
  'all-MiniLM-L6-v2': {
    pooling: 'mean',
    passagePrefix: '',
    queryPrefix: '',
    maxTokens: 256,
    dimension: 384,
    batchSize: 32,
  },
  /**
   * BAAI: [CLS] pooling; for retrieval an instruction before queries only, none before passages. Int8 weights and
   * activations (Xenova's model_quantized.onnx).
   */
  'bge-small-en-v1.5': {
    pooling: 'cls',
    passagePrefix: '',
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    maxTokens: 512,
    dimension: 384,
    batchSize: 1,
  },
  /**
   * intfloat: mean pooling; every text starts with "query: " or "passage: ", as in its training. Int8 weights and
   * activations (Xenova's model_quantized.onnx).
   */
  'e5-small-v2': {
    pooling: 'mean',
    passagePrefix: 'passage: ',
    queryPrefix: 'query: ',
    maxTokens: 512,
    dimension: 384,
    batchSize: 1,
  },
} as const satisfies Record<string, LocalEmbeddingModel>

export type LocalEmbeddingModelName = keyof typeof localEmbeddingModels

/** The default EMBEDDINGS_MODEL (ServiceConfig.schema.json says the same). */
export const DEFAULT_LOCAL_EMBEDDING_MODEL: LocalEmbeddingModelName = 'all-MiniLM-L6-v2'

export const localEmbeddingModelNames = Object.keys(localEmbeddingModels) as LocalEmbeddingModelName[]

export function isLocalEmbeddingModelName(name: string): name is LocalEmbeddingModelName {
  return Object.hasOwn(localEmbeddingModels, name)
}

/** The texts as the model reads them in one role: each behind that role's prefix. */
export function withPrefix(
  model: LocalEmbeddingModel,
  role: 'passage' | 'query',
  texts: readonly string[],
): string[] {
  const prefix = role === 'query' ? model.queryPrefix : model.passagePrefix
  return prefix === '' ? [...texts] : texts.map((text) => prefix + text)
}

/**
 * One sentence vector per row of a `[rows, width, size]` tensor of token vectors (row-major), by the model's pooling,
 * not yet scaled to unit length. `attentionMasks[row]` says which positions of the row are real tokens: padding
 * positions carry vectors too and must not count.
 */
export function poolTokenVectors(
  pooling: LocalEmbeddingModel['pooling'],
  hidden: { data: Float32Array; dims: readonly number[] },
  attentionMasks: readonly (readonly number[])[],
): Float64Array[] {
  const [, width = 0, size = 0] = hidden.dims
  const { data } = hidden
  return attentionMasks.map((mask, row) => {
    const rowStart = row * width * size
    if (pooling === 'cls') return Float64Array.from(data.subarray(rowStart, rowStart + size))
    const sum = new Float64Array(size)
    let tokens = 0
    mask.forEach((attended, position) => {
      if (attended === 0) return
      tokens += 1
      const offset = rowStart + position * size
      for (let index = 0; index < size; index += 1)
        sum[index] = (sum[index] ?? 0) + (data[offset + index] ?? 0)
    })
    return sum.map((value) => value / tokens)
  })
}
