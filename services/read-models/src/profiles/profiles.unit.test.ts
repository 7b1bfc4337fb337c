import { describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import { profileRowOf, type ProfileRow } from './profileProjection.js'
import { answering, attributesAt } from './profiles.js'

const row = (
  memory: string,
  value: string,
  from: string,
  to: string | null,
  key = 'amara|residence',
): ProfileRow => ({
  instance_id: 'inst_1',
  user_id: 'u1',
  customer_id: null,
  subject: key.split('|')[0] ?? '',
  attribute: key.split('|')[1] ?? '',
  value,
  key,
  memory_id: memory,
  content: `${value} memory`,
  speaker: 'Amara',
  valid_from: from,
  valid_to: to,
  superseded_by: to ? 'mem_next' : null,
  version: 1,
  changed_at: from,
})

describe('a profile at a moment', () => {
  const rows = [
    row('mem_1', 'manchester', '2025-01-10T00:00:00.000Z', '2025-03-01T00:00:00.000Z'),
    row('mem_2', 'leeds', '2025-03-01T00:00:00.000Z', '2025-06-15T00:00:00.000Z'),
    row('mem_3', 'glasgow', '2025-06-15T00:00:00.000Z', null),
    row('mem_4', 'glasgow', '2025-08-01T00:00:00.000Z', null),
    row('mem_5', 'pepper', '2025-02-01T00:00:00.000Z', null, 'amara|pet'),
  ]

  it('gives each attribute its value in force, since its first statement, and the values it replaced, newest first', () => {
    const now = attributesAt(rows, Date.parse('2025-09-01T00:00:00.000Z'))
    expect(now.get('amara|residence')).toMatchObject({
      value: 'glasgow',
      since: '2025-06-15T00:00:00.000Z',
      memory_id: 'mem_4',
      replaced: [
        { value: 'leeds', memory_id: 'mem_2' },
        { value: 'manchester', memory_id: 'mem_1' },
      ],
    })
    expect(now.get('amara|pet')?.value).toBe('pepper')
  })

  it('answers as_of a moment with the value then', () => {
    const then = attributesAt(rows, Date.parse('2025-04-01T00:00:00.000Z'))
    expect(then.get('amara|residence')).toMatchObject({ value: 'leeds', replaced: [{ value: 'manchester' }] })
    expect(attributesAt(rows, Date.parse('2025-01-01T00:00:00.000Z')).size).toBe(0)
  })
})

describe('the values that answer a question about what holds', () => {
  const held = (rows: ProfileRow[]) => attributesAt(rows, Date.parse('2025-09-01T00:00:00.000Z'))

  it('answers with the newest value, and a doubtful reading never before a value the person stated for sure', () => {
    const rows = [
      row('mem_1', 'manchester', '2025-01-10T00:00:00.000Z', null),
      // Read without the confidence to replace: its key names its value.
      row('mem_2', 'lisbon', '2025-06-15T00:00:00.000Z', null, 'amara|residence|lisbon'),
    ]
    expect(answering(held(rows), 'residence', ['amara']).map(({ value }) => value)).toEqual(['manchester'])
    // With nothing sure, the doubtful reading answers.
    expect(answering(held(rows.slice(1)), 'residence', ['amara']).map(({ value }) => value)).toEqual([
      'lisbon',
    ])
  })

  it('answers with every value of an attribute people hold several of, newest first, and of the person asked', () => {
    const rows = [
      row('mem_1', 'pepper', '2025-02-01T00:00:00.000Z', null, 'amara|pet'),
      row('mem_2', 'miso', '2025-05-01T00:00:00.000Z', null, 'amara|pet|miso'),
      row('mem_3', 'rex', '2025-07-01T00:00:00.000Z', null, 'kofi|pet'),
    ]
    expect(answering(held(rows), 'pet', ['amara']).map(({ value }) => value)).toEqual(['miso', 'pepper'])
    expect(answering(held(rows), 'pet', []).map(({ value }) => value)).toEqual(['rex', 'miso', 'pepper'])
  })
})

describe('the profile row of a memory event', () => {
  const event = (change: MemoryChanged['change'], fact?: MemoryChanged['memory']['fact']) =>
    ({
      type: 'memory_changed',
      change,
      event_id: 'e1',
      memory_id: 'mem_1',
      instance_id: 'inst_1',
      version: 2,
      changed_at: '2025-06-15T10:00:00.000Z',
      memory: {
        content: 'Amara lives in Glasgow.',
        scope: { user_id: 'u1', customer_id: null, client_id: 'cli_1' },
        created_at: '2025-06-15T10:00:00.000Z',
        valid_from: '2025-06-15T10:00:00.000Z',
        speaker: 'Amara',
        ...(fact ? { fact } : {}),
      },
    }) as unknown as MemoryChanged

  it('holds a memory that states a fact, and none for a deletion or a version that states none', () => {
    const fact = { subject: 'amara', attribute: 'residence', value: 'glasgow', key: 'amara|residence' }
    expect(profileRowOf(event('created', fact))).toMatchObject({
      key: 'amara|residence',
      version: 2,
      valid_to: null,
    })
    expect(profileRowOf(event('deleted', fact))).toBeNull()
    expect(profileRowOf(event('updated'))).toBeNull()
  })
})
