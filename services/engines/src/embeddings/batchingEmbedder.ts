import { createCoalescer } from '@memory-service/domain'
import type { Embedder } from './embeddings.js'

/**
 * Merges concurrent embed calls into one model call. A local model costs far less per text in a batch of 32 than
 * in calls of two, and the pipeline embeds each document's few statements on its own. A merged call that fails is
 * retried request by request, so one bad text fails only its own caller.
 */
export function createBatchingEmbedder(embedder: Embedder, options: { maxBatch?: number } = {}): Embedder {
  const embed = createCoalescer<string[], number[][]>({
    maxSize: options.maxBatch ?? 64,
    sizeOf: (texts) => texts.length,
    async run(requests) {
      const vectors = await embedder.embed(requests.flat())
      let offset = 0
      return requests.map((texts) => vectors.slice(offset, (offset += texts.length)))
    },
  })
  return {
    model: embedder.model,
    dimension: embedder.dimension,
    embed: (texts) => (texts.length === 0 ? Promise.resolve([]) : embed(texts)),
    close: () => embedder.close(),
  }
}
