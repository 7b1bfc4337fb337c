import { describe, expect, it } from 'vitest'
import { createBatchingEmbedder } from './batchingEmbedder.js'
import { EmbeddingError, type Embedder } from './embeddings.js'

/** Records each model call; texts containing "bad" make a call fail. */
function recordingEmbedder(): Embedder & { calls: string[][] } {
  const calls: string[][] = []
  return {
    model: 'test/recording',
    dimension: 1,
    calls,
    async embed(texts) {
      calls.push(texts)
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (texts.some((text) => text.includes('bad')))
        throw new EmbeddingError('EMBEDDING_FAILED', 'bad text', false)
      return texts.map((text) => [text.length])
    },
    close: async () => undefined,
  }
}

describe('batching embedder', () => {
  it('merges calls that arrive while the model is busy and gives each caller its own vectors', async () => {
    const inner = recordingEmbedder()
    const embedder = createBatchingEmbedder(inner)
    const results = await Promise.all([
      embedder.embed(['a']),
      embedder.embed(['bb', 'ccc']),
      embedder.embed(['dddd']),
    ])
    expect(results).toEqual([[[1]], [[2], [3]], [[4]]])
    expect(inner.calls).toEqual([['a'], ['bb', 'ccc', 'dddd']])
  })

  it('never merges beyond the batch limit', async () => {
    const inner = recordingEmbedder()
    const embedder = createBatchingEmbedder(inner, { maxBatch: 2 })
    await Promise.all([
      embedder.embed(['a']),
      embedder.embed(['b']),
      embedder.embed(['c']),
      embedder.embed(['d']),
    ])
    expect(inner.calls.every((call) => call.length <= 2)).toBe(true)
  })

  it('fails only the caller whose text breaks a merged call', async () => {
    const inner = recordingEmbedder()
    const embedder = createBatchingEmbedder(inner)
    const [first, second, third] = await Promise.allSettled([
      embedder.embed(['a']),
      embedder.embed(['bad']),
      embedder.embed(['ok']),
    ])
    expect(first).toEqual({ status: 'fulfilled', value: [[1]] })
    expect(second).toMatchObject({ status: 'rejected', reason: { code: 'EMBEDDING_FAILED' } })
    expect(third).toEqual({ status: 'fulfilled', value: [[2]] })
  })
})
