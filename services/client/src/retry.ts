/**
 * When the client library tries a request again (spec: Errors → retry guidance): 429, 500 and 503, with exponential
 * backoff and jitter, never sooner than the service's Retry-After; never 400, 401, 403, 404 or 409, which need a
 * changed request. A request that never reached the service (the connection failed) is tried again only when it is
 * safe to repeat.
 */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number
  baseDelayMs: number
  maxDelayMs: number
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 20_000 }

const retryableStatuses = new Set([429, 500, 503])

export function isRetryableStatus(status: number): boolean {
  return retryableStatuses.has(status)
}

/**
 * The wait before retry number `retry` (1 for the first retry): half the exponential step plus a random half of it
 * ("equal jitter", so clients that failed together do not come back together), and at least what Retry-After asked.
 */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  policy: RetryPolicy = defaultRetryPolicy,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1))
  const backoff = step / 2 + random() * (step / 2)
  return Math.max(backoff, (retryAfterSeconds ?? 0) * 1000)
}

/** Retry-After as seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000)
}
