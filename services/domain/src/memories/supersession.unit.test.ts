import { describe, expect, it } from 'vitest'
import {
  isValidAt,
  validFromOf,
  validityChanges,
  validityOfVersions,
  type FactVersion,
} from './supersession.js'

const version = (id: string, value: string, validFrom: string): FactVersion => ({
  id,
  value,
  valid_from: validFrom,
  valid_to: null,
  superseded_by: null,
})

const lisbon = version('mem_a', 'lisbon', '2023-01-10T00:00:00.000Z')
const porto = version('mem_b', 'porto', '2024-02-01T00:00:00.000Z')
const portoAgain = version('mem_c', 'porto', '2024-06-01T00:00:00.000Z')
const berlin = version('mem_d', 'berlin', '2025-03-15T00:00:00.000Z')

describe('validityOfVersions', () => {
  it('ends each version when a later one states another value', () => {
    const validity = validityOfVersions([lisbon, porto, berlin])
    expect(validity.get('mem_a')).toEqual({ valid_to: porto.valid_from, superseded_by: 'mem_b' })
    expect(validity.get('mem_b')).toEqual({ valid_to: berlin.valid_from, superseded_by: 'mem_d' })
    expect(validity.get('mem_d')).toEqual({ valid_to: null, superseded_by: null })
  })

  it('lets a restatement of the same value supersede nothing', () => {
    const validity = validityOfVersions([lisbon, porto, portoAgain, berlin])
    expect(validity.get('mem_b')).toEqual({ valid_to: berlin.valid_from, superseded_by: 'mem_d' })
    expect(validity.get('mem_c')).toEqual({ valid_to: berlin.valid_from, superseded_by: 'mem_d' })
    expect(validityOfVersions([lisbon, porto, portoAgain]).get('mem_b')).toEqual({
      valid_to: null,
      superseded_by: null,
    })
  })

  it('gives every order of arrival the same intervals', () => {
    const expected = validityOfVersions([lisbon, porto, portoAgain, berlin])
    for (const order of [
      [berlin, portoAgain, porto, lisbon],
      [porto, berlin, lisbon, portoAgain],
      [portoAgain, lisbon, berlin, porto],
    ]) {
      expect(validityOfVersions(order)).toEqual(expected)
    }
  })

  it('lets versions of the same moment hold together, and a later one end both, whichever came first', () => {
    // One message's statements of one fact: "we got a puppy!!", "a corgi named Taro".
    const a = version('mem_1', 'x', '2024-01-01T00:00:00.000Z')
    const b = version('mem_2', 'y', '2024-01-01T00:00:00.000Z')
    const c = version('mem_3', 'z', '2025-01-01T00:00:00.000Z')
    for (const order of [
      [a, b],
      [b, a],
    ]) {
      expect(validityOfVersions(order).get('mem_1')).toEqual({ valid_to: null, superseded_by: null })
      expect(validityOfVersions(order).get('mem_2')).toEqual({ valid_to: null, superseded_by: null })
    }
    expect(validityOfVersions([c, b, a]).get('mem_1')).toEqual({
      valid_to: c.valid_from,
      superseded_by: 'mem_3',
    })
    expect(validityOfVersions([a, c, b]).get('mem_2')).toEqual({
      valid_to: c.valid_from,
      superseded_by: 'mem_3',
    })
  })
})

describe('validityChanges', () => {
  it('names only the versions whose stored validity is not what the set says', () => {
    const stored = [{ ...lisbon, valid_to: '2024-02-01T00:00:00Z', superseded_by: 'mem_b' }, porto]
    expect(validityChanges(stored)).toEqual([])
    // Berlin backfilled between them closes Porto; Lisbon is untouched.
    expect(validityChanges([...stored, version('mem_x', 'berlin', '2023-06-01T00:00:00.000Z')])).toEqual([
      { id: 'mem_a', validity: { valid_to: '2023-06-01T00:00:00.000Z', superseded_by: 'mem_x' } },
      { id: 'mem_x', validity: { valid_to: porto.valid_from, superseded_by: 'mem_b' } },
    ])
  })
})

describe('validFromOf and isValidAt', () => {
  it('takes the stated date, else the document time', () => {
    expect(validFromOf('2024-02-01', '2024-03-10T10:00:00Z')).toBe('2024-02-01T00:00:00.000Z')
    expect(validFromOf(null, '2024-03-10T10:00:00+01:00')).toBe('2024-03-10T09:00:00.000Z')
  })

  it('holds from valid_from up to, not including, valid_to', () => {
    const interval = { valid_from: '2024-01-01T00:00:00Z', valid_to: '2024-02-01T00:00:00Z' }
    expect(isValidAt(interval, '2023-12-31T23:59:59Z')).toBe(false)
    expect(isValidAt(interval, '2024-01-01T00:00:00Z')).toBe(true)
    expect(isValidAt(interval, '2024-02-01T00:00:00Z')).toBe(false)
    expect(isValidAt({ ...interval, valid_to: null }, '2030-01-01T00:00:00Z')).toBe(true)
  })
})
