import { describe, expect, it } from 'vitest'
import { createBulkBacklog } from './bulkBacklog.js'

describe('the bulk backlog the batch route reports', () => {
  it('is read once per period, whatever the number of batches meanwhile', async () => {
    let clock = 0
    let reads = 0
    const backlog = createBulkBacklog(async () => (reads += 1) * 100, { maxAgeMs: 2_000, now: () => clock })
    expect(await Promise.all([backlog(), backlog()])).toEqual([100, 100])
    clock = 2_000
    expect(await backlog()).toBe(100)
    clock = 2_001
    expect(await backlog()).toBe(200)
    expect(reads).toBe(2)
  })

  it('is unknown (null) when the lag cannot be read, and read again next period', async () => {
    let clock = 0
    let failing = true
    const backlog = createBulkBacklog(
      async () => {
        if (failing) throw new Error('kafka unreachable')
        return 7
      },
      { now: () => clock },
    )
    expect(await backlog()).toBeNull()
    failing = false
    clock = 5_000
    expect(await backlog()).toBe(7)
  })
})
