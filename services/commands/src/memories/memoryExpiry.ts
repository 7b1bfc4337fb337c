import { randomUUID } from 'node:crypto'
import pLimit from 'p-limit'
import { AppError } from '@memory-service/domain'
import type { LeaseStore, Logger } from '@memory-service/engines'
import type { MemoryStore } from '@memory-service/read-models'
import type { MemoryEditor } from './memoryEditor.js'

/** What one sweep did. */
export interface ExpirySweepOutcome {
  /** Deletions appended now. */
  deleted: number
  /** Memories that were gone already (deleted or erased since the search saw them). */
  gone: number
  /** Deletions that failed (the log or the store unavailable): the next sweep tries them again. */
  failed: number
  /** Whether the sweep took as many as it may: more may be due at once. */
  full: boolean
  correlationId: string
}

export interface MemoryExpiry {
  /** Deletes the memories whose expiry has come, the earliest first, at most one batch. */
  sweep(): Promise<ExpirySweepOutcome>
}

/**
 * Expired memories deleted through the log: each gets a `deleted` event caused by `expiry`, through the same editor
 * as a DELETE (its history entry, the fact versions it ended reinstated), so a replay keeps it deleted. Readers
 * leave an expired memory out from its expiry instant on (memoryValidity.ts); the sweep makes it so in the log
 * too. One correlation id per sweep names its deletions in the history and the logs.
 */
export function createMemoryExpiry(options: {
  store: Pick<MemoryStore, 'expiredBy'>
  editor: Pick<MemoryEditor, 'remove'>
  now?: () => Date
  /** Memories taken per sweep. */
  batchSize?: number
  /** Deletions in flight at once; each waits for its own projection. */
  concurrency?: number
  newCorrelationId?: () => string
}): MemoryExpiry {
  const now = options.now ?? (() => new Date())
  const batchSize = options.batchSize ?? 500
  const concurrency = options.concurrency ?? 16
  const newCorrelationId = options.newCorrelationId ?? (() => `expiry-${randomUUID()}`)

  return {
    async sweep() {
      const correlationId = newCorrelationId()
      const due = await options.store.expiredBy(now(), batchSize)
      const limit = pLimit(concurrency)
      const outcomes = await Promise.all(
        due.map((memory) =>
          limit(async (): Promise<keyof Omit<ExpirySweepOutcome, 'full' | 'correlationId'>> => {
            try {
              await options.editor.remove(memory.instance_id, memory.id, correlationId, { kind: 'expiry' })
              return 'deleted'
            } catch (error) {
              if (error instanceof AppError && error.code === 'NOT_FOUND') return 'gone'
              return 'failed'
            }
          }),
        ),
      )
      const count = (outcome: string) => outcomes.filter((each) => each === outcome).length
      return {
        deleted: count('deleted'),
        gone: count('gone'),
        failed: count('failed'),
        full: due.length === batchSize,
        correlationId,
      }
    },
  }
}

/** The lease one process of a deployment holds while it sweeps, so that two gateways never delete one memory twice. */
export const EXPIRY_LEASE = 'memory-expiry'

export interface RunningMemoryExpiry {
  close(): Promise<void>
}

/**
 * Sweeps every `intervalMs` while this process holds the expiry lease (at once again after a full sweep); the other
 * processes wait for the lease, and take it over when its holder stops renewing it (a crash: within the lease's
 * time to live).
 */
export function startMemoryExpiry(options: {
  expiry: MemoryExpiry
  leases: LeaseStore
  logger: Logger
  intervalMs: number
}): RunningMemoryExpiry {
  const stopping = new AbortController()
  const { signal } = stopping
  const { logger } = options
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        resolve()
      }
      signal.addEventListener('abort', done, { once: true })
    })

  async function holdAndSweep(): Promise<void> {
    const lease = await options.leases.acquire(EXPIRY_LEASE, {
      signal,
      pollMs: Math.max(options.intervalMs, 1_000),
      onWait: (holder) => logger.debug({ holder: holder.holder }, 'memory expiry swept by another process'),
    })
    try {
      while (!signal.aborted && !lease.lost()) {
        const outcome = await options.expiry.sweep().catch((error: unknown) => {
          logger.warn({ err: error }, 'memory expiry sweep failed; trying again')
          return null
        })
        if (outcome && outcome.deleted + outcome.failed > 0)
          logger.info(
            {
              correlationId: outcome.correlationId,
              deleted: outcome.deleted,
              gone: outcome.gone,
              failed: outcome.failed,
            },
            'expired memories deleted',
          )
        if (!outcome?.full || outcome.failed > 0) await pause(options.intervalMs)
      }
    } finally {
      await lease
        .release()
        .catch((error: unknown) => logger.warn({ err: error }, 'expiry lease not released'))
    }
  }

  // A function, not the property: the compiler would take the loop's test as holding inside it.
  const stopped = () => signal.aborted
  const running = (async () => {
    while (!stopped()) {
      try {
        await holdAndSweep()
      } catch (error) {
        if (stopped()) return
        logger.warn({ err: error }, 'memory expiry lease unavailable; trying again')
        await pause(options.intervalMs)
      }
    }
  })()

  return {
    async close() {
      stopping.abort()
      await running
    },
  }
}
