/** Pure helpers of the console's screens: numbers, changes, ranges and chart series. Unit-tested without a browser. */

export type Bucket = 'minute' | 'hour' | 'day'

const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })
const decimal = new Intl.NumberFormat('en', { maximumFractionDigits: 2 })

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—'
  return Number.isInteger(value) ? integer.format(value) : decimal.format(value)
}

export function formatMs(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${decimal.format(value)} ms`
}

export function formatUsd(value: number): string {
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 4 : 2)}`
}

/** "+12.5 %", "−3 %", or "no previous data" when the API says there is nothing to compare with (null). */
export function formatChange(changePct: number | null): {
  text: string
  direction: 'up' | 'down' | 'flat' | 'none'
} {
  if (changePct === null) return { text: 'no previous data', direction: 'none' }
  const rounded = Math.round(changePct * 10) / 10
  if (rounded === 0) return { text: '0 %', direction: 'flat' }
  return {
    text: `${rounded > 0 ? '+' : '−'}${decimal.format(Math.abs(rounded))} %`,
    direction: rounded > 0 ? 'up' : 'down',
  }
}

const bucketMs: Record<Bucket, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }

/** A range ending at the next bucket boundary after `now`, `count` buckets long: what a chart of the recent past asks. */
export function recentRange(now: number, bucket: Bucket, count: number): { start: string; end: string } {
  const size = bucketMs[bucket]
  const end = Math.floor(now / size) * size + size
  return { start: new Date(end - count * size).toISOString(), end: new Date(end).toISOString() }
}

/** The bucket a chart of this range should use: at most a few hundred points. */
export function bucketFor(startMs: number, endMs: number): Bucket {
  const span = endMs - startMs
  if (span <= 6 * bucketMs.hour) return 'minute'
  if (span <= 14 * bucketMs.day) return 'hour'
  return 'day'
}

/**
 * The API fills buckets without data with zeros; a chart draws them as gaps (null), so "nothing happened" is not
 * read as "measured zero". `present` says which buckets had data (a latency bucket's count, a metric's value).
 */
export function withGaps(values: number[], present: boolean[]): (number | null)[] {
  return values.map((value, index) => (present[index] ? value : null))
}

/** Groups the API's flat data points (timestamp, group, value) into one series per group over shared timestamps. */
export function seriesByGroup<P extends { timestamp: string; group: string | null }>(
  points: P[],
  valueOf: (point: P) => number,
): { timestamps: number[]; series: { name: string; values: number[] }[] } {
  const timestamps = [...new Set(points.map((point) => Date.parse(point.timestamp)))].sort((a, b) => a - b)
  const position = new Map(timestamps.map((time, index) => [time, index]))
  const groups = new Map<string, number[]>()
  for (const point of points) {
    const name = point.group ?? 'all'
    let values = groups.get(name)
    if (!values) {
      values = new Array<number>(timestamps.length).fill(0)
      groups.set(name, values)
    }
    const index = position.get(Date.parse(point.timestamp))
    if (index !== undefined) values[index] = (values[index] ?? 0) + valueOf(point)
  }
  return {
    timestamps,
    series: [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, values]) => ({ name, values })),
  }
}

/** `datetime-local` input text (local time, minutes) ↔ ISO instants. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso)
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000)
  return local.toISOString().slice(0, 16)
}

export function fromLocalInput(text: string): string | null {
  const time = new Date(text).getTime()
  return Number.isNaN(time) ? null : new Date(time).toISOString()
}

/** Lines of an API problem list by the line they name: `line`, else "at line N" in the message (YAML syntax). */
export function problemsByLine(problems: { field: string; message: string; line?: number }[]): {
  byLine: Map<number, string[]>
  unplaced: string[]
} {
  const byLine = new Map<number, string[]>()
  const unplaced: string[] = []
  for (const problem of problems) {
    const line = problem.line ?? Number(/at line (\d+)/.exec(problem.message)?.[1] ?? NaN)
    const text = problem.field === '(root)' ? problem.message : `${problem.field}: ${problem.message}`
    if (Number.isInteger(line) && line > 0) byLine.set(line, [...(byLine.get(line) ?? []), text])
    else unplaced.push(text)
  }
  return { byLine, unplaced }
}
