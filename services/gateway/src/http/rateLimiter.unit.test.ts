import { describe, expect, it } from 'vitest'
import { createRateLimiter } from './rateLimiter.js'

const pro = { requests_per_minute: 600, burst: 50 }

function drain(gateways: number): number {
  const limiter = createRateLimiter({ gatewayCount: () => gateways, now: () => 1_000_000 })
  let allowed = 0
  while (limiter.take('key_a', pro).allowed) allowed += 1
  return allowed
}

describe('rate limiter', () => {
  it('gives one gateway the whole burst of a key', () => {
    expect(drain(1)).toBe(50)
  })

  it('splits a key burst between gateways so that together they never allow more', () => {
    expect(drain(2)).toBe(25)
    expect(drain(3) * 3).toBeLessThanOrEqual(50)
  })

  it('reports what remains for the key as a whole', () => {
    const limiter = createRateLimiter({ gatewayCount: () => 2, now: () => 1_000_000 })
    expect(limiter.take('key_a', pro).remaining).toBe(48)
  })

  it('keeps the buckets of different keys apart', () => {
    const limiter = createRateLimiter({ now: () => 1_000_000 })
    for (let index = 0; index < 50; index += 1) limiter.take('key_a', pro)
    expect(limiter.take('key_a', pro).allowed).toBe(false)
    expect(limiter.take('key_b', pro).allowed).toBe(true)
  })
})
