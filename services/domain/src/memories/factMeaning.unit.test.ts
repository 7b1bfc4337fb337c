import { describe, expect, it } from 'vitest'
import { attributeSimilarities, recognizeFact } from './factMeaning.js'

const fact = (content: string, speaker: string, options?: Parameters<typeof recognizeFact>[3]) => {
  const found = recognizeFact(content, speaker, {}, options)
  return found ? `${found.attribute}=${found.value}` : null
}

describe('recognizeFact, by the kind of value and the words around it', () => {
  it('reads a change of residence, employer, diet or car however it is worded', () => {
    expect(fact('Priya said: We finally moved to Lisbon last month and the flat is tiny.', 'Priya')).toBe(
      'residence=lisbon',
    )
    expect(fact('Tom left Google and has been at Stripe for a month now.', 'Tom')).toBe('employer=stripe')
    expect(fact('First month at Spotify done, the team is great.', 'Tom')).toBe('employer=spotify')
    expect(fact('Tom went vegan in January.', 'Tom')).toBe('diet=vegan')
    expect(fact('Tom traded in the hatchback for a Tesla Model 3.', 'Tom')).toBe('car=tesla model 3')
    expect(fact('Tom adopted a kitten named Miso.', 'Tom')).toBe('pet=miso')
  })

  it("finds no fact of the speaker's in a visit, a plan, a negation or someone else's news", () => {
    expect(fact("Tom's sister moved to Leeds.", 'Tom')).toBeNull()
    expect(fact('Tom is visiting Paris for the weekend.', 'Tom')).toBeNull()
    expect(fact('Tom is thinking about moving to Berlin.', 'Tom')).toBeNull()
    expect(fact('Tom is not vegan, just trying less meat.', 'Tom')).toBeNull()
    expect(fact('A friend of Tom joined Google.', 'Tom')).toBeNull()
    expect(fact('Is Lisbon expensive?', 'Tom')).toBeNull()
  })

  it('keeps the phrase rules first', () => {
    expect(fact('Caroline moved to Porto.', 'Caroline')).toBe('residence=porto')
  })

  it('reads an older statement as a version of an attribute once that attribute is known', () => {
    expect(fact('Accra heat today is something else.', 'Kwame')).toBeNull()
    expect(fact('Accra heat today is something else.', 'Kwame', { asVersionOf: 'residence' })).toBe(
      'residence=accra',
    )
    expect(fact('Infosys bench period is so boring.', 'Arjun', { asVersionOf: 'employer' })).toBe(
      'employer=infosys',
    )
    expect(fact('Arjun went to Goa on holiday.', 'Arjun', { asVersionOf: 'residence' })).toBeNull()
  })

  it('lets the embedder name the attribute when the words do not', () => {
    const content = 'Tom is settling in at Monzo.'
    expect(recognizeFact(content, 'Tom', {})?.attribute).not.toBe('employer')
    expect(recognizeFact(content, 'Tom', { employer: 0.6, residence: 0.3, not: 0.2 })).toMatchObject({
      attribute: 'employer',
      value: 'monzo',
    })
    // Nearer to a trip or someone else's news than to any attribute: left alone.
    expect(recognizeFact(content, 'Tom', { employer: 0.6, not: 0.7 })?.attribute).not.toBe('employer')
  })
})

describe('attributeSimilarities', () => {
  it('is the mean of the two nearest examples of each attribute', () => {
    const similarities = attributeSimilarities(
      [1, 0],
      [
        { label: 'residence', vector: [1, 0] },
        { label: 'residence', vector: [0.5, 0.5] },
        { label: 'residence', vector: [0, 1] },
        { label: 'not', vector: [0, 1] },
      ],
    )
    expect(similarities.residence).toBeCloseTo(0.75)
    expect(similarities.not).toBeCloseTo(0)
  })
})
