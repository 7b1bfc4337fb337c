import { utcInstantOf } from '../timestamps.js'

const dayMs = 86_400_000

/**
 * When the memories of a document expire, decided once, when it is accepted, and written into its event: the
 * document's own `expires_at`, else the acceptance time plus the instance's default time to live (none: never). So
 * a document processed again, or its memories replayed, expire when they did the first time, whatever the
 * instance's configuration says by then.
 */
export function documentExpiryOf(
  expiresAt: string | undefined,
  acceptedAt: string,
  defaultTtlDays: number | null | undefined,
): string | null {
  if (expiresAt !== undefined) return utcInstantOf(expiresAt)
  if (defaultTtlDays === null || defaultTtlDays === undefined) return null
  return new Date(Date.parse(acceptedAt) + defaultTtlDays * dayMs).toISOString()
}

/** Whether a memory has expired at `nowMs`: from its expiry instant on, it is as good as deleted. */
export function isExpired(memory: { expires_at?: string | null }, nowMs: number): boolean {
  return typeof memory.expires_at === 'string' && Date.parse(memory.expires_at) <= nowMs
}

/**
 * What is wrong with an expiry asked for at `now`, or null: it must be an instant the stores take, and later than
 * now (a memory that expired on arrival is a request the caller did not mean).
 */
export function expiryProblem(expiresAt: string, now: Date): string | null {
  const instant = utcInstantOf(expiresAt)
  if (instant === null) return 'must be a date-time (RFC 3339)'
  return Date.parse(instant) > now.getTime()
    ? null
    : `must be later than now (${now.toISOString()}): a memory cannot expire on arrival`
}

/**
 * mem0's `expiration_date`: a plain date that counts in full (a memory expiring on 2030-01-31 is shown all through
 * that day, UTC), so the instant it expires is the next day's first.
 */
export function expiryOfExpirationDate(date: string): string | null {
  const first = /^\d{4}-\d{2}-\d{2}$/.test(date) ? utcInstantOf(date) : null
  if (first === null) return utcInstantOf(date)
  return new Date(Date.parse(first) + dayMs).toISOString()
}
