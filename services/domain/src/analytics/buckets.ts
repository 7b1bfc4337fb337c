import { invalidInput } from '../errors/appError.js'

export type TimeBucket = 'minute' | 'hour' | 'day'

export const bucketMilliseconds: Record<TimeBucket, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
}

/** How far back each bucket size is kept (spec: Limits); day buckets are kept forever. */
export const bucketRetentionDays: Record<TimeBucket, number | null> = { minute: 30, hour: 365, day: null }

/** More points than a chart can show is a request for the wrong bucket size. */
export const maxDataPoints = 1500

export interface TimeRange {
  bucket: TimeBucket
  /** First bucket start (the requested start, rounded down to the bucket). */
  from: Date
  /** End of the range, exclusive (the requested end, rounded up to the bucket). */
  to: Date
  /** Every bucket start in the range, oldest first: buckets without data are reported with zeros. */
  starts: Date[]
}

/**
 * Validates and aligns a requested range. UTC buckets; start inclusive, end exclusive.
 * @throws AppError INVALID_INPUT naming the field: end not after start, minute or hour buckets reaching past their
 *   retention, or more than `maxDataPoints` buckets.
 */
export function timeRangeOf(bucket: TimeBucket, start: string, end: string, now = new Date()): TimeRange {
  const size = bucketMilliseconds[bucket]
  const startAt = Date.parse(start)
  const endAt = Date.parse(end)
  if (Number.isNaN(startAt)) throw invalidInput({ start: 'must be an ISO 8601 date-time' })
  if (Number.isNaN(endAt)) throw invalidInput({ end: 'must be an ISO 8601 date-time' })
  if (endAt <= startAt) throw invalidInput({ end: 'must be later than start' })
  const retention = bucketRetentionDays[bucket]
  if (retention !== null && startAt < now.getTime() - retention * 86_400_000) {
    throw invalidInput(
      {
        start: `${bucket} buckets are kept ${String(retention)} days; use ${bucket === 'minute' ? 'hour' : 'day'} buckets for older data`,
      },
      'Range outside the retention of its bucket size',
    )
  }
  const from = Math.floor(startAt / size) * size
  const to = Math.ceil(endAt / size) * size
  const count = (to - from) / size
  if (count > maxDataPoints) {
    throw invalidInput(
      {
        bucket: `${String(count)} ${bucket} buckets requested; at most ${String(maxDataPoints)}: use a larger bucket or a shorter range`,
      },
      'Too many data points',
    )
  }
  return {
    bucket,
    from: new Date(from),
    to: new Date(to),
    starts: Array.from({ length: count }, (_, index) => new Date(from + index * size)),
  }
}

/** ClickHouse DateTime text ("2026-11-22 08:00:00") as an ISO timestamp. */
export function isoOfBucket(value: string): string {
  return new Date(`${value.replace(' ', 'T')}Z`).toISOString()
}

/** `YYYY-MM-DD hh:mm:ss` in UTC, as ClickHouse parses DateTime parameters. */
export function clickhouseDateTime(date: Date): string {
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '')
}

/**
 * One series per group with a point for every bucket: buckets the engine returned nothing for get `empty`.
 * Groups keep the order of their first appearance; without grouping there is one series with group null.
 */
export function zeroFilled<P extends object>(
  range: TimeRange,
  rows: readonly { bucket: string; group: string | null; point: P }[],
  empty: P,
): (P & { timestamp: string; group: string | null })[] {
  const byGroup = new Map<string | null, Map<string, P>>()
  for (const row of rows) {
    const series = byGroup.get(row.group) ?? new Map<string, P>()
    series.set(isoOfBucket(row.bucket), row.point)
    byGroup.set(row.group, series)
  }
  if (byGroup.size === 0) byGroup.set(null, new Map())
  const points: (P & { timestamp: string; group: string | null })[] = []
  for (const start of range.starts) {
    const timestamp = start.toISOString()
    for (const [group, series] of byGroup)
      points.push({ ...(series.get(timestamp) ?? empty), timestamp, group })
  }
  return points
}

/** How far back usage rows are kept (the raw table's TTL), so how far back an export can reach. */
export const rawRetentionDays = 400

/**
 * Validates the range of a usage export: raw rows, so no bucket limits, but nothing older than their retention.
 * @throws AppError INVALID_INPUT naming the field
 */
export function exportRangeOf(start: string, end: string, now = new Date()): { from: string; to: string } {
  const startAt = Date.parse(start)
  const endAt = Date.parse(end)
  if (Number.isNaN(startAt)) throw invalidInput({ start: 'must be an ISO 8601 date-time' })
  if (Number.isNaN(endAt)) throw invalidInput({ end: 'must be an ISO 8601 date-time' })
  if (endAt <= startAt) throw invalidInput({ end: 'must be later than start' })
  if (startAt < now.getTime() - rawRetentionDays * 86_400_000) {
    throw invalidInput(
      { start: `usage rows are kept ${String(rawRetentionDays)} days` },
      'Range outside the retention of usage rows',
    )
  }
  return { from: new Date(startAt).toISOString(), to: new Date(endAt).toISOString() }
}
