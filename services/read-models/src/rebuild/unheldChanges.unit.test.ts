import { describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import { unheldChanges } from './unheldChanges.js'

const event = (memory_id: string, version: number, change: MemoryChanged['change']) => ({
  payload: { memory_id, version, change } as MemoryChanged,
})
const kept = (events: ReturnType<typeof event>[], held: [string, number][]) =>
  unheldChanges(events, new Map(held)).map(({ payload }) => `${payload.memory_id}@${String(payload.version)}`)

describe('what a re-projection writes', () => {
  it('leaves a memory the store holds at its version alone', () => {
    expect(kept([event('m1', 2, 'updated')], [['m1', 2]])).toEqual([])
  })

  it('writes a memory the store lacks (withheld before) or holds at an older version', () => {
    expect(kept([event('m1', 1, 'created'), event('m2', 3, 'updated')], [['m2', 2]])).toEqual([
      'm1@1',
      'm2@3',
    ])
  })

  it('deletes a withheld memory the store holds at its version or an older one, and nothing it does not hold', () => {
    expect(
      kept(
        [event('m1', 2, 'deleted'), event('m2', 2, 'deleted'), event('m3', 1, 'deleted')],
        [
          ['m1', 2],
          ['m2', 1],
        ],
      ),
    ).toEqual(['m1@2', 'm2@2'])
  })

  it('takes only the latest event of a memory in the batch, whatever their order', () => {
    expect(
      kept([event('m1', 3, 'deleted'), event('m1', 1, 'created'), event('m1', 2, 'updated')], [['m1', 2]]),
    ).toEqual(['m1@3'])
  })

  it('never writes over a newer version the live projector wrote meanwhile', () => {
    expect(
      kept(
        [event('m1', 2, 'updated'), event('m2', 2, 'deleted')],
        [
          ['m1', 3],
          ['m2', 3],
        ],
      ),
    ).toEqual([])
  })
})
