import { describe, expect, it } from 'vitest'
import { judgeLease, leaseFor } from './leases.js'

const t0 = Date.parse('2026-11-23T10:00:00Z')

describe('leases', () => {
  it('a free name is taken; our own lease is ours; another live holder keeps it until it expires', () => {
    expect(judgeLease(null, 'a', t0)).toBe('free')
    const lease = leaseFor('rebuild-vector', 'a', t0, 60_000)
    expect(lease).toEqual({
      name: 'rebuild-vector',
      holder: 'a',
      acquired_at: '2026-11-23T10:00:00.000Z',
      expires_at: '2026-11-23T10:01:00.000Z',
    })
    expect(judgeLease(lease, 'a', t0 + 59_000)).toBe('ours')
    expect(judgeLease(lease, 'b', t0 + 59_999)).toBe('held')
    expect(judgeLease(lease, 'b', t0 + 60_000)).toBe('expired')
  })

  it('a renewal keeps when the lease was first taken and moves its expiry', () => {
    const renewed = leaseFor('rebuild-vector', 'a', t0 + 20_000, 60_000, '2026-11-23T10:00:00.000Z')
    expect(renewed.acquired_at).toBe('2026-11-23T10:00:00.000Z')
    expect(renewed.expires_at).toBe('2026-11-23T10:01:20.000Z')
  })
})
