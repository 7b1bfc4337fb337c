import { namedPeriodsIn, type DateGranularity } from '../extraction/relativeDates.js'

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
 * about in the days after it ends: each window reaches past its period by this much (and a day-sized one starts a day
 * early, for time zones).
 */
const spillAfter: Record<DateGranularity, number> = {
  day: 2 * dayMs,
  weekend: 2 * dayMs,
  week: 2 * dayMs,
  month: 7 * dayMs,
  season: 7 * dayMs,
  year: 7 * dayMs,
}
const startsEarly = new Set<DateGranularity>(['day', 'weekend', 'week'])

/**
 * The period a question names ("on October 13, 2023", "in July 2022", "between 1 May 2023 and 3 May 2023", "in 2023",
 * "last week"), read against `reference` (the search's as_of, or now) by the resolver that reads documents' dates, so
 * a question and a memory agree on what "last week" is. Only periods named without a guess count: "in June" could be
 * any June, and a window on the wrong one would pull the wrong memories up. Several expressions make one window, from
 * the earliest start to the latest end. Null when the question names no period.
 */
export function askedPeriodOf(question: string, reference: string): AskedPeriod | null {
  const periods = namedPeriodsIn(question, reference)
  if (periods.length === 0) return null
  const windows = periods.map(({ start, end, granularity }) => ({
    from: Date.parse(start) - (startsEarly.has(granularity) ? dayMs : 0),
    to: Date.parse(end) + spillAfter[granularity],
  }))
  const withoutDates = periods.reduce((text, { expression }) => text.replace(expression, ' '), question)
  return {
    from: new Date(Math.min(...windows.map(({ from }) => from))).toISOString(),
    to: new Date(Math.max(...windows.map(({ to }) => to))).toISOString(),
    withoutDates: withoutDates
      .replace(/\s+/g, ' ')
      .replace(/\s+([?.!,])/g, '$1')
      .trim(),
  }
}
