import { ModelServiceError } from '@memory-service/domain'

/**
 * Text → vector, behind one interface. The default is a sentence-embedding model running locally on the CPU
 * (ONNX); an OpenAI-compatible /embeddings endpoint is the other production implementation. A hashing embedder
 * exists for tests only and is never chosen by configuration.
 */
export interface Embedder {
  /** Model label stored with every vector, so a projection knows which model produced it. */
  readonly model: string
  readonly dimension: number
  /**
   * One unit-length vector per stored text (a memory, its reading in context), in order.
   * @throws EmbeddingError (`transient` says whether a retry can help)
   */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>
  /**
   * One unit-length vector per question or search query, for models that read a query unlike a stored text (an
   * instruction or a prefix before it). Absent: queries are embedded as stored texts; call it through
   * {@link embedQueries}, which falls back to `embed`.
   * @throws EmbeddingError
   */
  embedQueries?(texts: string[], signal?: AbortSignal): Promise<number[][]>
  close(): Promise<void>
}

/** Questions and search queries embedded as the embedder reads them: `embedQueries` where it has one, else `embed`. */
export function embedQueries(embedder: Embedder, texts: string[], signal?: AbortSignal): Promise<number[][]> {
  return embedder.embedQueries ? embedder.embedQueries(texts, signal) : embedder.embed(texts, signal)
}

/** A failure of this stage's model service; `transient` says whether a retry can help. */
export class EmbeddingError extends ModelServiceError {}
