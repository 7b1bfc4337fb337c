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
   * One unit-length vector per text, in order.
   * @throws EmbeddingError (`transient` says whether a retry can help)
   */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>
  close(): Promise<void>
}

/** A failure of this stage's model service; `transient` says whether a retry can help. */
export class EmbeddingError extends ModelServiceError {}
