import type { Ajv } from 'ajv'
import { fullFormats } from 'ajv-formats/dist/formats.js'

// RFC 3339 as the stores parse it: an upper-case T and Z, at most nanoseconds, an offset of at most ±18:00, no leap
// second. Elasticsearch (java.time) refuses the rest of what RFC 3339 allows — `t`/`z`, a space for the T,
// `+23:41`, `23:59:60` — and a refused date would stop a projection after the write was acknowledged.
const storable = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):?(\d{2}))$/

const rfc3339DateTime = fullFormats['date-time'] as
  { validate: (text: string) => boolean } | ((text: string) => boolean)
const isRfc3339 = (text: string): boolean =>
  typeof rfc3339DateTime === 'function' ? rfc3339DateTime(text) : rfc3339DateTime.validate(text)

/** Whether a date-time is valid RFC 3339 that Elasticsearch, Neo4j and ClickHouse all take as it is. */
export function isStorableDateTime(text: string): boolean {
  const match = storable.exec(text)
  if (!match || !isRfc3339(text)) return false
  const [, seconds, offsetHours, offsetMinutes] = match
  if (Number(seconds) > 59) return false
  const offset = Number(offsetHours ?? 0) * 60 + Number(offsetMinutes ?? 0)
  return offset <= 18 * 60 && Number(offsetMinutes ?? 0) <= 59
}

/**
 * A storable date-time or a calendar date (YYYY-MM-DD, its first instant) as the UTC instant the stores compare, or
 * null; within years 0000–9999 once in UTC (an offset can move year 0000 to -000001, which Elasticsearch refuses).
 */
export function utcInstantOf(value: unknown): string | null {
  if (typeof value !== 'string') return null
  let instant: string | null = null
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = new Date(`${value}T00:00:00Z`)
    instant = !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value) ? day.toISOString() : null
  } else if (isStorableDateTime(value)) {
    instant = new Date(value).toISOString()
  }
  return instant !== null && /^\d{4}-/.test(instant) ? instant : null
}

/** Makes `format: date-time` mean a storable date-time in this validator (after ajv-formats added its formats). */
export function useStorableDateTimes(ajv: Ajv): Ajv {
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime })
  return ajv
}
