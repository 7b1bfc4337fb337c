/**
 * The default local model as the services run it: the files `stack:up` fetched into the cache (the int project's
 * global setup runs it), onnxruntime on the CPU, our tokenizer and pooling.
 */
import { getPriority } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig } from '../../../../test/support/testEngines.js'
import type { Embedder } from './embeddings.js'
import { EmbeddingError } from './embeddings.js'
import { createLocalEmbedder } from './localEmbedder.js'
import { BACKGROUND_NICENESS, openSessionInWorker } from './modelSession.js'

const model = 'all-MiniLM-L6-v2'
const processNiceness = getPriority()
const modelDir = testConfig().embeddings.modelDir ?? ''

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0)
const norm = (vector: number[]) => Math.hypot(...vector)

/*
 * The first components of the sentence vectors, computed in Python from the same model.onnx by onnxruntime 1.31.1
 * with the reference tokenizer (HuggingFace `tokenizers`, the model's tokenizer.json, no padding, truncation at
 * 256), then the mean of last_hidden_state over the attention mask, divided by its length:
 *
 *   h = session.run(['last_hidden_state'], {'input_ids': ids, 'attention_mask': mask, 'token_type_ids': types})[0]
 *   e = (h * mask[..., None]).sum(1) / mask.sum(1, keepdims=True); e = e[0] / np.linalg.norm(e[0])
 *
 * Agreement proves tokenization, input feeding and pooling, not only that some vector comes out.
 */
const referenceVectors: { text: string; head: number[] }[] = [
  {
    text: 'I adopted a puppy last week',
    head: [-0.08447, -0.023365, 0.070377, 0.056197, -0.02456, -0.024692],
  },
  {
    text: "Caroline moved from Sweden to Lisbon in June 2023; she doesn't miss the winters!",
    head: [0.008047, -0.001717, 0.057584, 0.07147, 0.001075, 0.023654],
  },
]

describe('local embedder (all-MiniLM-L6-v2, ONNX on the CPU)', () => {
  let embedder: Embedder

  beforeAll(async () => {
    embedder = await createLocalEmbedder({ modelDir, model, dimension: 384 })
  })

  afterAll(async () => {
    await embedder.close()
  })

  it('returns one 384-dimensional unit vector per text, labelled with the model', async () => {
    const vectors = await embedder.embed(['Caroline went to a support group.', '', 'ok'])
    expect(embedder.model).toBe('local/all-MiniLM-L6-v2')
    expect(embedder.dimension).toBe(384)
    expect(vectors).toHaveLength(3)
    for (const vector of vectors) {
      expect(vector).toHaveLength(384)
      expect(norm(vector)).toBeCloseTo(1, 6)
    }
  })

  it('computes the same vectors as the reference pipeline in Python', async () => {
    const vectors = await embedder.embed(referenceVectors.map(({ text }) => text))
    referenceVectors.forEach(({ head }, index) => {
      const vector = vectors[index] ?? []
      head.forEach((expected, component) =>
        expect(Math.abs((vector[component] ?? 0) - expected)).toBeLessThan(1e-4),
      )
    })
  })

  it('puts a paraphrase much closer than an unrelated sentence', async () => {
    const [anchor = [], paraphrase = [], unrelated = []] = await embedder.embed([
      'I adopted a puppy last week',
      'Last week I got a new dog',
      'The quarterly report is due on Friday',
    ])
    const similar = cosine(anchor, paraphrase)
    const different = cosine(anchor, unrelated)
    expect(similar).toBeGreaterThan(0.5)
    expect(different).toBeLessThan(0.3)
    expect(similar - different).toBeGreaterThan(0.3)
  })

  it('reads a question as a stored text (no prefix), and finds the memory that answers it', async () => {
    const question = 'Where did Caroline move from?'
    const [asQuestion = []] = (await embedder.embedQueries?.([question])) ?? []
    const [asStored = [], answer = [], other = []] = await embedder.embed([
      question,
      referenceVectors[1]?.text ?? '',
      'Melanie plays the clarinet in a jazz band.',
    ])
    expect(asQuestion).toEqual(asStored)
    expect(cosine(asQuestion, answer) - cosine(asQuestion, other)).toBeGreaterThan(0.3)
  })

  it('gives a text the same vector alone as in a batch with longer and shorter texts', async () => {
    // 40 texts make two runs of 32, each padded to its own longest text.
    const texts = Array.from(
      { length: 40 },
      (_, index) => `Memory ${index}: ${'the agent remembered what the user said '.repeat((index % 7) + 1)}`,
    )
    const together = await embedder.embed(texts)
    for (const [index, text] of texts.entries()) {
      const [alone = []] = await embedder.embed([text])
      const batched = together[index] ?? []
      expect(
        Math.max(...alone.map((value, component) => Math.abs(value - (batched[component] ?? 0)))),
      ).toBeLessThan(1e-5)
    }
  })

  it('embeds nothing for no texts, and a text beyond 256 tokens by its beginning', async () => {
    expect(await embedder.embed([])).toEqual([])
    const opening = 'word '.repeat(254).trim()
    const [long = [], cut = []] = await embedder.embed([
      `${opening} and a great deal more text after it`,
      opening,
    ])
    expect(cosine(long, cut)).toBeCloseTo(1, 5)
  })

  it('refuses a configured dimension the model does not produce, naming the setting', async () => {
    await expect(createLocalEmbedder({ modelDir, model, dimension: 768 })).rejects.toThrow(
      /EMBEDDINGS_DIMENSION is 768, but local\/all-MiniLM-L6-v2 produces 384-dimensional vectors/,
    )
  })

  it('says how to get a model that is not there', async () => {
    await expect(createLocalEmbedder({ modelDir: '/nonexistent', model, dimension: 384 })).rejects.toThrow(
      /not installed .*npm run stack:up/,
    )
  })

  it('computes on its own thread: the event loop keeps turning while it embeds, with the same vectors', async () => {
    const texts = Array.from(
      { length: 64 },
      (_, index) => `${'a long remembered sentence '.repeat(6)}${index}`,
    )
    const ticksWhile = async (of: Embedder) => {
      let ticks = 0
      let embedding = true
      const tick = () => {
        ticks += 1
        if (embedding) setImmediate(tick)
      }
      setImmediate(tick)
      const vectors = await of.embed(texts)
      embedding = false
      return { ticks, vectors }
    }
    const onCaller = await createLocalEmbedder({ modelDir, model, dimension: 384, thread: 'caller' })
    try {
      const inWorker = await ticksWhile(embedder)
      const inCaller = await ticksWhile(onCaller)
      // On the caller's thread each run of 32 texts holds the loop: a tick or so per run. On a worker the loop turns
      // freely for as long as the model computes.
      expect(inCaller.ticks).toBeLessThan(10)
      expect(inWorker.ticks).toBeGreaterThan(10 * inCaller.ticks + 10)
      inWorker.vectors.forEach((vector, index) => {
        const same = inCaller.vectors[index] ?? []
        expect(Math.max(...vector.map((value, component) => Math.abs(value - (same[component] ?? 0))))).toBe(
          0,
        )
      })
    } finally {
      await onCaller.close()
    }
  })

  it.runIf(process.platform === 'linux')(
    'computes at background priority on a thread of its own niceness, the process keeping its own',
    async () => {
      const file = `${modelDir}/${model}/model.onnx`
      const background = await openSessionInWorker({ model: file, threads: 1, priority: 'background' })
      const normal = await openSessionInWorker({ model: file, threads: 1 })
      try {
        expect(background.niceness).toBe(Math.min(19, getPriority() + BACKGROUND_NICENESS))
        expect(normal.niceness).toBe(getPriority())
        // Lowering the model's thread left the process (its event loop, its other threads) where it was.
        expect(getPriority()).toBe(processNiceness)
        const ids = BigInt64Array.from([101n, 7592n, 102n])
        const inputs = {
          input_ids: ids,
          attention_mask: new BigInt64Array(3).fill(1n),
          token_type_ids: new BigInt64Array(3),
        }
        const [low, high] = await Promise.all(
          [background, normal].map((session) =>
            session.run(
              Object.fromEntries(Object.entries(inputs).map(([name, column]) => [name, column.slice()])),
              [1, 3],
              'last_hidden_state',
            ),
          ),
        )
        expect(low?.dims).toEqual([1, 3, 384])
        expect([...(low?.data ?? [])]).toEqual([...(high?.data ?? [])])
      } finally {
        await Promise.all([background.release(), normal.release()])
      }
    },
  )

  it('closes while it embeds: the run under way ends, later calls fail, and the close returns', async () => {
    const closing = await createLocalEmbedder({ modelDir, model, dimension: 384 })
    const texts = Array.from(
      { length: 64 },
      (_, index) => `${'a sentence being embedded '.repeat(8)}${index}`,
    )
    const under = closing.embed(texts).then(
      (vectors) => vectors.length,
      (error: unknown) => error,
    )
    await closing.close()
    // The batch in the model when the close came is finished; the next one is refused.
    const outcome = await under
    expect(outcome === 64 || outcome instanceof EmbeddingError).toBe(true)
    await expect(closing.embed(['after'])).rejects.toBeInstanceOf(EmbeddingError)
  })

  it('reports a runtime failure as a permanent embedding error', async () => {
    const closed = await createLocalEmbedder({ modelDir, model, dimension: 384 })
    await closed.close()
    const error: unknown = await closed.embed(['text']).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(EmbeddingError)
    expect(error).toMatchObject({ code: 'EMBEDDING_FAILED', transient: false })
  })
})
