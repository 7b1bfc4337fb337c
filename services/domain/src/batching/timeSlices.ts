/**
 * How long synchronous work may hold the thread before it lets the event loop run. The rule-based extractor reads a
 * long document (a compacted conversation, a book chapter) in one go; on the thread that also acknowledges writes
 * and projects turns, 0.4–0.9 s without a turn of the event loop showed up as the tail of every turn's lag.
 */
export interface TimeSlicing {
  /** Work done between two turns of the event loop, in ms. @default 10 */
  sliceMs?: number
  /** Milliseconds from any origin (injected by tests). @default performance.now */
  now?: () => number
  /** Lets the event loop run, resolving after the I/O that waits (injected by tests). @default setImmediate */
  pause?: () => Promise<void>
  /** Checked after every pause: work that is no longer wanted stops there. */
  signal?: AbortSignal
}

const nextTurnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/** The clock of an async loop whose items may all be ready at once (a fetched batch decoded record by record). */
export interface TimeSlices {
  /** Resolves at once while the current slice has time left; otherwise after a pause, starting the next slice. */
  pauseIfDue(): Promise<void>
}

export function createTimeSlices(slicing: TimeSlicing = {}): TimeSlices {
  const sliceMs = slicing.sliceMs ?? 10
  const now = slicing.now ?? (() => performance.now())
  const pause = slicing.pause ?? nextTurnOfTheLoop
  let sliceStartedAt = now()
  return {
    async pauseIfDue() {
      if (now() - sliceStartedAt < sliceMs) return
      await pause()
      slicing.signal?.throwIfAborted()
      sliceStartedAt = now()
    },
  }
}

/** Runs work written as steps (a generator that yields between them) in slices of `sliceMs`, pausing in between. */
export async function runInSlices<T>(steps: Generator<unknown, T>, slicing: TimeSlicing = {}): Promise<T> {
  const slices = createTimeSlices(slicing)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await slices.pauseIfDue()
  }
}

/** Runs the same steps at once, for callers that are synchronous themselves. */
export function runToEnd<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}
