import { describe, expect, it } from 'vitest'
import {
  attributeNames,
  builtReadersOf,
  prebuiltReaders,
  readersHash,
  roles,
  stances,
  trainingSetsHash,
  trainingSetsOf,
} from '@memory-service/language'
import { createFactReader } from './factReader.js'
import { localEmbeddingModelNames } from './localEmbeddingModels.js'

describe('the fact readers shipped with the code', () => {
  const sets = trainingSetsOf()

  it('exist for every local model and were trained on the examples as they are (npm run gen:fact-readers)', () => {
    for (const model of localEmbeddingModelNames) {
      const label = `local/${model}`
      const readers = prebuiltReaders(label, readersHash(label))
      expect(readers, `${label}: run npm run gen:fact-readers`).not.toBeNull()
      // Trained on what the code makes of the examples now (a change of the features or spans shows here).
      expect(builtReadersOf(label)?.setsHash, `${label}: run npm run gen:fact-readers`).toBe(
        trainingSetsHash(label, sets),
      )
      expect(readers?.topic.labels.sort()).toEqual([...attributeNames, 'none'].sort())
      expect(readers?.stance.labels.sort()).toEqual([...stances].sort())
      expect(readers?.role.labels.sort()).toEqual([...roles].sort())
      expect(readers?.decision.labels.sort()).toEqual(['none', 'previous', 'value'])
    }
  })

  it('are used without embedding anything for the model they were trained for', async () => {
    let embedded = 0
    const reader = await createFactReader({
      model: `local/${localEmbeddingModelNames[0] ?? ''}`,
      embed: (texts) => {
        embedded += texts.length
        return Promise.resolve(texts.map(() => new Array<number>(384).fill(0)))
      },
    })()
    expect(embedded).toBe(0)
    const meaning = reader.meaning({ content: 'I moved to Porto', vector: new Array<number>(384).fill(0.05) })
    expect(Object.values(meaning.topic).reduce((sum, value) => sum + value, 0)).toBeCloseTo(1)
  })
})
