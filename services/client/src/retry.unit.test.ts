import { describe, expect, it } from 'vitest'
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from './retry.js'

describe('retry policy', () => {
  it('retries exactly 429, 500 and 503', () => {
    const retried = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504].filter(isRetryableStatus)
    expect(retried).toEqual([429, 500, 503])
  })

  it('backs off exponentially with equal jitter, capped', () => {
    const policy = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000 }
    expect([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, undefined, policy, () => 0))).toEqual([
      50, 100, 200, 400, 500,
    ])
    expect([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, undefined, policy, () => 1))).toEqual([
      100, 200, 400, 800, 1000,
    ])
  })

  it('never waits less than Retry-After asks', () => {
    expect(retryDelayMs(1, 4, undefined, () => 0.5)).toBe(4000)
    expect(retryDelayMs(1, 0, undefined, () => 1)).toBe(250)
  })

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('12')).toBe(12)
    expect(parseRetryAfter(null)).toBeUndefined()
    expect(parseRetryAfter('soon')).toBeUndefined()
    const now = Date.parse('2026-11-22T10:00:00Z')
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30)
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0)
  })
})
