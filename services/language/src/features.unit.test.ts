import { describe, expect, it } from 'vitest'
import { characterFeatures, wordFeatures, wordsOf } from './features.js'
import { saidBy } from './thirdPerson.js'

describe('the hashed features', () => {
  it('read a statement in the third person like the first person it was said in', () => {
    expect(wordsOf("Amara's sister lives in Leeds", 'Amara')).toEqual(wordsOf('My sister live in Leeds'))
    expect(wordsOf("The user's cat is moving", 'User')).toEqual(wordsOf('my cat is moving'))
  })

  it('are unit length and the same in every process', () => {
    const features = wordFeatures('I moved to Porto last month')
    const norm = Math.sqrt([...features.values()].reduce((sum, value) => sum + value * value, 0))
    expect(norm).toBeCloseTo(1)
    expect([...characterFeatures('Dr. Lindqvist')]).toEqual([...characterFeatures('Dr. Lindqvist')])
  })
})

describe('a labelled message as a memory words it', () => {
  it('names the writer the first time and says "they" after', () => {
    expect(saidBy('I moved here and I love my flat', 'Nadia')).toBe(
      'Nadia moved here and they love their flat',
    )
    expect(saidBy("I'm a nurse", 'the user')).toBe('The user is a nurse')
  })
})
