import type { Embedder } from './embeddings.js'

interface Pending {
  texts: string[]
  resolve(vectors: number[][]): void
  reject(error: unknown): void
}

/**
 * Merges concurrent embed calls into one model call. A local model costs far less per text in a batch of 32 than
 * in calls of two, and the pipeline embeds each document's few statements on its own; while one model call runs,
 * the requests that arrive wait and then go together. If a merged call fails, each request is retried alone, so
 * one bad text fails only its own caller.
 */
export function createBatchingEmbedder(embedder: Embedder, options: { maxBatch?: number } = {}): Embedder {
  const maxBatch = options.maxBatch ?? 64
  const queue: Pending[] = []
  let running = false

  async function runAlone(request: Pending): Promise<void> {
    try {
      request.resolve(await embedder.embed(request.texts))
    } catch (error) {
      request.reject(error)
    }
  }

  async function drain(): Promise<void> {
    running = true
    while (queue.length > 0) {
      const batch: Pending[] = []
      let size = 0
      while (queue.length > 0 && (batch.length === 0 || size + (queue[0]?.texts.length ?? 0) <= maxBatch)) {
        const next = queue.shift() as Pending
        batch.push(next)
        size += next.texts.length
      }
      if (batch.length === 1) {
        await runAlone(batch[0] as Pending)
        continue
      }
      try {
        const vectors = await embedder.embed(batch.flatMap((request) => request.texts))
        let offset = 0
        for (const request of batch) {
          request.resolve(vectors.slice(offset, offset + request.texts.length))
          offset += request.texts.length
        }
      } catch {
        for (const request of batch) await runAlone(request)
      }
    }
    running = false
  }

  return {
    model: embedder.model,
    dimension: embedder.dimension,
    embed(texts) {
      if (texts.length === 0) return Promise.resolve([])
      return new Promise<number[][]>((resolve, reject) => {
        queue.push({ texts, resolve, reject })
        if (!running) void drain()
      })
    },
    close: () => embedder.close(),
  }
}
