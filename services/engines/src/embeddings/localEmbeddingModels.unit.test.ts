import { describe, expect, it } from 'vitest'
import {
  isLocalEmbeddingModelName,
  localEmbeddingModelNames,
  localEmbeddingModels,
  poolTokenVectors,
  withPrefix,
} from './localEmbeddingModels.js'

/** Two rows of three positions, two dimensions each; the second row's last position is padding. */
const hidden = {
  dims: [2, 3, 2],
  data: Float32Array.from([1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 500, 600]),
}
const masks = [
  [1, 1, 1],
  [1, 1, 0],
]

describe('local embedding models', () => {
  it('pools by the mean of the real tokens: padding positions do not count', () => {
    expect(poolTokenVectors('mean', hidden, masks).map((vector) => [...vector])).toEqual([
      [3, 4],
      [20, 30],
    ])
  })

  it('pools by the [CLS] token: the first position of each row, whatever follows', () => {
    expect(poolTokenVectors('cls', hidden, masks).map((vector) => [...vector])).toEqual([
      [1, 2],
      [10, 20],
    ])
  })

  it('embeds with MiniLM as sentence-transformers does: mean pooling, no prefix on either side', () => {
    const model = localEmbeddingModels['all-MiniLM-L6-v2']
    expect(model).toMatchObject({ pooling: 'mean', maxTokens: 256, dimension: 384 })
    expect(withPrefix(model, 'query', ['Where does Caroline live?'])).toEqual(['Where does Caroline live?'])
    expect(withPrefix(model, 'passage', ['Caroline lives in Lisbon.'])).toEqual(['Caroline lives in Lisbon.'])
  })

  it('puts the retrieval instruction of bge-small-en-v1.5 before queries only, and pools by [CLS]', () => {
    const model = localEmbeddingModels['bge-small-en-v1.5']
    expect(model).toMatchObject({ pooling: 'cls', maxTokens: 512, dimension: 384 })
    expect(withPrefix(model, 'query', ['Where does Caroline live?'])).toEqual([
      'Represent this sentence for searching relevant passages: Where does Caroline live?',
    ])
    expect(withPrefix(model, 'passage', ['Caroline lives in Lisbon.'])).toEqual(['Caroline lives in Lisbon.'])
  })

  it('puts "query: " before queries and "passage: " before stored texts for e5-small-v2, with mean pooling', () => {
    const model = localEmbeddingModels['e5-small-v2']
    expect(model).toMatchObject({ pooling: 'mean', maxTokens: 512, dimension: 384 })
    expect(withPrefix(model, 'query', ['Where does Caroline live?', ''])).toEqual([
      'query: Where does Caroline live?',
      'query: ',
    ])
    expect(withPrefix(model, 'passage', ['Caroline lives in Lisbon.'])).toEqual([
      'passage: Caroline lives in Lisbon.',
    ])
  })

  it('runs the models with quantized activations one text at a time, so a vector does not depend on its batch', () => {
    expect(localEmbeddingModels['all-MiniLM-L6-v2'].batchSize).toBe(32)
    expect(localEmbeddingModels['bge-small-en-v1.5'].batchSize).toBe(1)
    expect(localEmbeddingModels['e5-small-v2'].batchSize).toBe(1)
  })

  it('knows the three models by name and nothing else, not even an inherited property', () => {
    expect(localEmbeddingModelNames).toEqual(['all-MiniLM-L6-v2', 'bge-small-en-v1.5', 'e5-small-v2'])
    expect(isLocalEmbeddingModelName('e5-small-v2')).toBe(true)
    expect(isLocalEmbeddingModelName('text-embedding-3-small')).toBe(false)
    expect(isLocalEmbeddingModelName('toString')).toBe(false)
  })
})
