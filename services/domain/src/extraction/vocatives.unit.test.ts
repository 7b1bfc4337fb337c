import { describe, expect, it } from 'vitest'
import { addressedNames } from './vocatives.js'

describe('addressedNames', () => {
  it('finds names used as vocatives and ignores clause openers', () => {
    expect(
      addressedNames(
        'Hey Mel! Wow, that is cool, Caroline! Thanks, Melanie. Maria, look. Well, honestly, no. Thanks, guys!',
      ),
    ).toEqual(['Mel', 'Caroline', 'Melanie', 'Maria'])
  })

  it('does not take the second part of a place for a vocative', () => {
    expect(addressedNames('We moved to Portland, Oregon. It rains a lot, Jon!')).toEqual(['Jon'])
  })
})
