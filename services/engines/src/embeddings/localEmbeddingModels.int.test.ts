/**
 * The other local models as the services run them: bge-small-en-v1.5 and e5-small-v2, the files `stack:up` fetched
 * when EMBEDDINGS_MODEL named them (`EMBEDDINGS_MODEL=e5-small-v2 npm run stack:up`), onnxruntime on the CPU, our
 * tokenizer, each model's pooling and prefixes. A model that is not installed is skipped, saying so; the default model
 * has its own file (localEmbedder.int.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig } from '../../../../test/support/testEngines.js'
import type { Embedder } from './embeddings.js'
import { createLocalEmbedder } from './localEmbedder.js'
import type { LocalEmbeddingModelName } from './localEmbeddingModels.js'
import { vocabFromTokenizerJson } from './vocabFromTokenizerJson.js'

const modelDir = testConfig().embeddings.modelDir ?? ''

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0)
const largestDifference = (a: number[], b: number[]) =>
  Math.max(...a.map((value, index) => Math.abs(value - (b[index] ?? 0))))

const stored = 'I adopted a puppy last week'
const paraphrase = 'Last week I got a new dog'
const unrelated = 'The quarterly report is due on Friday'
const question = 'Where did Caroline move from?'
const answer = "Caroline moved from Sweden to Lisbon in June 2023; she doesn't miss the winters!"
const otherMemory = 'Melanie plays the clarinet in a jazz band.'

/*
 * The first components of sentence vectors computed in Python from the same model.onnx by onnxruntime 1.32.0 with the
 * reference tokenizer (HuggingFace `tokenizers` 0.23.3 on the jar's tokenizer.json, no padding, truncation at 512),
 * one text per run, the model's prefix before the text, then its pooling and unit length:
 *
 *   enc = tok.encode(prefix + text)
 *   h = session.run(['last_hidden_state'], {'input_ids': ids, 'attention_mask': mask, 'token_type_ids': types})[0]
 *   e = h[0, 0] (bge: [CLS])  or  (h * mask[..., None]).sum(1)[0] / mask.sum() (e5: mean);  e / np.linalg.norm(e)
 *
 * The same script compared all ids and vectors of 15 texts in both roles (docs/pipeline.md, Embeddings).
 */
interface ModelCase {
  model: LocalEmbeddingModelName
  storedHead: number[]
  questionHead: number[]
}

const cases: ModelCase[] = [
  {
    model: 'bge-small-en-v1.5',
    storedHead: [-0.02578, -0.038688, 0.008409, -0.025887, 0.002979, -0.001874],
    questionHead: [-0.00375, -0.038591, 0.09569, 0.012396, 0.061946, 0.024504],
  },
  {
    model: 'e5-small-v2',
    storedHead: [-0.087975, 0.04903, 0.055379, 0.028496, -0.045366, 0.059512],
    questionHead: [-0.044404, 0.029689, 0.05161, 0.028765, -0.015441, 0.005189],
  },
]

const installed = (model: string) =>
  existsSync(join(modelDir, model, 'model.onnx')) && existsSync(join(modelDir, model, 'vocab.txt'))

for (const { model, storedHead, questionHead } of cases) {
  if (!installed(model)) {
    console.warn(
      `[int] skipping the ${model} tests: it is not installed in ${join(modelDir, model)} ` +
        `(EMBEDDINGS_MODEL=${model} npm run stack:up fetches it)`,
    )
  }

  describe.skipIf(!installed(model))(`local embedder (${model}, ONNX on the CPU)`, () => {
    let embedder: Embedder

    beforeAll(async () => {
      embedder = await createLocalEmbedder({ modelDir, model, dimension: 384 })
    })

    afterAll(async () => {
      await embedder.close()
    })

    it('returns one 384-dimensional unit vector per text, labelled with the model', async () => {
      const vectors = await embedder.embed(['Caroline went to a support group.', '', 'ok'])
      expect(embedder.model).toBe(`local/${model}`)
      expect(vectors).toHaveLength(3)
      for (const vector of vectors) {
        expect(vector).toHaveLength(384)
        expect(Math.hypot(...vector)).toBeCloseTo(1, 6)
      }
    })

    it('computes the vectors of the reference pipeline in Python, for a stored text and for a question', async () => {
      const [storedVector = []] = await embedder.embed([stored])
      const [questionVector = []] = (await embedder.embedQueries?.([question])) ?? []
      expect(largestDifference(storedVector.slice(0, 6), storedHead)).toBeLessThan(1e-4)
      expect(largestDifference(questionVector.slice(0, 6), questionHead)).toBeLessThan(1e-4)
    })

    it('puts a paraphrase nearer than an unrelated sentence', async () => {
      const [anchor = [], near = [], far = []] = await embedder.embed([stored, paraphrase, unrelated])
      expect(cosine(anchor, near) - cosine(anchor, far)).toBeGreaterThan(0.1)
    })

    it('puts a question nearer to the memory that answers it than to another memory', async () => {
      const [questionVector = []] = (await embedder.embedQueries?.([question])) ?? []
      const [answerVector = [], otherVector = []] = await embedder.embed([answer, otherMemory])
      expect(cosine(questionVector, answerVector) - cosine(questionVector, otherVector)).toBeGreaterThan(0.1)
    })

    it('reads a question otherwise than a stored text: its own prefix', async () => {
      const [asQuestion = []] = (await embedder.embedQueries?.([question])) ?? []
      const [asStored = []] = await embedder.embed([question])
      expect(cosine(asQuestion, asStored)).toBeLessThan(0.995)
    })

    it('gives a text the same vector alone as among others: one text per run', async () => {
      const texts = [stored, answer, otherMemory, `${answer} ${answer}`]
      const together = await embedder.embed(texts)
      for (const [index, text] of texts.entries()) {
        const [alone = []] = await embedder.embed([text])
        expect(largestDifference(alone, together[index] ?? [])).toBeLessThan(1e-6)
      }
    })

    it('embeds a text beyond 512 tokens by its beginning', async () => {
      const opening = 'word '.repeat(600).trim()
      const [long = [], cut = []] = await embedder.embed([
        `${opening} and a great deal more text after it`,
        opening,
      ])
      expect(cosine(long, cut)).toBeCloseTo(1, 5)
    })

    const tokenizerJson = join(modelDir, model, 'tokenizer.json')
    it.skipIf(!existsSync(tokenizerJson))(
      'reads the vocabulary stack:up derived from the tokenizer.json beside it',
      () => {
        const tokenizer = JSON.parse(readFileSync(tokenizerJson, 'utf8')) as unknown
        expect(vocabFromTokenizerJson(tokenizer, { maxTokens: 512 })).toBe(
          readFileSync(join(modelDir, model, 'vocab.txt'), 'utf8'),
        )
      },
    )
  })
}
