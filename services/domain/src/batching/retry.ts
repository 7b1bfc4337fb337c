export interface RetryPolicy {
  maxAttempts: number
  baseDelayMs: number
  /** Injected so tests and benchmarks do not sleep. */
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

export class RetriesExhausted extends Error {
  constructor(
    readonly lastError: unknown,
    readonly attempts: number,
  ) {
    super(
      `gave up after ${String(attempts)} attempt(s): ${lastError instanceof Error ? lastError.message : String(lastError)}`,
    )
    this.name = 'RetriesExhausted'
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Runs `work` until it succeeds, a failure is not transient, or the attempts are spent. Delays double from
 * `baseDelayMs` with full jitter, so workers that failed together do not retry together.
 * @throws the non-transient error as is, or RetriesExhausted wrapping the last transient one
 */
export async function withRetry<T>(
  work: (attempt: number) => Promise<T>,
  isTransient: (error: unknown) => boolean,
  policy: RetryPolicy,
): Promise<T> {
  const sleep = policy.sleep ?? defaultSleep
  const random = policy.random ?? Math.random
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work(attempt)
    } catch (error) {
      if (!isTransient(error)) throw error
      if (attempt >= policy.maxAttempts) throw new RetriesExhausted(error, attempt)
      await sleep(Math.round(random() * policy.baseDelayMs * 2 ** (attempt - 1)))
    }
  }
}
