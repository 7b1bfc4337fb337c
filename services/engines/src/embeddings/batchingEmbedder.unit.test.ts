import { describe, expect, it } from 'vitest'
import { withUrgency } from '../runtime/workPriority.js'
import { createBatchingEmbedder } from './batchingEmbedder.js'
import { EmbeddingError, embedQueries, type Embedder } from './embeddings.js'

/** Lets the model call of what was asked so far start (a batch starts once the turn that asked is over). */
const started = async (calls: string[][]) => {
  for (let round = 0; round < 10 && calls.length === 0; round += 1) await Promise.resolve()
}

/** Records each model call; texts containing "bad" make a call fail. */
function recordingEmbedder({ queries = true } = {}): Embedder & {
  calls: string[][]
  queryCalls: string[][]
} {
  const calls: string[][] = []
  const queryCalls: string[][] = []
  const run = async (texts: string[], into: string[][]) => {
    into.push(texts)
    await new Promise((resolve) => setTimeout(resolve, 5))
    if (texts.some((text) => text.includes('bad')))
      throw new EmbeddingError('EMBEDDING_FAILED', 'bad text', false)
    return texts.map((text) => [text.length])
  }
  return {
    model: 'test/recording',
    dimension: 1,
    calls,
    queryCalls,
    embed: (texts) => run(texts, calls),
    // A query's vector is negative, so a test sees which way each text went.
    ...(queries && {
      embedQueries: async (texts: string[]) =>
        (await run(texts, queryCalls)).map(([length = 0]) => [-length]),
    }),
    close: async () => undefined,
  }
}

describe('batching embedder', () => {
  it('embeds what urgent work asks for before what waits from other work', async () => {
    const inner = recordingEmbedder()
    const embedder = createBatchingEmbedder(inner, { maxBatch: 2 })
    const first = embedder.embed(['bulk 1'])
    await started(inner.calls)
    await Promise.all([
      first,
      embedder.embed(['bulk 2', 'bulk 3']),
      withUrgency(true, () => embedder.embed(['urgent'])),
    ])
    expect(inner.calls).toEqual([['bulk 1'], ['urgent'], ['bulk 2', 'bulk 3']])
  })

  it('merges calls that arrive while the model is busy and gives each caller its own vectors', async () => {
    const inner = recordingEmbedder()
    const embedder = createBatchingEmbedder(inner)
    const first = embedder.embed(['a'])
    await started(inner.calls)
    const results = await Promise.all([first, embedder.embed(['bb', 'ccc']), embedder.embed(['dddd'])])
    expect(results).toEqual([[[1]], [[2], [3]], [[4]]])
    expect(inner.calls).toEqual([['a'], ['bb', 'ccc', 'dddd']])
  })

  it('embeds the calls of one turn in one model call, a text asked twice once', async () => {
    const inner = recordingEmbedder()
    const embedder = createBatchingEmbedder(inner)
    const results = await Promise.all([
      embedQueries(embedder, ['where does Ana live?']),
      embedQueries(embedder, ['where does Ana live?', 'where live?']),
    ])
    expect(results).toEqual([[[-20]], [[-20], [-11]]])
    expect(inner.queryCalls).toEqual([['where does Ana live?', 'where live?']])
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

  it('embeds a call larger than a batch one batch at a time, letting calls that arrive meanwhile go in between', async () => {
    const inner = recordingEmbedder()
    const embedder = createBatchingEmbedder(inner, { maxBatch: 4 })
    const long = Array.from({ length: 10 }, (_, index) => 'x'.repeat(index + 1))
    const longDone = embedder.embed(long)
    // Arrives while the long call's first batch is in the model.
    await new Promise((resolve) => setTimeout(resolve, 1))
    const short = await embedder.embed(['short'])
    expect(short).toEqual([[5]])
    expect(await longDone).toEqual(long.map((text) => [text.length]))
    expect(inner.calls.every((call) => call.length <= 4)).toBe(true)
    // Served before the rest of the long call, not after all of it.
    const shortAt = inner.calls.findIndex((call) => call.includes('short'))
    const restAt = inner.calls.findIndex((call) => call.includes(long[4] ?? ''))
    expect(shortAt).toBeLessThan(restAt)
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

  it('merges queries apart from stored texts, each to its own model call', async () => {
    const inner = recordingEmbedder()
    const embedder = createBatchingEmbedder(inner)
    const results = await Promise.all([
      embedder.embed(['a']),
      embedQueries(embedder, ['bb']),
      embedder.embed(['ccc']),
      embedQueries(embedder, ['dddd']),
      embedder.embed(['eeeee']),
    ])
    expect(results).toEqual([[[1]], [[-2]], [[3]], [[-4]], [[5]]])
    expect(inner.calls).toEqual([['a', 'ccc', 'eeeee']])
    expect(inner.queryCalls).toEqual([['bb', 'dddd']])
  })

  it('embeds queries as stored texts when the model makes no difference between them', async () => {
    const inner = recordingEmbedder({ queries: false })
    const embedder = createBatchingEmbedder(inner)
    expect(await embedQueries(embedder, ['bb'])).toEqual([[2]])
    expect(await embedQueries(inner, ['ccc'])).toEqual([[3]])
    expect(inner.calls).toEqual([['bb'], ['ccc']])
  })
})
