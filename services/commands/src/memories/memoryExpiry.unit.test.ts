import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppError } from '@memory-service/domain'
import type { HeldLease, LeaseStore, Logger } from '@memory-service/engines'
import { createMemoryExpiry, startMemoryExpiry, type MemoryExpiry } from './memoryExpiry.js'

type Due = { id: string; instance_id: string; expires_at: string }

/** Memories with their expiries, and the deletions the sweep asks the editor for. */
function stored(memories: Due[], fail: (id: string) => AppError | null = () => null) {
  const removed: { instanceId: string; memoryId: string; correlationId: string; cause: unknown }[] = []
  const held = new Map(memories.map((memory) => [memory.id, memory]))
  return {
    removed,
    store: {
      expiredBy: async (at: Date, limit: number) =>
        [...held.values()]
          .filter((memory) => Date.parse(memory.expires_at) <= at.getTime())
          .sort((a, b) => a.expires_at.localeCompare(b.expires_at))
          .slice(0, limit),
    },
    editor: {
      async remove(instanceId: string, memoryId: string, correlationId: string, cause?: unknown) {
        const failure = fail(memoryId)
        if (failure) throw failure
        held.delete(memoryId)
        removed.push({ instanceId, memoryId, correlationId, cause })
      },
    },
  }
}

const due = (id: string, expiresAt: string): Due => ({ id, instance_id: 'inst_a', expires_at: expiresAt })

describe('memory expiry sweep', () => {
  it('deletes what expired by now, the earliest first, as expiry, under one correlation id', async () => {
    const world = stored([
      due('mem_late', '2026-12-01T10:00:05.000Z'),
      due('mem_first', '2026-12-01T09:00:00.000Z'),
      due('mem_now', '2026-12-01T10:00:00.000Z'),
    ])
    let sweeps = 0
    const expiry = createMemoryExpiry({
      ...world,
      now: () => new Date('2026-12-01T10:00:00.000Z'),
      concurrency: 1,
      newCorrelationId: () => `sweep-${String((sweeps += 1))}`,
    })
    expect(await expiry.sweep()).toEqual({
      deleted: 2,
      gone: 0,
      failed: 0,
      full: false,
      correlationId: 'sweep-1',
    })
    expect(world.removed).toEqual([
      { instanceId: 'inst_a', memoryId: 'mem_first', correlationId: 'sweep-1', cause: { kind: 'expiry' } },
      { instanceId: 'inst_a', memoryId: 'mem_now', correlationId: 'sweep-1', cause: { kind: 'expiry' } },
    ])
    // Not due yet: nothing to do.
    expect((await expiry.sweep()).deleted).toBe(0)
  })

  it('takes a batch at a time and says when it was full', async () => {
    const world = stored(
      Array.from({ length: 5 }, (_, index) => due(`mem_${String(index)}`, '2026-12-01T09:00:00.000Z')),
    )
    const expiry = createMemoryExpiry({ ...world, now: () => new Date('2026-12-01T10:00:00Z'), batchSize: 3 })
    expect(await expiry.sweep()).toMatchObject({ deleted: 3, full: true })
    expect(await expiry.sweep()).toMatchObject({ deleted: 2, full: false })
  })

  it('counts a memory deleted meanwhile as gone and a failed deletion as failed, for the next sweep', async () => {
    const world = stored(
      [due('mem_gone', '2026-12-01T09:00:00Z'), due('mem_down', '2026-12-01T09:00:00Z')],
      (id) =>
        id === 'mem_gone'
          ? new AppError('NOT_FOUND', 'Memory not found', {})
          : id === 'mem_down'
            ? new AppError('SERVICE_UNAVAILABLE', 'log down', {})
            : null,
    )
    const expiry = createMemoryExpiry({ ...world, now: () => new Date('2026-12-01T10:00:00Z') })
    expect(await expiry.sweep()).toMatchObject({ deleted: 0, gone: 1, failed: 1 })
  })
})

describe('memory expiry in the background', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  const logger = { debug() {}, info() {}, warn() {} } as unknown as Logger

  it('sweeps while it holds the lease, again at once after a full sweep, and releases the lease on close', async () => {
    vi.useFakeTimers()
    const events: string[] = []
    const leases: LeaseStore = {
      acquire: async (name) => {
        events.push(`acquired ${name}`)
        return {
          name,
          holder: 'me',
          lost: () => false,
          release: async () => void events.push('released'),
        } satisfies HeldLease
      },
    }
    const outcomes = [true, false, false]
    const expiry: MemoryExpiry = {
      sweep: async () => {
        const full = outcomes.shift() ?? false
        events.push(full ? 'sweep full' : 'sweep')
        return { deleted: full ? 3 : 0, gone: 0, failed: 0, full, correlationId: 'c' }
      },
    }
    const running = startMemoryExpiry({ expiry, leases, logger, intervalMs: 10_000 })
    await vi.advanceTimersByTimeAsync(0)
    // The full sweep is followed at once by another; that one waits the interval before the next.
    expect(events).toEqual(['acquired memory-expiry', 'sweep full', 'sweep'])
    await vi.advanceTimersByTimeAsync(9_999)
    expect(events).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(1)
    expect(events.at(-1)).toBe('sweep')
    await running.close()
    expect(events.at(-1)).toBe('released')
  })

  it('stops waiting for a lease another process holds when closed', async () => {
    const leases: LeaseStore = {
      acquire: (_name, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted')))
        }),
    }
    const sweep = vi.fn()
    const running = startMemoryExpiry({ expiry: { sweep }, leases, logger, intervalMs: 10_000 })
    await running.close()
    expect(sweep).not.toHaveBeenCalled()
  })
})
