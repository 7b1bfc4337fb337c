import { describe, expect, it } from 'vitest'
import {
  recognizeEntities,
  recognizeMentions,
  recognizeRelations,
  relationLabel,
  type RecognitionContext,
} from './entityRecognition.js'
import { resolveDates } from './relativeDates.js'

const chat: RecognitionContext = { speaker: 'Caroline', knownPeople: ['Melanie'] }
const entitiesIn = (text: string, context: RecognitionContext = chat) =>
  recognizeMentions(text, context).map(({ name, type }) => ({ name, type }))

describe('recognizeMentions', () => {
  it('recognizes the speaker and the people the document knows, possessives stripped', () => {
    expect(entitiesIn("Caroline's painting reminded Melanie of the lake.")).toEqual([
      { name: 'Caroline', type: 'person' },
      { name: 'Melanie', type: 'person' },
    ])
  })

  it('ignores capitalized sentence openers, interjections, weekdays and months', () => {
    expect(entitiesIn('Thanks! Wow, The colors are great. Hey, I met them on Friday in May.')).toEqual([])
  })

  it('keeps a sentence adverb out of the name that follows it', () => {
    expect(entitiesIn('Honestly Caroline is tired. Apparently Melanie knew.')).toEqual([
      { name: 'Caroline', type: 'person' },
      { name: 'Melanie', type: 'person' },
    ])
  })

  it('takes an unknown capitalized word at a sentence start only from the gazetteer', () => {
    expect(entitiesIn('Sweden is lovely. Biscuit is my dog.')).toEqual([{ name: 'Sweden', type: 'location' }])
    expect(entitiesIn('My dog is called Biscuit.')).toEqual([{ name: 'Biscuit', type: 'person' }])
  })

  it("knows the world's larger cities, at a sentence start too, and keeps the document's people people", () => {
    expect(entitiesIn('Tbilisi has been home for 6 weeks. Kraków was colder.')).toEqual([
      { name: 'Tbilisi', type: 'location' },
      { name: 'Kraków', type: 'location' },
    ])
    expect(
      entitiesIn('Caroline told Melanie about Medellín.', { speaker: 'Caroline', knownPeople: ['Medellín'] }),
    ).toEqual([
      { name: 'Caroline', type: 'person' },
      { name: 'Medellín', type: 'person' },
    ])
    expect(entitiesIn('Nice weather today. Reading helps.')).toEqual([])
  })

  it("knows the world's employers, at a sentence start too, and no English word among them", () => {
    expect(
      entitiesIn('Novo Nordisk has the best canteen. Mercado Libre and Booking.com are hiring.'),
    ).toEqual([
      { name: 'Novo Nordisk', type: 'organization' },
      { name: 'Mercado Libre', type: 'organization' },
      { name: 'Booking.com', type: 'organization' },
    ])
    expect(entitiesIn('Grab a coffee. Shell out for it. Ford the river.')).toEqual([])
  })

  it('types spans by suffix, honorific, gazetteer and the words before them', () => {
    expect(
      entitiesIn(
        'Caroline met Dr. Alvarez at Stanford University, then flew to Tokyo for the Tribeca Film Festival and visited Lake Tahoe.',
      ),
    ).toEqual([
      { name: 'Caroline', type: 'person' },
      { name: 'Dr. Alvarez', type: 'person' },
      { name: 'Stanford University', type: 'organization' },
      { name: 'Tokyo', type: 'location' },
      { name: 'Tribeca Film Festival', type: 'event' },
      { name: 'Lake Tahoe', type: 'location' },
    ])
    expect(entitiesIn('John signed with the Minnesota Wolves and works at Brightline.')).toEqual([
      { name: 'Minnesota Wolves', type: 'organization' },
      { name: 'Brightline', type: 'organization' },
    ])
    expect(entitiesIn('We spent Christmas in Porto and then went to Valdoria.')).toEqual([
      { name: 'Christmas', type: 'event' },
      { name: 'Porto', type: 'location' },
      { name: 'Valdoria', type: 'location' },
    ])
  })

  it('does not take acronyms for people', () => {
    expect(
      entitiesIn('She went to a LGBTQ support group, later worked for ACME and met people from UNICEF.'),
    ).toEqual([
      { name: 'LGBTQ', type: 'other' },
      { name: 'ACME', type: 'organization' },
      { name: 'UNICEF', type: 'organization' },
    ])
    expect(entitiesIn('OMG that is so cool, lol. TBH I loved it.')).toEqual([])
  })

  it('takes a quoted title as one entity', () => {
    expect(entitiesIn('We love "Home Alone" and "The Santa Clause" at Christmas.')).toEqual([
      { name: 'Home Alone', type: 'other' },
      { name: 'The Santa Clause', type: 'other' },
      { name: 'Christmas', type: 'event' },
    ])
  })

  it('reads nothing into Title Case text except known names', () => {
    expect(entitiesIn('Please Review The Attached Quarterly Report Before Monday, Melanie')).toEqual([
      { name: 'Melanie', type: 'person' },
    ])
  })
})

describe('recognizeEntities', () => {
  it('adds one date entity per resolved date and lists each entity once', () => {
    const resolution = resolveDates(
      'Caroline went to the group yesterday and Caroline loved it.',
      '2023-05-08T13:56:00Z',
    )
    expect(recognizeEntities(resolution.text, { speaker: 'Caroline', dates: resolution.dates })).toEqual([
      { name: 'Caroline', type: 'person' },
      { name: '7 May 2023', type: 'date' },
    ])
  })

  it('finds the dates of a standalone statement in its text', () => {
    expect(
      recognizeEntities('Melanie painted a sunrise last year (2022) in Lisbon.', { speaker: 'Melanie' }),
    ).toEqual([
      { name: 'Melanie', type: 'person' },
      { name: 'Lisbon', type: 'location' },
      { name: '2022', type: 'date' },
    ])
  })
})

describe('relationLabel', () => {
  it.each([
    [' moved to ', 'moved_to'],
    [' is from ', 'is_from'],
    [' has been working at ', 'working_at'],
    [' signed with the ', 'signed_with'],
    [' went to a ', 'went_to'],
    [' loves ', 'loves'],
    [' will visit ', 'visit'],
    [' joined a mentorship program for ', 'joined'],
  ])('%j → %s', (between, label) => {
    expect(relationLabel(between)).toBe(label)
  })

  it.each([
    ' and ',
    ', ',
    ' is ',
    "'s friend ",
    ' support group ',
    '. Then ',
    ' went to the big old red barn near ',
  ])('finds no verb phrase in %j', (between) => {
    expect(relationLabel(between)).toBeNull()
  })
})

describe('recognizeRelations', () => {
  const relationsOf = (text: string, speaker: string | null, context: RecognitionContext = { speaker }) => {
    const mentions = recognizeMentions(text, context)
    return recognizeRelations(text, mentions, recognizeEntities(text, context), speaker)
  }

  it('links a subject to what its verb reaches', () => {
    expect(relationsOf('Caroline moved to Sweden.', 'Caroline')).toEqual([
      { from: 'Caroline', to: 'Sweden', type: 'moved_to' },
    ])
  })

  it('links the speaker as subject to every entity of the sentence, related_to when no verb phrase is near', () => {
    expect(relationsOf('Caroline met Anna and Tom at the Pride Parade in Berlin.', 'Caroline')).toEqual([
      { from: 'Caroline', to: 'Anna', type: 'met' },
      { from: 'Anna', to: 'Tom', type: 'related_to' },
      { from: 'Tom', to: 'Pride Parade', type: 'related_to' },
      { from: 'Pride Parade', to: 'Berlin', type: 'related_to' },
      { from: 'Caroline', to: 'Tom', type: 'met' },
      { from: 'Caroline', to: 'Pride Parade', type: 'related_to' },
      { from: 'Caroline', to: 'Berlin', type: 'related_to' },
    ])
  })

  it('names only entities of the statement and never a date', () => {
    const text = 'Melanie ran a race in Boston yesterday (7 May 2023).'
    const mentions = recognizeMentions(text, { speaker: 'Melanie' })
    const entities = recognizeEntities(text, { speaker: 'Melanie' })
    const relations = recognizeRelations(text, mentions, entities, 'Melanie')
    const names = new Set(entities.map((entity) => entity.name))
    expect(relations).toEqual([{ from: 'Melanie', to: 'Boston', type: 'ran' }])
    for (const relation of relations) expect(names.has(relation.from) && names.has(relation.to)).toBe(true)
  })
})
