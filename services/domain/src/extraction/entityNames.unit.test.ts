import { describe, expect, it } from 'vitest'
import { aliasMatch, entityIdFor, entityKey, type KnownEntity } from './entityNames.js'

describe('entityKey', () => {
  it('gives case, space, possessive and honorific variants one key', () => {
    const keys = ['caroline', "Caroline's", ' CAROLINE ', 'Caroline’s', 'Dr. Caroline', 'Ms Caroline'].map(
      entityKey,
    )
    expect(new Set(keys)).toEqual(new Set(['caroline']))
  })

  it('folds diacritics, punctuation, a leading "the" and plural possessives', () => {
    expect(entityKey('Zoë')).toBe(entityKey('Zoe'))
    expect(entityKey('The Beatles')).toBe('beatles')
    expect(entityKey("James' ")).toBe('james')
    expect(entityKey('U.S.')).toBe('u s')
    expect(entityKey('New   York')).toBe('new york')
    expect(entityKey('AT&T')).toBe('at&t')
  })

  it('keeps a name that is nothing but a stripped word', () => {
    expect(entityKey('The')).toBe('the')
  })
})

describe('entityIdFor', () => {
  it('derives a stable ent_ id per instance and key', () => {
    const id = entityIdFor('ins_1', 'caroline')
    expect(id).toMatch(/^ent_[0-9a-f]{16}$/)
    expect(entityIdFor('ins_1', 'caroline')).toBe(id)
    expect(entityIdFor('ins_2', 'caroline')).not.toBe(id)
    expect(entityIdFor('ins_1', entityKey("Caroline's"))).toBe(id)
  })

  it('separates instance and key, so their concatenation cannot collide', () => {
    expect(entityIdFor('ins_1a', 'b')).not.toBe(entityIdFor('ins_1', 'ab'))
  })
})

describe('aliasMatch', () => {
  const person = (canonical_name: string, aliases: string[] = []): KnownEntity => ({
    canonical_name,
    type: 'person',
    aliases,
  })
  const carolineSmith = person('Caroline Smith')
  const melanie = person('Melanie', ['Mel'])
  const ibm: KnownEntity = {
    canonical_name: 'International Business Machines',
    type: 'organization',
    aliases: [],
  }
  const who: KnownEntity = { canonical_name: 'WHO', type: 'organization', aliases: [] }
  const sweden: KnownEntity = { canonical_name: 'Sweden', type: 'location', aliases: [] }
  const known = [carolineSmith, melanie, ibm, who, sweden]

  it('matches a name or an alias by key', () => {
    expect(aliasMatch("sweden's", known)).toBe(sweden)
    expect(aliasMatch('MEL', known)).toBe(melanie)
  })

  it('matches a first name to the one person who has it', () => {
    expect(aliasMatch('Caroline', known)).toBe(carolineSmith)
  })

  it('matches a nickname to the one person whose first name starts with it', () => {
    expect(aliasMatch('Melan', [carolineSmith, person('Melanie Jones')])).toEqual(person('Melanie Jones'))
    expect(aliasMatch('Caro', known)).toBe(carolineSmith)
  })

  it('matches an acronym to an organization and back', () => {
    expect(aliasMatch('IBM', known)).toBe(ibm)
    expect(aliasMatch('World Health Organization', known)).toBe(who)
  })

  it('refuses to choose between two candidates', () => {
    const twoCarolines = [carolineSmith, person('Caroline Jones')]
    expect(aliasMatch('Caroline', twoCarolines)).toBeNull()
    expect(aliasMatch('Mel', [person('Melanie'), person('Melvin')])).toBeNull()
    expect(
      aliasMatch('Jordan', [person('Jordan'), { canonical_name: 'Jordan', type: 'location', aliases: [] }]),
    ).toBeNull()
  })

  it('does not match too short a prefix, another type, or nothing at all', () => {
    expect(aliasMatch('Ca', known)).toBeNull()
    expect(aliasMatch('Swe', known)).toBeNull()
    expect(aliasMatch('Gina', known)).toBeNull()
    expect(aliasMatch('  ', known)).toBeNull()
  })
})
