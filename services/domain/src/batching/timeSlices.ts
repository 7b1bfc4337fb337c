/**
 * How long synchronous work may hold the thread before it lets the event loop run. The rule-based extractor reads a
 * long document (a compacted conversation, a book chapter) in one go: beside bench:lag it held the thread that also
 * acknowledges writes and projects turns for 0.4–0.85 s without a turn of the event loop.
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

/** Runs work written as steps (a generator that yields between them) in slices of `sliceMs`, pausing in between. */
export async function runInSlices<T>(steps: Generator<unknown, T>, slicing: TimeSlicing = {}): Promise<T> {
  const sliceMs = slicing.sliceMs ?? 10
  const now = slicing.now ?? (() => performance.now())
  const pause = slicing.pause ?? nextTurnOfTheLoop
  let sliceStartedAt = now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (now() - sliceStartedAt < sliceMs) continue
    await pause()
    slicing.signal?.throwIfAborted()
    sliceStartedAt = now()
  }
}

/** Runs the same steps at once, for callers that are synchronous themselves. */
export function runToEnd<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}
