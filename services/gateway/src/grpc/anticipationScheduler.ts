/** One user turn to anticipate for: what the run needs, and when the turn was accepted. */
export interface AnticipationJob<Turn> {
  /** Instance and conversation: at most one anticipation runs for it at a time. */
  conversationKey: string
  turn: Turn
  acceptedAt: number
}

/** What the scheduler did with the turns it was offered (a running count, since the process started). */
export interface AnticipationStats {
  offered: number
  started: number
  completed: number
  failed: number
  /** Replaced by a newer turn of the same conversation before they started. */
  coalesced: number
  /** Waited longer than `maxAgeMs` for a free slot: the agent has moved on. */
  expired: number
  /** Pushed out of a full waiting list, oldest first. */
  overflowed: number
  /** Highest number run at once so far. */
  peakRunning: number
}

export interface AnticipationSchedulerOptions<Turn> {
  run(job: AnticipationJob<Turn>): Promise<void>
  /** Anticipations running at once in this process. @default 1 */
  maxConcurrent?: number
  /** Conversations waiting for a slot; beyond it the oldest waiting turn is dropped. @default 1000 */
  maxWaiting?: number
  /** A turn that waited longer than this is dropped when its slot comes. @default 5000 */
  maxAgeMs?: number
  now?: () => number
  onError?: (error: unknown, job: AnticipationJob<Turn>) => void
  /** A turn that will not run: replaced by a newer one, too old, or pushed out of a full list. */
  onDropped?: (job: AnticipationJob<Turn>, reason: 'coalesced' | 'expired' | 'overflowed') => void
}

export interface AnticipationScheduler<Turn> {
  /** Takes a turn; never waits and never throws: anticipation must not cost the caller anything. */
  offer(job: AnticipationJob<Turn>): void
  stats(): AnticipationStats
  /** Resolves once nothing runs or waits. */
  idle(): Promise<void>
}

interface Slot<Turn> {
  running: boolean
  waiting?: AnticipationJob<Turn>
}

/**
 * Keeps anticipation (a memory search per user turn) off the write path: at most one anticipation per conversation
 * runs at a time, a newer turn replaces the one still waiting (a stale answer is worth nothing once the user said
 * something else), at most `maxConcurrent` run in the process, and turns that waited too long are dropped instead
 * of queued behind a burst.
 */
export function createAnticipationScheduler<Turn>(
  options: AnticipationSchedulerOptions<Turn>,
): AnticipationScheduler<Turn> {
  const maxConcurrent = options.maxConcurrent ?? 1
  const maxWaiting = options.maxWaiting ?? 1000
  const maxAgeMs = options.maxAgeMs ?? 5000
  const now = options.now ?? Date.now
  const slots = new Map<string, Slot<Turn>>()
  /** Conversations with a waiting turn and nothing running, oldest first (a Set keeps insertion order). */
  const ready = new Set<string>()
  const idleWaiters: (() => void)[] = []
  let running = 0
  const stats: AnticipationStats = {
    offered: 0,
    started: 0,
    completed: 0,
    failed: 0,
    coalesced: 0,
    expired: 0,
    overflowed: 0,
    peakRunning: 0,
  }

  function settleIfIdle(): void {
    if (running === 0 && ready.size === 0) for (const resolve of idleWaiters.splice(0)) resolve()
  }

  function start(key: string, slot: Slot<Turn>, job: AnticipationJob<Turn>): void {
    slot.running = true
    running += 1
    stats.started += 1
    stats.peakRunning = Math.max(stats.peakRunning, running)
    let run: Promise<void>
    try {
      run = options.run(job)
    } catch (error) {
      run = Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
    run
      .then(
        () => {
          stats.completed += 1
        },
        (error: unknown) => {
          stats.failed += 1
          options.onError?.(error, job)
        },
      )
      .finally(() => {
        running -= 1
        slot.running = false
        if (slot.waiting) ready.add(key)
        else slots.delete(key)
        pump()
      })
  }

  function pump(): void {
    while (running < maxConcurrent && ready.size > 0) {
      const key = ready.values().next().value as string
      ready.delete(key)
      const slot = slots.get(key)
      const job = slot?.waiting
      if (!slot || !job) continue
      slot.waiting = undefined
      if (now() - job.acceptedAt > maxAgeMs) {
        stats.expired += 1
        options.onDropped?.(job, 'expired')
        if (!slot.running) slots.delete(key)
        continue
      }
      start(key, slot, job)
    }
    settleIfIdle()
  }

  return {
    offer(job) {
      stats.offered += 1
      const slot = slots.get(job.conversationKey) ?? { running: false }
      slots.set(job.conversationKey, slot)
      if (slot.waiting) {
        stats.coalesced += 1
        options.onDropped?.(slot.waiting, 'coalesced')
      }
      slot.waiting = job
      if (!slot.running) ready.add(job.conversationKey)
      while (ready.size > maxWaiting) {
        const oldest = ready.values().next().value as string
        ready.delete(oldest)
        const dropped = slots.get(oldest)
        if (dropped?.waiting) {
          options.onDropped?.(dropped.waiting, 'overflowed')
          dropped.waiting = undefined
          if (!dropped.running) slots.delete(oldest)
        }
        stats.overflowed += 1
      }
      pump()
    },
    stats: () => ({ ...stats }),
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        settleIfIdle()
      }),
  }
}
