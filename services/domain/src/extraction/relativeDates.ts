/**
 * Resolves time expressions ("yesterday", "last week", "two years ago", "on Friday", "May 7") against the date a
 * document was written, so a memory read months later still says when things happened. Pure: the reference date is
 * the only input besides the text.
 *
 * Conventions (documented because several are choices, not facts of English):
 * - The reference day is the calendar date written in `documentCreatedAt` itself, in its own offset: a note written
 *   at 23:30-05:00 was written on that local day, not on the next UTC day.
 * - Weeks start on Monday; "last week" is the Monday-to-Sunday week before the reference week.
 * - "last Friday" is the nearest Friday strictly before the reference day, "next Friday" the nearest strictly after,
 *   "this Friday" the nearest on or after (on or before in a past-tense sentence). A bare "on Friday" looks back in a
 *   past-tense or tenseless sentence and forward in a future-tense one; "by/until Friday" always looks forward.
 *   Year-less dates ("May 7", "in June") follow the same tense rule.
 * - Seasons are the northern meteorological ones (spring = March–May, summer = June–August, fall = September–November,
 *   winter = December–February, labelled with both years).
 * - "a couple of", "a few", "several" are approximate: they resolve, but the label says "around".
 * - Numeric dates like 05/07/2023 are left alone: month-first and day-first readings are equally likely.
 */

export type DateGranularity = 'day' | 'weekend' | 'week' | 'month' | 'season' | 'year'

export interface ResolvedDate {
  /** The expression as written, e.g. "yesterday", "last week". */
  expression: string
  /** Human-readable resolution, e.g. "7 May 2023", "the week of 1 May 2023", "around 2021". */
  label: string
  /** First day of the resolved period, YYYY-MM-DD. */
  start: string
  granularity: DateGranularity
  approximate: boolean
}

export interface DateResolution {
  /** The input with each relative or year-less expression followed by its resolution in parentheses. */
  text: string
  /** The start of the finest resolved date of the text (the first one among equals), or null. */
  occurredOn: string | null
  dates: ResolvedDate[]
}

type Tense = 'past' | 'future' | 'none'

const MS_PER_DAY = 86_400_000

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const

const weekdayNames = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const

/** Days since 1970-01-01 (UTC calendar arithmetic, no clock involved). */
type DayNumber = number

function dayNumber(year: number, month: number, day: number): DayNumber {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY
}

function partsOf(day: DayNumber): { year: number; month: number; day: number; weekday: number } {
  const date = new Date(day * MS_PER_DAY)
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
  }
}

function isValidDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > 31) return false
  const parts = partsOf(dayNumber(year, month, day))
  return parts.month === month && parts.day === day
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0')

function isoOf(day: DayNumber): string {
  const parts = partsOf(day)
  return `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}`
}

function monthName(month: number): string {
  return monthNames[month - 1] ?? ''
}

function dayLabel(day: DayNumber): string {
  const parts = partsOf(day)
  return `${parts.day} ${monthName(parts.month)} ${parts.year}`
}

function mondayOf(day: DayNumber): DayNumber {
  return day - ((partsOf(day).weekday + 6) % 7)
}

/** The calendar date written in an ISO string (see the module comment), else the UTC date of a parseable one. */
function parseReferenceDay(documentCreatedAt: string): DayNumber | null {
  const iso = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(documentCreatedAt)
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    return isValidDay(year, month, day) ? dayNumber(year, month, day) : null
  }
  const parsed = Date.parse(documentCreatedAt)
  return Number.isNaN(parsed) ? null : Math.floor(parsed / MS_PER_DAY)
}

interface Period {
  start: DayNumber
  granularity: DateGranularity
  label: string
}

const dayPeriod = (day: DayNumber): Period => ({ start: day, granularity: 'day', label: dayLabel(day) })

const weekPeriod = (day: DayNumber): Period => {
  const monday = mondayOf(day)
  return { start: monday, granularity: 'week', label: `the week of ${dayLabel(monday)}` }
}

const weekendPeriod = (saturday: DayNumber): Period => ({
  start: saturday,
  granularity: 'weekend',
  label: `the weekend of ${dayLabel(saturday)}`,
})

/** `monthIndex` counts months since year 0 (year * 12 + month - 1), so month arithmetic crosses years freely. */
function monthPeriod(monthIndex: number): Period {
  const year = Math.floor(monthIndex / 12)
  const month = monthIndex - year * 12 + 1
  return { start: dayNumber(year, month, 1), granularity: 'month', label: `${monthName(month)} ${year}` }
}

const yearPeriod = (year: number): Period => ({
  start: dayNumber(year, 1, 1),
  granularity: 'year',
  label: String(year),
})

/** The day after a period's last. */
function endOf(period: Period): DayNumber {
  const { year, month } = partsOf(period.start)
  switch (period.granularity) {
    case 'day':
      return period.start + 1
    case 'weekend':
      return period.start + 2
    case 'week':
      return period.start + 7
    case 'month':
      return dayNumber(year, month + 1, 1)
    case 'season':
      return dayNumber(year, month + 3, 1)
    case 'year':
      return dayNumber(year + 1, 1, 1)
  }
}

type SeasonName = 'spring' | 'summer' | 'fall' | 'autumn' | 'winter'
const seasonStartMonth: Record<SeasonName, number> = { spring: 3, summer: 6, fall: 9, autumn: 9, winter: 12 }

function seasonPeriod(season: SeasonName, startYear: number): Period {
  const label = season === 'winter' ? `winter ${startYear}–${startYear + 1}` : `${season} ${startYear}`
  return { start: dayNumber(startYear, seasonStartMonth[season], 1), granularity: 'season', label }
}

type Direction = 'last' | 'this' | 'next'

function directionOf(word: string): Direction {
  const normalized = word.toLowerCase().replace(/\s+/g, ' ')
  if (normalized === 'last' || normalized === 'this past') return 'last'
  if (normalized === 'next' || normalized === 'this coming') return 'next'
  return 'this'
}

function seasonRelativeTo(season: SeasonName, direction: Direction, reference: DayNumber): Period {
  const parts = partsOf(reference)
  const referenceMonthIndex = parts.year * 12 + parts.month - 1
  const startMonth = seasonStartMonth[season]
  // The instance starting in the reference year, and the one before it: one of them contains or precedes today.
  const startIndexIn = (year: number) => year * 12 + startMonth - 1
  const containing = [parts.year - 1, parts.year].find(
    (year) => referenceMonthIndex >= startIndexIn(year) && referenceMonthIndex <= startIndexIn(year) + 2,
  )
  if (direction === 'this') return seasonPeriod(season, containing ?? parts.year)
  if (direction === 'last') {
    if (containing !== undefined) return seasonPeriod(season, containing - 1)
    const endedThisYear = startIndexIn(parts.year) + 2 < referenceMonthIndex
    return seasonPeriod(season, endedThisYear ? parts.year : parts.year - 1)
  }
  const startsLaterThisYear = startIndexIn(parts.year) > referenceMonthIndex
  return seasonPeriod(season, startsLaterThisYear ? parts.year : parts.year + 1)
}

function weekdayRelativeTo(
  weekday: number,
  reference: DayNumber,
  mode: 'before' | 'after' | 'onOrAfter' | 'onOrBefore',
) {
  const referenceWeekday = partsOf(reference).weekday
  const forward = (weekday - referenceWeekday + 7) % 7
  const backward = (referenceWeekday - weekday + 7) % 7
  switch (mode) {
    case 'before':
      return reference - (backward === 0 ? 7 : backward)
    case 'after':
      return reference + (forward === 0 ? 7 : forward)
    case 'onOrAfter':
      return reference + forward
    case 'onOrBefore':
      return reference - backward
  }
}

const numberWords: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
}

/** Quantities that name no exact number; they still resolve, to their usual reading, marked approximate. */
const approximateQuantities: Record<string, number> = { couple: 2, few: 3, several: 3 }

function quantityOf(phrase: string): { value: number; approximate: boolean } | null {
  const words = phrase.toLowerCase().split(/\s+/)
  for (const word of words) {
    const approximate = approximateQuantities[word]
    if (approximate !== undefined) return { value: approximate, approximate: true }
  }
  const last = words[words.length - 1] ?? ''
  if (/^\d{1,3}$/.test(last)) return { value: Number(last), approximate: false }
  const value = numberWords[last]
  return value === undefined ? null : { value, approximate: false }
}

function offsetPeriod(unit: string, amount: number, reference: DayNumber): Period {
  const parts = partsOf(reference)
  switch (unit.toLowerCase().replace(/s$/, '')) {
    case 'day':
      return dayPeriod(reference + amount)
    case 'week':
      return weekPeriod(reference + 7 * amount)
    case 'month':
      return monthPeriod(parts.year * 12 + parts.month - 1 + amount)
    default:
      return yearPeriod(parts.year + amount)
  }
}

// Sentences mixing tenses are decided by counting: one "will" does not outweigh three past verbs. The present
// progressive counts as future: with a date it is a plan ("I'm meeting them on Thursday").
const futureCue =
  /\b(?:will|won't|shall|gonna|going\s+to|plan(?:s|ning)?\s+to|planning|about\s+to|can't\s+wait|cannot\s+wait|looking\s+forward|hope\s+to|hoping\s+to|want\s+to|intend(?:s)?\s+to|excited\s+(?:for|about|to)|scheduled|upcoming|tomorrow|next|soon)\b|['’]ll\b|\b(?:is|are|am)\s+[a-z]+ing\b|['’](?:m|re)\s+[a-z]+ing\b/gi
const pastCue =
  /\b(?:was|were|did|didn't|had|went|got|came|saw|made|took|met|ran|ate|found|bought|gave|told|said|felt|left|won|lost|ago|yesterday|last|[a-z]{2,}ed(?<!\b(?:need|feed|seed|speed|indeed|proceed|exceed|succeed|breed|bleed|embed|excited|interested|tired|bored|scared|worried|stressed|thrilled|pleased|relieved|amazed|obsessed|motivated|inspired|overwhelmed|exhausted|surprised|blessed|supposed|used|scheduled)))\b/gi

function tenseOf(text: string): Tense {
  const future = text.match(futureCue)?.length ?? 0
  const past = text.match(pastCue)?.length ?? 0
  // As many cues each way ("getting ready for the interview on May 12; the letter I submitted"): no tense decides.
  if (future === past) return 'none'
  return future > past ? 'future' : 'past'
}

/** The most recent (past) or next (future) occurrence of a year-less month and day. */
function yearlessDay(month: number, day: number, reference: DayNumber, tense: Tense): DayNumber | null {
  const referenceYear = partsOf(reference).year
  const candidates = [
    referenceYear - 4,
    referenceYear - 3,
    referenceYear - 2,
    referenceYear - 1,
    referenceYear,
  ]
    .concat([referenceYear + 1, referenceYear + 2, referenceYear + 3, referenceYear + 4])
    .filter((year) => isValidDay(year, month, day))
    .map((year) => dayNumber(year, month, day))
  if (tense === 'future') return candidates.find((candidate) => candidate >= reference) ?? null
  if (tense === 'past') return candidates.filter((candidate) => candidate <= reference).pop() ?? null
  // Without a tense, the occurrence nearest the day it was written: "the interview is on May 12" a week before.
  let nearest: DayNumber | null = null
  for (const candidate of candidates)
    if (nearest === null || Math.abs(candidate - reference) < Math.abs(nearest - reference))
      nearest = candidate
  return nearest
}

function yearlessMonth(month: number, reference: DayNumber, tense: Tense): Period {
  const parts = partsOf(reference)
  const referenceIndex = parts.year * 12 + parts.month - 1
  const thisYearIndex = parts.year * 12 + month - 1
  if (tense === 'future')
    return monthPeriod(thisYearIndex >= referenceIndex ? thisYearIndex : thisYearIndex + 12)
  return monthPeriod(thisYearIndex <= referenceIndex ? thisYearIndex : thisYearIndex - 12)
}

const monthPattern =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec'

function monthNumberOf(word: string): number | null {
  const prefix = word.toLowerCase().slice(0, 3)
  const index = monthNames.findIndex((name) => name.toLowerCase().startsWith(prefix))
  return index < 0 ? null : index + 1
}

/** "May" and the three-letter abbreviations are ordinary words in lower case ("I may", "mar the view"). */
function isMonthSpelling(word: string): boolean {
  if (/^[A-Z]/.test(word)) return true
  return word.length > 3 && word.toLowerCase() !== 'may'
}

interface Candidate {
  start: number
  end: number
  period: Period
  approximate: boolean
  /** The expression carries its full date already; appending the resolution would only repeat it. */
  explicit: boolean
  /** The expression names no year or no direction ("May 7", "in June", "on Friday"): the tense picked one. */
  guessed?: boolean
}

interface Matcher {
  pattern: RegExp
  resolve: (
    match: RegExpExecArray,
    reference: DayNumber,
    tense: Tense,
  ) => Omit<Candidate, 'start' | 'end'> | null
  /** Index of the capture group that is the expression, when the pattern also matches leading context. */
  expressionGroup?: number
}

const relative = (period: Period, approximate = false) => ({ period, approximate, explicit: false })
const guessed = (period: Period) => ({ period, approximate: false, explicit: false, guessed: true })
const possessive = `(?:['’]s)?`
const quantity = `(?:\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|(?:a\\s+)?couple(?:\\s+of)?|(?:a\\s+)?few|several)`
const direction = `(last|this\\s+past|this\\s+coming|this|next)`
const weekdayPattern = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday'

const matchers: Matcher[] = [
  {
    pattern: /\b(?:the\s+)?day\s+before\s+yesterday\b/gi,
    resolve: (_match, reference) => relative(dayPeriod(reference - 2)),
  },
  {
    pattern: /\b(?:the\s+)?day\s+after\s+tomorrow\b/gi,
    resolve: (_match, reference) => relative(dayPeriod(reference + 2)),
  },
  {
    pattern: new RegExp(
      `\\b(?:yesterday(?:\\s+(?:morning|afternoon|evening|night))?|last\\s+night)${possessive}(?![\\w'’])`,
      'gi',
    ),
    resolve: (_match, reference) => relative(dayPeriod(reference - 1)),
  },
  {
    pattern: new RegExp(
      `\\b(?:today|tonight|this\\s+(?:morning|afternoon|evening))${possessive}(?![\\w'’])`,
      'gi',
    ),
    resolve: (_match, reference) => relative(dayPeriod(reference)),
  },
  {
    pattern: new RegExp(
      `\\btomorrow(?:\\s+(?:morning|afternoon|evening|night))?${possessive}(?![\\w'’])`,
      'gi',
    ),
    resolve: (_match, reference) => relative(dayPeriod(reference + 1)),
  },
  {
    pattern: new RegExp(`\\b${direction}\\s+(week|weekend|month|year)${possessive}(?![\\w'’])`, 'gi'),
    resolve: (match, reference) => {
      const step = { last: -1, this: 0, next: 1 }[directionOf(match[1] ?? '')]
      const parts = partsOf(reference)
      switch ((match[2] ?? '').toLowerCase()) {
        case 'week':
          return relative(weekPeriod(reference + 7 * step))
        case 'weekend':
          return relative(weekendPeriod(mondayOf(reference) + 5 + 7 * step))
        case 'month':
          return relative(monthPeriod(parts.year * 12 + parts.month - 1 + step))
        default:
          return relative(yearPeriod(parts.year + step))
      }
    },
  },
  {
    pattern: /\b(?:over|on|during)\s+the\s+weekend\b/gi,
    resolve: (_match, reference, tense) => {
      const saturday = mondayOf(reference) + 5
      const isWeekend = reference >= saturday
      if (tense === 'future') return relative(weekendPeriod(isWeekend ? saturday + 7 : saturday))
      return relative(weekendPeriod(isWeekend ? saturday : saturday - 7))
    },
  },
  {
    pattern: new RegExp(
      `\\b${direction}\\s+(spring|summer|fall|autumn|winter)${possessive}(?![\\w'’])`,
      'gi',
    ),
    resolve: (match, reference) =>
      relative(
        seasonRelativeTo(
          (match[2] ?? '').toLowerCase() as SeasonName,
          directionOf(match[1] ?? ''),
          reference,
        ),
      ),
  },
  {
    pattern: new RegExp(`\\b(last|this|next)\\s+(${weekdayPattern})\\b`, 'gi'),
    resolve: (match, reference, tense) => {
      const weekday = weekdayNames.indexOf((match[2] ?? '').toLowerCase() as (typeof weekdayNames)[number])
      const which = directionOf(match[1] ?? '')
      const mode =
        which === 'last'
          ? 'before'
          : which === 'next'
            ? 'after'
            : tense === 'past'
              ? 'onOrBefore'
              : 'onOrAfter'
      return relative(dayPeriod(weekdayRelativeTo(weekday, reference, mode)))
    },
  },
  {
    // Feast days named after weekdays are not that weekday; plurals ("on Fridays") are habits, not dates.
    pattern: new RegExp(
      `(?<!\\b(?:good|black|cyber|ash|palm|holy|easter|boxing|super\\s+bowl)\\s+)\\b(?:(on|by|until|till)\\s+)?(${weekdayPattern})(?:\\s+(?:morning|afternoon|evening|night))?\\b`,
      'gi',
    ),
    resolve: (match, reference, tense) => {
      const weekday = weekdayNames.indexOf((match[2] ?? '').toLowerCase() as (typeof weekdayNames)[number])
      // "by Friday", "until Friday" name a deadline, which lies ahead.
      const isDeadline = /^(?:by|until|till)$/i.test(match[1] ?? '')
      const ahead = isDeadline || tense === 'future'
      return guessed(dayPeriod(weekdayRelativeTo(weekday, reference, ahead ? 'after' : 'before')))
    },
  },
  {
    pattern: new RegExp(`\\b(last|this|next)\\s+(${monthPattern})\\b`, 'gi'),
    resolve: (match, reference) => {
      const spelled = match[2] ?? ''
      const month = monthNumberOf(spelled)
      if (month === null || !isMonthSpelling(spelled)) return null
      const parts = partsOf(reference)
      const thisYearIndex = parts.year * 12 + month - 1
      const referenceIndex = parts.year * 12 + parts.month - 1
      const which = directionOf(match[1] ?? '')
      if (which === 'this') return relative(monthPeriod(thisYearIndex))
      if (which === 'last')
        return relative(monthPeriod(thisYearIndex < referenceIndex ? thisYearIndex : thisYearIndex - 12))
      return relative(monthPeriod(thisYearIndex > referenceIndex ? thisYearIndex : thisYearIndex + 12))
    },
  },
  {
    pattern: new RegExp(`\\b(${quantity})\\s+(days?|weeks?|months?|years?)\\s+(?:ago|back)\\b`, 'gi'),
    resolve: (match, reference) => {
      const amount = quantityOf(match[1] ?? '')
      if (!amount) return null
      return relative(offsetPeriod(match[2] ?? '', -amount.value, reference), amount.approximate)
    },
  },
  {
    pattern: new RegExp(`\\bin\\s+(${quantity})\\s+(days?|weeks?|months?|years?)(?:['’]?\\s+time)?\\b`, 'gi'),
    resolve: (match, reference) => {
      const amount = quantityOf(match[1] ?? '')
      if (!amount) return null
      const unit = (match[2] ?? '').toLowerCase()
      // "in two weeks" names a day two weeks out, not a calendar week.
      const period = unit.startsWith('week')
        ? dayPeriod(reference + 7 * amount.value)
        : offsetPeriod(unit, amount.value, reference)
      return relative(period, amount.approximate)
    },
  },
  {
    pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/g,
    resolve: (match) => {
      const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
      return isValidDay(year, month, day) ? relative(dayPeriod(dayNumber(year, month, day))) : null
    },
  },
  {
    pattern: new RegExp(
      `\\b(${monthPattern})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4})\\b)?(?!:)`,
      'gi',
    ),
    resolve: (match, reference, tense) =>
      explicitDay(match[1] ?? '', match[2] ?? '', match[3], reference, deadlineOrTense(match, tense)),
  },
  {
    pattern: new RegExp(
      `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${monthPattern})\\b\\.?(?:,?\\s+(\\d{4})\\b)?`,
      'gi',
    ),
    resolve: (match, reference, tense) =>
      explicitDay(match[2] ?? '', match[1] ?? '', match[3], reference, deadlineOrTense(match, tense)),
  },
  {
    pattern: new RegExp(`\\b(${monthPattern})\\.?,?\\s+(?:of\\s+)?((?:19|20)\\d{2})\\b`, 'gi'),
    resolve: (match) => {
      const spelled = match[1] ?? ''
      const month = monthNumberOf(spelled)
      if (month === null || !isMonthSpelling(spelled)) return null
      return { period: monthPeriod(Number(match[2]) * 12 + month - 1), approximate: false, explicit: true }
    },
  },
  {
    pattern: /\b(spring|summer|fall|autumn|winter)\s+(?:of\s+)?((?:19|20)\d{2})\b/gi,
    resolve: (match) => ({
      period: seasonPeriod((match[1] ?? '').toLowerCase() as SeasonName, Number(match[2])),
      approximate: false,
      explicit: true,
    }),
  },
  {
    pattern: new RegExp(
      `\\b(?:in|during|since|by|until|till|early|late|mid-?)\\s+(${monthPattern})\\b(?!\\s+\\d)`,
      'gi',
    ),
    expressionGroup: 1,
    resolve: (match, reference, tense) => {
      const spelled = match[1] ?? ''
      const month = monthNumberOf(spelled)
      const isFullName = monthNames.some((name) => name === spelled)
      if (month === null || !isFullName) return null
      return guessed(yearlessMonth(month, reference, tense))
    },
  },
  {
    // A year in parentheses is a resolution written by an earlier pass ("last year (2022)").
    pattern: /\((?:around\s+)?((?:19|20)\d{2})\)/g,
    expressionGroup: 1,
    resolve: (match) => ({ period: yearPeriod(Number(match[1])), approximate: false, explicit: true }),
  },
  {
    pattern:
      /\b(?:in|since|during|from|until|till|by|of|around|circa|before|after|back\s+in|early|late|mid-?)\s+((?:19|20)\d{2})\b(?![-/:]\d)/gi,
    expressionGroup: 1,
    resolve: (match) => ({ period: yearPeriod(Number(match[1])), approximate: false, explicit: true }),
  },
]

/** "by February 1", "due May 3": a deadline lies ahead, whatever tense the sentence is in. */
function deadlineOrTense(match: RegExpExecArray, tense: Tense): Tense {
  const before = match.input.slice(Math.max(0, match.index - 12), match.index)
  return /\b(?:by|until|till|due)\s+(?:the\s+)?$/i.test(before) ? 'future' : tense
}

function explicitDay(
  spelledMonth: string,
  spelledDay: string,
  spelledYear: string | undefined,
  reference: DayNumber,
  tense: Tense,
): Omit<Candidate, 'start' | 'end'> | null {
  const month = monthNumberOf(spelledMonth)
  const day = Number(spelledDay)
  if (month === null || !isMonthSpelling(spelledMonth)) return null
  if (spelledYear !== undefined) {
    const year = Number(spelledYear)
    if (!isValidDay(year, month, day)) return null
    return { period: dayPeriod(dayNumber(year, month, day)), approximate: false, explicit: true }
  }
  const resolved = yearlessDay(month, day, reference, tense)
  return resolved === null ? null : guessed(dayPeriod(resolved))
}

const granularityRank: Record<DateGranularity, number> = {
  day: 0,
  weekend: 1,
  week: 2,
  month: 3,
  season: 4,
  year: 5,
}

/** "every Sunday", "each May", "every other Friday": a habit, not a date; pinning it to one day would be false. */
const recurrenceBefore = /\b(?:every(?:\s+other|\s+single)?|each)\s+$/i

function candidatesIn(text: string, reference: DayNumber, tense: Tense): Candidate[] {
  const found: Candidate[] = []
  for (const matcher of matchers) {
    matcher.pattern.lastIndex = 0
    for (let match = matcher.pattern.exec(text); match; match = matcher.pattern.exec(text)) {
      const resolved = matcher.resolve(match, reference, tense)
      if (!resolved) continue
      const group = matcher.expressionGroup
      const expression = group === undefined ? match[0] : (match[group] ?? match[0])
      const start = match.index + (group === undefined ? 0 : match[0].lastIndexOf(expression))
      if (recurrenceBefore.test(text.slice(Math.max(0, start - 24), start))) continue
      found.push({ ...resolved, start, end: start + expression.length })
    }
  }
  // Longest expression wins an overlap ("last Friday" over "Friday", "May 7, 2023" over "May 7").
  found.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start))
  const chosen: Candidate[] = []
  for (const candidate of found) {
    const previous = chosen[chosen.length - 1]
    if (previous && candidate.start < previous.end) {
      if (candidate.end - candidate.start > previous.end - previous.start)
        chosen[chosen.length - 1] = candidate
      continue
    }
    chosen.push(candidate)
  }
  return chosen
}

/**
 * Resolves the time expressions of `text` against `documentCreatedAt`. Relative and year-less expressions get their
 * resolution appended in parentheses ("yesterday (7 May 2023)"); explicit full dates are only reported. Text that
 * already carries a resolution right after an expression is left as it is, so resolving twice changes nothing.
 */
export function resolveDates(text: string, documentCreatedAt: string): DateResolution {
  const reference = parseReferenceDay(documentCreatedAt)
  if (reference === null) return { text, occurredOn: null, dates: [] }
  const candidates = candidatesIn(text, reference, tenseOf(text))
  let rewritten = ''
  let cursor = 0
  const dates: ResolvedDate[] = []
  for (const candidate of candidates) {
    // A resolution written by an earlier pass is part of the expression before it, not a date of its own.
    if (candidate.start < cursor) continue
    const label = candidate.approximate ? `around ${candidate.period.label}` : candidate.period.label
    dates.push({
      expression: text.slice(candidate.start, candidate.end),
      label,
      start: isoOf(candidate.period.start),
      granularity: candidate.period.granularity,
      approximate: candidate.approximate,
    })
    const existingAnnotation = /^\s*\([^()]*\d{4}[^()]*\)/.exec(text.slice(candidate.end))?.[0] ?? ''
    rewritten += text.slice(cursor, candidate.end + existingAnnotation.length)
    cursor = candidate.end + existingAnnotation.length
    if (!candidate.explicit && existingAnnotation === '') rewritten += ` (${label})`
  }
  rewritten += text.slice(cursor)
  return { text: rewritten, occurredOn: finestStartOf(dates), dates }
}

/** A resolution `resolveDates` appended: a parenthesis holding a year, after its expression. */
const appendedResolution = /\s*\([^()]*\d{4}[^()]*\)/g

/**
 * The text without the resolutions `resolveDates` appended ("two weeks ago (the week of 19 February 2024)" reads
 * "two weeks ago"): as its speaker said it, for readers learned from what people write, who never saw them.
 */
export function withoutResolvedDates(text: string): string {
  return text.replace(appendedResolution, '')
}

/**
 * The dates a text states in full ("7 May 2023", "May 2023", "in 2019", also the resolutions an earlier
 * `resolveDates` appended), for text that has no document date to resolve relative expressions against.
 */
export function explicitDatesIn(text: string): ResolvedDate[] {
  // Explicit expressions do not depend on the reference day; any valid day serves the matchers.
  return candidatesIn(text, dayNumber(2000, 1, 1), 'none')
    .filter((candidate) => candidate.explicit)
    .map((candidate) => ({
      expression: text.slice(candidate.start, candidate.end),
      label: candidate.period.label,
      start: isoOf(candidate.period.start),
      granularity: candidate.period.granularity,
      approximate: false,
    }))
}

/** A period a text names, from its first day to the day after its last (YYYY-MM-DD). */
export interface NamedPeriod {
  expression: string
  start: string
  end: string
  granularity: DateGranularity
}

/**
 * The periods a text names without a guess, against `reference` (an ISO date or date-time, read as its calendar day):
 * full dates and expressions relative to that day ("yesterday", "last week", "two years ago"), not the ones whose
 * year or direction only the tense could pick ("May 7", "in June", "on Friday").
 */
export function namedPeriodsIn(text: string, reference: string): NamedPeriod[] {
  const day = parseReferenceDay(reference)
  if (day === null) return []
  return candidatesIn(text, day, tenseOf(text))
    .filter((candidate) => !candidate.guessed)
    .map((candidate) => ({
      expression: text.slice(candidate.start, candidate.end),
      start: isoOf(candidate.period.start),
      end: isoOf(endOf(candidate.period)),
      granularity: candidate.period.granularity,
    }))
}

/** The start of the finest-grained date (the first among equals): a day says more than the week around it. */
export function finestStartOf(dates: readonly ResolvedDate[]): string | null {
  let finest: ResolvedDate | undefined
  for (const date of dates) {
    if (!finest || granularityRank[date.granularity] < granularityRank[finest.granularity]) finest = date
  }
  return finest?.start ?? null
}
