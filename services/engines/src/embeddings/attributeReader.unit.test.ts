import { describe, expect, it } from 'vitest'
import {
  attributeExampleStatements,
  attributeExampleStatementsInSlices,
  classifyAttribute,
  meaningAttributes,
} from '@memory-service/domain'
import { prebuiltAttributeClassifiers } from './attributeClassifiers.js'
import { attributeExamplesHash, createAttributeReader } from './attributeReader.js'
import { localEmbeddingModelNames } from './localEmbeddingModels.js'

describe('the attribute classifiers shipped with the code', () => {
  it('exist for every local model and were built from the examples as they are (npm run gen:attributes)', () => {
    expect(attributeExampleStatements().length).toBeGreaterThan(1000)
    for (const model of localEmbeddingModelNames) {
      const label = `local/${model}`
      const prebuilt = prebuiltAttributeClassifiers.find((classifier) => classifier.model === label)
      expect(prebuilt?.hash, `${label}: run npm run gen:attributes`).toBe(attributeExamplesHash(label))
      expect(prebuilt?.classifier.labels.sort()).toEqual([...meaningAttributes, 'not'].sort())
      for (const row of prebuilt?.classifier.weights ?? []) expect(row).toHaveLength(385)
    }
  })

  it('are named by the same examples whether these are read at once or in slices (as a process reads them)', async () => {
    let pauses = 0
    let at = 0
    const sliced = await attributeExampleStatementsInSlices({
      sliceMs: 50,
      now: () => (at += 1),
      pause: async () => void (pauses += 1),
    })
    expect(sliced).toEqual(attributeExampleStatements())
    expect(pauses).toBeGreaterThan(5)
  })

  it('read a vector as probabilities of each attribute and of no fact, summing to one', () => {
    const prebuilt = prebuiltAttributeClassifiers[0]
    if (!prebuilt) throw new Error('no prebuilt classifier')
    const vector = Array.from({ length: 384 }, (_, index) => Math.sin(index) / 14)
    const read = classifyAttribute(prebuilt.classifier, vector)
    expect(Object.values(read).reduce((sum, value) => sum + value, 0)).toBeCloseTo(1)
  })

  it('are used without embedding anything for the model they were built for', async () => {
    const model = prebuiltAttributeClassifiers[0]?.model ?? ''
    let embedded = 0
    const reader = await createAttributeReader({
      model,
      embed: (texts) => {
        embedded += texts.length
        return Promise.resolve(texts.map(() => new Array<number>(384).fill(0)))
      },
    })()
    expect(embedded).toBe(0)
    expect(Object.keys(reader.read(new Array<number>(384).fill(0.05))).sort()).toEqual(
      [...meaningAttributes, 'not'].sort(),
    )
  })
})
