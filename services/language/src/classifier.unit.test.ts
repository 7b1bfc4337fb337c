import { describe, expect, it } from 'vitest'
import { classify, likeliest, trainSoftmax } from './classifier.js'

const example = (label: string, dense: number[], words: [number, number][] = []) => ({
  label,
  features: { dense, sparse: new Map(words) },
})

describe('the softmax classifier', () => {
  const examples = [
    example('city', [1, 0], [[0, 1]]),
    example('city', [0.9, 0.1], [[0, 1]]),
    example('company', [0, 1], [[1, 1]]),
    example('company', [0.1, 0.9], [[1, 1]]),
  ]

  it('learns labels from dense and hashed features, and reads probabilities that sum to one', () => {
    const classifier = trainSoftmax(examples, 2, { epochs: 200, batchSize: 2, learningRate: 0.05 })
    const city = classify(classifier, { dense: [0.8, 0.2], sparse: new Map() })
    expect(likeliest(city).label).toBe('city')
    expect(likeliest(classify(classifier, { dense: [0.5, 0.5], sparse: new Map([[1, 1]]) })).label).toBe(
      'company',
    )
    expect(Object.values(city).reduce((sum, value) => sum + value, 0)).toBeCloseTo(1)
  })

  it('gives the same weights for the same examples, whatever ran before', () => {
    const first = trainSoftmax(examples, 2, { epochs: 20 })
    trainSoftmax([...examples].reverse(), 2, { epochs: 20 })
    expect(trainSoftmax(examples, 2, { epochs: 20 })).toEqual(first)
  })
})
