import { describe, expect, it } from 'vitest'
import { runInSlices, runToEnd } from './timeSlices.js'

/** Ten steps of work; each read of the clock is 1 ms later (the clock is read once per step, plus once per slice). */
function* tenSteps(done: number[]): Generator<void, string> {
  for (let step = 1; step <= 10; step += 1) {
    done.push(step)
    yield
  }
  return 'read'
}

const tickingClock = () => {
  let at = 0
  return () => (at += 1)
}

describe('runInSlices', () => {
  it('pauses once a slice has taken its time, and runs every step in order', async () => {
    const done: number[] = []
    const pausedAfter: number[] = []
    const result = await runInSlices(tenSteps(done), {
      sliceMs: 3,
      now: tickingClock(),
      pause: () => Promise.resolve(void pausedAfter.push(done.length)),
    })
    expect(result).toBe('read')
    expect(done).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(pausedAfter).toEqual([3, 6, 9])
  })

  it('never pauses work that fits in one slice', async () => {
    let paused = 0
    await runInSlices(tenSteps([]), {
      sliceMs: 100,
      now: tickingClock(),
      pause: async () => void (paused += 1),
    })
    expect(paused).toBe(0)
  })

  it('stops at the pause after its signal was aborted', async () => {
    const done: number[] = []
    const abort = new AbortController()
    const reading = runInSlices(tenSteps(done), {
      sliceMs: 3,
      now: tickingClock(),
      pause: () => Promise.resolve(abort.abort(new Error('the document was withdrawn'))),
      signal: abort.signal,
    })
    await expect(reading).rejects.toThrow('the document was withdrawn')
    expect(done).toEqual([1, 2, 3])
  })

  it('lets the event loop run between slices (the default pause)', async () => {
    let callbackRan = false
    setImmediate(() => (callbackRan = true))
    const seenByStep: boolean[] = []
    function* watching(): Generator<void, void> {
      for (let step = 0; step < 6; step += 1) {
        seenByStep.push(callbackRan)
        yield
      }
    }
    await runInSlices(watching(), { sliceMs: 3, now: tickingClock() })
    expect(seenByStep).toEqual([false, false, false, true, true, true])
  })
})

describe('runToEnd', () => {
  it('runs the steps at once', () => {
    const done: number[] = []
    expect(runToEnd(tenSteps(done))).toBe('read')
    expect(done).toHaveLength(10)
  })
})
