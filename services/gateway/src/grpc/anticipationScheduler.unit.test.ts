import { describe, expect, it } from 'vitest'
import { createAnticipationScheduler, type AnticipationJob } from './anticipationScheduler.js'

/** A run per job that the test finishes by hand, so what runs at once is visible. */
function harness(options: { maxConcurrent?: number; maxWaiting?: number; maxAgeMs?: number } = {}) {
  let clock = 0
  const running: { job: AnticipationJob<string>; finish(): void; fail(): void }[] = []
  const dropped: [string, string][] = []
  const failed: string[] = []
  const scheduler = createAnticipationScheduler<string>({
    ...options,
    now: () => clock,
    run: (job) =>
      new Promise<void>((resolve, reject) => {
        running.push({ job, finish: resolve, fail: () => reject(new Error('search failed')) })
      }),
    onDropped: (job, reason) => dropped.push([job.turn, reason]),
    onError: (_error, job) => failed.push(job.turn),
  })
  const offer = (conversation: string, turn: string) =>
    scheduler.offer({ conversationKey: conversation, turn, acceptedAt: clock })
  const finishAll = async () => {
    for (const entry of running.splice(0)) entry.finish()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return {
    scheduler,
    offer,
    running,
    dropped,
    failed,
    finishAll,
    advance: (ms: number) => (clock += ms),
  }
}

describe('anticipation scheduler', () => {
  it('runs at most one anticipation per conversation and keeps only the newest waiting turn', async () => {
    const { offer, running, dropped, finishAll, scheduler } = harness({ maxConcurrent: 4 })
    offer('c1', 't1')
    offer('c1', 't2')
    offer('c1', 't3')
    expect(running.map((entry) => entry.job.turn)).toEqual(['t1'])
    expect(dropped).toEqual([['t2', 'coalesced']])
    await finishAll()
    expect(running.map((entry) => entry.job.turn)).toEqual(['t3'])
    await finishAll()
    expect(scheduler.stats()).toMatchObject({ offered: 3, started: 2, completed: 2, coalesced: 1 })
  })

  it('never runs more than maxConcurrent at once across conversations', async () => {
    const { offer, running, finishAll, scheduler } = harness({ maxConcurrent: 2 })
    for (let index = 0; index < 5; index += 1) offer(`c${index}`, `t${index}`)
    expect(running).toHaveLength(2)
    await finishAll()
    expect(running).toHaveLength(2)
    await finishAll()
    await finishAll()
    expect(scheduler.stats()).toMatchObject({ started: 5, completed: 5, peakRunning: 2 })
  })

  it('drops a turn that waited longer than maxAgeMs instead of running it late', async () => {
    const { offer, running, dropped, finishAll, advance, scheduler } = harness({
      maxConcurrent: 1,
      maxAgeMs: 1000,
    })
    offer('c1', 'busy')
    offer('c2', 'stale')
    advance(1001)
    await finishAll()
    expect(running).toHaveLength(0)
    expect(dropped).toEqual([['stale', 'expired']])
    expect(scheduler.stats().expired).toBe(1)
  })

  it('drops the oldest waiting conversation when more than maxWaiting wait', () => {
    const { offer, dropped, scheduler } = harness({ maxConcurrent: 1, maxWaiting: 2 })
    offer('c0', 'running')
    offer('c1', 't1')
    offer('c2', 't2')
    offer('c3', 't3')
    expect(dropped).toEqual([['t1', 'overflowed']])
    expect(scheduler.stats().overflowed).toBe(1)
  })

  it('counts a failed run and goes on with the next turn', async () => {
    const { offer, running, failed, scheduler } = harness({ maxConcurrent: 1 })
    offer('c1', 't1')
    offer('c2', 't2')
    running.shift()?.fail()
    await new Promise((resolve) => setImmediate(resolve))
    expect(failed).toEqual(['t1'])
    expect(running.map((entry) => entry.job.turn)).toEqual(['t2'])
    expect(scheduler.stats()).toMatchObject({ failed: 1, started: 2 })
  })

  it('resolves idle once nothing runs or waits', async () => {
    const { offer, finishAll, scheduler } = harness()
    offer('c1', 't1')
    let idle = false
    const waiting = scheduler.idle().then(() => (idle = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(idle).toBe(false)
    await finishAll()
    await waiting
    expect(idle).toBe(true)
  })
})
