import { describe, expect, it } from 'vitest'
import { digestsOf, driftBetween, expectedMemories, expectedTurns, memoryKey } from './projectionDigests.js'

const change = (
  memory_id: string,
  version: number,
  change: 'created' | 'updated' | 'deleted',
  instance_id = 'inst_a',
) => ({
  memory_id,
  instance_id,
  version,
  change,
})

const turn = (event_id: string, user_id: string, received_at: string, instance_id = 'inst_a') =>
  ({
    type: 'conversation_event_recorded',
    event_id,
    instance_id,
    user_id,
    conversation_id: 'conv-1',
    received_at,
  }) as never

describe('what a fresh rebuild leaves', () => {
  it('keeps each memory at its highest version, whatever order and however often the log holds its changes', () => {
    const events = [
      change('m1', 2, 'updated'),
      change('m1', 1, 'created'),
      change('m1', 2, 'updated'),
      change('m2', 1, 'created'),
    ]
    expect(
      expectedMemories(events)
        .map((entry) => entry.key)
        .sort(),
    ).toEqual([memoryKey('m1', 2), memoryKey('m2', 1)])
  })

  it('drops a memory whose last change deleted it, even when an older change arrives after the deletion', () => {
    const events = [change('m1', 1, 'created'), change('m1', 3, 'deleted'), change('m1', 2, 'updated')]
    expect(expectedMemories(events)).toEqual([])
  })

  it('counts a turn once however often it was recorded, and not an erased user’s turns from before the erasure', () => {
    const events = [
      turn('e1', 'u1', '2026-11-23T10:00:00Z'),
      turn('e1', 'u1', '2026-11-23T10:00:00Z'),
      turn('e2', 'u2', '2026-11-23T10:00:00Z'),
      {
        type: 'user_data_erased',
        instance_id: 'inst_a',
        user_id: 'u2',
        erased_at: '2026-11-23T11:00:00Z',
      } as never,
      turn('e3', 'u2', '2026-11-23T12:00:00Z'),
    ]
    const keys = expectedTurns(events, (_instance, _conversation, eventId) => eventId).map(
      (entry) => entry.key,
    )
    expect(keys).toEqual(['e1', 'e1', 'e3'])
    expect(digestsOf(expectedTurns(events, (_i, _c, eventId) => eventId)).get('inst_a')?.count).toBe(2)
  })
})

describe('drift', () => {
  it('is none when the projection holds exactly what the log says, per instance', () => {
    const entries = [
      { instanceId: 'inst_a', key: 'm1@1' },
      { instanceId: 'inst_b', key: 'm2@1' },
    ]
    expect(driftBetween(digestsOf(entries), digestsOf([...entries].reverse()))).toEqual([])
  })

  it('names the instance and samples what is missing, at another version, or unexplained', () => {
    const expected = digestsOf([
      { instanceId: 'inst_a', key: 'm1@2' },
      { instanceId: 'inst_a', key: 'm2@1' },
      { instanceId: 'inst_b', key: 'm3@1' },
    ])
    const actual = digestsOf([
      { instanceId: 'inst_a', key: 'm1@1' },
      { instanceId: 'inst_a', key: 'm2@1' },
      { instanceId: 'inst_b', key: 'm3@1' },
      { instanceId: 'inst_c', key: 'm9@1' },
    ])
    const drift = driftBetween(expected, actual)
    expect(drift.map((entry) => [entry.instance_id, entry.missing, entry.unexpected])).toEqual([
      ['inst_a', ['m1@2'], ['m1@1']],
      ['inst_c', [], ['m9@1']],
    ])
    expect(drift[1]?.expected).toEqual({ count: 0, hash: '' })
  })
})
