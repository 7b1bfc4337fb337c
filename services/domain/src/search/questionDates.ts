import * as chrono from 'chrono-node'

/** The time a question asks about, as a window to search in, and the question without the words that named it. */
export interface AskedPeriod {
  /** Inclusive start, ISO 8601. */
  from: string
  /** Exclusive end, ISO 8601. */
  to: string
  /** The question with the date expressions taken out, for matching by words. */
  withoutDates: string
}

const dayMs = 24 * 60 * 60 * 1000
/**
 * What is said about a day is often written down a little after it ("yesterday we…"), and a month or a year is talked
 * about in the days after it ends: each window reaches past its period by this much (and a day starts one day early,
 * for time zones).
 */
const spillAfter = { day: 2 * dayMs, month: 7 * dayMs, year: 7 * dayMs }
/** chrono-node does not read a year alone as a date. */
const yearAlone = /\b(?:in|during|since|of)\s+((?:19|20)\d\d)\b/i

type Unit = keyof typeof spillAfter

/** The calendar period a parsed date names, from its first to past its last millisecond, in UTC. */
function periodOf(components: chrono.ParsedComponents): { unit: Unit; from: number; to: number } {
  const year = components.get('year') ?? 1970
  const month = components.get('month') ?? 1
  if (components.isCertain('day')) {
    const from = Date.UTC(year, month - 1, components.get('day') ?? 1)
    return { unit: 'day', from, to: from + dayMs }
  }
  if (components.isCertain('month'))
    return { unit: 'month', from: Date.UTC(year, month - 1, 1), to: Date.UTC(year, month, 1) }
  return { unit: 'year', from: Date.UTC(year, 0, 1), to: Date.UTC(year + 1, 0, 1) }
}

/**
 * The period a question names ("on October 13, 2023", "in July 2022", "between August 11 and 15, 2023", "in 2023",
 * "last week"), read by chrono-node against `reference` (the search's as_of, or now). Only expressions whose year is
 * known count: "in June" could be any June, and a window on the wrong one would pull the wrong memories up. Several
 * expressions make one window, from the earliest start to the latest end. Null when the question names no period.
 */
export function askedPeriodOf(question: string, reference: Date): AskedPeriod | null {
  const windows: { from: number; to: number; text: string }[] = []
  for (const result of chrono.parse(question, reference, { forwardDate: false })) {
    if (!result.start.isCertain('year')) continue
    const start = periodOf(result.start)
    const end = result.end ? periodOf(result.end) : start
    windows.push({
      from: start.from - (start.unit === 'day' ? dayMs : 0),
      to: Math.max(start.to, end.to) + spillAfter[end.unit],
      text: result.text,
    })
  }
  const bareYear = yearAlone.exec(question)
  if (bareYear?.[1] && !windows.some(({ text }) => text.includes(bareYear[1] ?? ''))) {
    const year = Number(bareYear[1])
    windows.push({
      from: Date.UTC(year, 0, 1),
      to: Date.UTC(year + 1, 0, 1) + spillAfter.year,
      text: bareYear[0],
    })
  }
  if (windows.length === 0) return null
  const withoutDates = windows.reduce((text, window) => text.replace(window.text, ' '), question)
  return {
    from: new Date(Math.min(...windows.map(({ from }) => from))).toISOString(),
    to: new Date(Math.max(...windows.map(({ to }) => to))).toISOString(),
    withoutDates: withoutDates
      .replace(/\s+/g, ' ')
      .replace(/\s+([?.!,])/g, '$1')
      .trim(),
  }
}
