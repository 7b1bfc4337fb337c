import { createCoalescer } from '@memory-service/domain'
import { isUrgentWork, ownerOfWork } from '../runtime/workPriority.js'
import { embedQueries, type Embedder } from './embeddings.js'

/**
 * Merges concurrent embed calls into one model call. A local model costs far less per text in a batch of 32 than
 * in calls of two, and the pipeline embeds each document's few statements on its own. A merged call that fails is
 * retried request by request, so one bad text fails only its own caller. Stored texts and queries are merged
 * separately: a model may read them differently (a prefix of each kind). A call of more texts than a batch holds
 * goes one batch at a time, each queued after what arrived meanwhile: a long document (a compaction's summary, a
 * conversation) takes its turns with the short ones instead of holding the model for seconds while they wait.
 * Urgent work (workPriority.ts: an interactive document) goes ahead of what waits that is not, and owners (the
 * instances whose documents these are) take fair shares of the model: one customer's long compaction does not hold
 * another's one-line document.
 */
export function createBatchingEmbedder(embedder: Embedder, options: { maxBatch?: number } = {}): Embedder {
  const maxBatch = options.maxBatch ?? 64
  const coalescerOf = (embedTexts: (texts: string[]) => Promise<number[][]>) => {
    const embed = createCoalescer<string[], number[][]>({
      maxSize: maxBatch,
      sizeOf: (texts) => texts.length,
      mergeSameTurn: true,
      async run(requests) {
        // The same text asked twice in one batch (a search's question and its name-free form, often equal) is
        // embedded once.
        const texts = [...new Set(requests.flat())]
        const vectors = await embedTexts(texts)
        const vectorOf = new Map(texts.map((text, position) => [text, vectors[position] ?? []]))
        return requests.map((request) => request.map((text) => vectorOf.get(text) ?? []))
      },
    })
    return async (texts: string[]): Promise<number[][]> => {
      const urgent = isUrgentWork()
      const owner = ownerOfWork()
      if (texts.length <= maxBatch) return texts.length === 0 ? [] : embed(texts, urgent, owner)
      const vectors: number[][] = []
      for (let start = 0; start < texts.length; start += maxBatch)
        vectors.push(...(await embed(texts.slice(start, start + maxBatch), urgent, owner)))
      return vectors
    }
  }
  const passages = coalescerOf((texts) => embedder.embed(texts))
  const queries = coalescerOf((texts) => embedQueries(embedder, texts))
  return {
    model: embedder.model,
    dimension: embedder.dimension,
    embed: passages,
    embedQueries: queries,
    close: () => embedder.close(),
  }
}
