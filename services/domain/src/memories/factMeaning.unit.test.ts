import { describe, expect, it } from 'vitest'
import {
  classifyAttribute,
  endedValuesOf,
  readsAsAbout,
  recognizeFact,
  trainAttributeClassifier,
} from './factMeaning.js'

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

describe('the attribute classifier', () => {
  it('learns which label a vector reads as, and gives probabilities that sum to one', () => {
    const examples = [
      { label: 'residence' as const, vector: [1, 0, 0] },
      { label: 'residence' as const, vector: [0.9, 0.1, 0] },
      { label: 'employer' as const, vector: [0, 1, 0] },
      { label: 'employer' as const, vector: [0.1, 0.9, 0] },
      { label: 'not' as const, vector: [0, 0, 1] },
    ]
    const classifier = trainAttributeClassifier(examples, { epochs: 300 })
    const read = classifyAttribute(classifier, [0.95, 0.05, 0])
    expect(Object.values(read).reduce((sum, value) => sum + value, 0)).toBeCloseTo(1)
    expect(readsAsAbout('residence', read)).toBe(true)
    expect(readsAsAbout('employer', classifyAttribute(classifier, [0, 1, 0]))).toBe(true)
    expect(readsAsAbout('employer', classifyAttribute(classifier, [0, 0, 1]))).toBe(false)
    // The same examples always give the same weights.
    expect(trainAttributeClassifier(examples, { epochs: 300 })).toEqual(classifier)
  })
})

describe('what a statement says its speaker ended', () => {
  it('names what was left, sold, split from or replaced, and whether it was written as a name', () => {
    expect(
      endedValuesOf("Mei left Shopee in june and they've been at Grab for two months now.", 'Mei'),
    ).toEqual([{ value: 'Shopee', named: true }])
    expect(endedValuesOf('Kemi and Emeka split back in december.', 'Emeka')).toEqual([
      { value: 'Kemi', named: false },
    ])
    expect(endedValuesOf('Sold the Gol last week, the new one is a Duster.', 'Mirela')).toEqual([
      { value: 'Gol', named: true },
    ])
    expect(
      endedValuesOf('Project Hail Mary has overtaken the hobbit as my all time favourite.', 'Finn'),
    ).toEqual([{ value: 'hobbit', named: false }])
    expect(endedValuesOf('RIP Bubbles 🐟 but we got a puppy!!', 'Leilani')).toEqual([
      { value: 'Bubbles', named: true },
    ])
  })

  it("finds nothing ended in a plan, a denial, a question, someone else's news, or words that name nothing", () => {
    expect(endedValuesOf('Seriously thinking about leaving Bogotá next year.', 'Camila')).toEqual([])
    expect(endedValuesOf("Ravi hasn't resigned from Zoho yet.", 'Ravi')).toEqual([])
    expect(endedValuesOf('Should I quit Deloitte?', 'Ravi')).toEqual([])
    expect(endedValuesOf('My sister left Infosys last month.', 'Ravi')).toEqual([])
    expect(endedValuesOf('I left work early and quit in june.', 'Ravi')).toEqual([])
  })
})
