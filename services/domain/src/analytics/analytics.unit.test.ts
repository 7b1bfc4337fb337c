import { describe, expect, it } from 'vitest'
import { AppError } from '../errors/appError.js'
import { healthOf } from './health.js'
import { clickhouseDateTime, isoOfBucket, maxDataPoints, timeRangeOf, zeroFilled } from './buckets.js'
import { changePct, estimatedCostUsd, parseTokenPrices } from './tokenPrices.js'

const now = new Date('2026-11-22T12:34:56.000Z')

function fieldsOf(run: () => unknown): Record<string, string> {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('INVALID_INPUT')
    return (error as AppError).details.fields as Record<string, string>
  }
  throw new Error('expected INVALID_INPUT')
}

describe('timeRangeOf', () => {
  it('aligns the range to whole buckets and lists every bucket start', () => {
    const range = timeRangeOf('hour', '2026-11-22T09:15:00Z', '2026-11-22T11:05:00Z', now)
    expect(range.from.toISOString()).toBe('2026-11-22T09:00:00.000Z')
    expect(range.to.toISOString()).toBe('2026-11-22T12:00:00.000Z')
    expect(range.starts.map((start) => start.toISOString())).toEqual([
      '2026-11-22T09:00:00.000Z',
      '2026-11-22T10:00:00.000Z',
      '2026-11-22T11:00:00.000Z',
    ])
  })

  it('refuses an end not after the start, bad dates, ranges past retention and too many points', () => {
    expect(
      fieldsOf(() => timeRangeOf('hour', '2026-11-22T10:00:00Z', '2026-11-22T10:00:00Z', now)),
    ).toHaveProperty('end')
    expect(fieldsOf(() => timeRangeOf('hour', 'yesterday', '2026-11-22T10:00:00Z', now))).toHaveProperty(
      'start',
    )
    expect(
      fieldsOf(() => timeRangeOf('minute', '2026-10-01T00:00:00Z', '2026-10-01T01:00:00Z', now)).start,
    ).toMatch(/30 days/)
    expect(
      fieldsOf(() => timeRangeOf('hour', '2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z', now)).start,
    ).toMatch(/365 days/)
    expect(
      fieldsOf(() => timeRangeOf('minute', '2026-11-20T00:00:00Z', '2026-11-22T00:00:00Z', now)).bucket,
    ).toMatch(new RegExp(`at most ${String(maxDataPoints)}`))
    // Day buckets are kept forever.
    expect(timeRangeOf('day', '2019-01-01T00:00:00Z', '2019-02-01T00:00:00Z', now).starts).toHaveLength(31)
  })
})

describe('zeroFilled', () => {
  const range = timeRangeOf('hour', '2026-11-22T09:00:00Z', '2026-11-22T12:00:00Z', now)

  it('gives every bucket a point, zeros where the engine had nothing', () => {
    const points = zeroFilled(range, [{ bucket: '2026-11-22 10:00:00', group: null, point: { value: 7 } }], {
      value: 0,
    })
    expect(points).toEqual([
      { timestamp: '2026-11-22T09:00:00.000Z', group: null, value: 0 },
      { timestamp: '2026-11-22T10:00:00.000Z', group: null, value: 7 },
      { timestamp: '2026-11-22T11:00:00.000Z', group: null, value: 0 },
    ])
  })

  it('fills every bucket for each group that has data', () => {
    const points = zeroFilled(
      range,
      [
        { bucket: '2026-11-22 09:00:00', group: 'alice', point: { value: 1 } },
        { bucket: '2026-11-22 11:00:00', group: 'bob', point: { value: 2 } },
      ],
      { value: 0 },
    )
    expect(points).toHaveLength(6)
    expect(points.filter((point) => point.group === 'bob').map((point) => point.value)).toEqual([0, 0, 2])
  })

  it('converts between ClickHouse DateTime text and ISO', () => {
    expect(isoOfBucket('2026-11-22 10:00:00')).toBe('2026-11-22T10:00:00.000Z')
    expect(clickhouseDateTime(new Date('2026-11-22T10:00:00.000Z'))).toBe('2026-11-22 10:00:00')
  })
})

describe('token prices, change and health', () => {
  it('prices tokens per million by model, and a model without a price at 0', () => {
    const prices = parseTokenPrices(['gpt-4o-mini=0.15/0.6', 'local/x=0/0'])
    expect(estimatedCostUsd(prices, 'gpt-4o-mini', 1_000_000, 500_000)).toBeCloseTo(0.45)
    expect(estimatedCostUsd(prices, 'unknown', 1_000_000, 1_000_000)).toBe(0)
    expect(() => parseTokenPrices(['gpt-4o-mini=cheap'])).toThrow(/model=input\/output/)
  })

  it('computes the change against the previous period, null when that had nothing', () => {
    expect(changePct(150, 100)).toBe(50)
    expect(changePct(50, 100)).toBe(-50)
    expect(changePct(5, 0)).toBeNull()
  })

  it('grades health by the share of failed API calls', () => {
    expect(healthOf(0)).toBe('healthy')
    expect(healthOf(0.99)).toBe('healthy')
    expect(healthOf(1)).toBe('degraded')
    expect(healthOf(5)).toBe('unhealthy')
  })
})
