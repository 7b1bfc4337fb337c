import { describe, expect, it } from 'vitest'
import { worldCities } from '../../services/language/src/generated/worldCities.js'
import { worldCityNames } from './worldCityNames.js'

describe('the generated world cities', () => {
  it('are what the generator writes from the installed packages (run npm run gen:cities after a change)', () => {
    expect(worldCities).toBe(worldCityNames().join('|'))
  })

  it('leave out English words and given names, and fold diacritics', () => {
    const names = new Set(worldCities.split('|'))
    expect(names.has('tbilisi')).toBe(true)
    expect(names.has('gdansk')).toBe(true)
    for (const word of ['nice', 'reading', 'mobile', 'split', 'jackson', 'florence'])
      expect(names.has(word)).toBe(false)
  })
})
