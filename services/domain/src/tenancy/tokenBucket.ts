import type { RateLimit } from './tiers.js'

export interface Bucket {
  tokens: number
  updatedAtMs: number
}

export interface RateDecision {
  allowed: boolean
  bucket: Bucket
  /** Whole requests left right now. */
  remaining: number
  /** Unix seconds at which the bucket is full again. */
  resetAtSeconds: number
  /** Seconds until one request is allowed again (0 when allowed). */
  retryAfterSeconds: number
}

/**
 * Token bucket: holds at most `burst` tokens, refilled continuously at `requests_per_minute`; each request takes
 * one. Pure: the caller keeps the bucket and supplies the clock.
 */
export function takeToken(previous: Bucket | undefined, nowMs: number, limit: RateLimit): RateDecision {
  const perMs = limit.requests_per_minute / 60_000
  const elapsed = previous ? Math.max(0, nowMs - previous.updatedAtMs) : 0
  const available = previous ? Math.min(limit.burst, previous.tokens + elapsed * perMs) : limit.burst
  const allowed = available >= 1
  const tokens = allowed ? available - 1 : available
  const bucket = { tokens, updatedAtMs: nowMs }
  return {
    allowed,
    bucket,
    remaining: Math.floor(tokens),
    resetAtSeconds: Math.ceil((nowMs + (limit.burst - tokens) / perMs) / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)),
  }
}
