/**
 * Natural fact changes (issue 30): people who said one thing about themselves and months later another, in words
 * nobody who writes the rules wrote. A set is a JSON file written by an independent writer (test/eval/data/):
 * per person an attribute, what they said first, two messages of chatter in between, what they said later, and a
 * question about the attribute now. Some people are traps: the later message only sounds like a change (a visit,
 * a plan, a friend's news), so the first value still holds.
 *
 * Pure (no I/O but reading the file, no engine), so the loading and the judging are tested on their own.
 */
import { readFileSync } from 'node:fs'

export interface Statement {
  /** YYYY-MM-DD */
  date: string
  text: string
  value: string
  aliases: string[]
}

export interface FactChangeItem {
  id: string
  person: string
  attribute: string
  favoriteOf: string | null
  /** False for a trap: the later message states no change, `after.value` is `before.value`. */
  change: boolean
  before: Statement
  chatter: { date: string; text: string }[]
  after: Statement
  question: string
}

export interface FactChangeSet {
  writer: string
  items: FactChangeItem[]
}

const isDate = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))

function checkStatement(value: unknown, where: string): Statement {
  const statement = value as Partial<Statement> | null
  if (!statement || !isDate(statement.date)) throw new Error(`${where}: date must be YYYY-MM-DD`)
  if (typeof statement.text !== 'string' || statement.text.trim() === '')
    throw new Error(`${where}: text is empty`)
  if (typeof statement.value !== 'string' || statement.value.trim() === '')
    throw new Error(`${where}: value is empty`)
  const aliases = Array.isArray(statement.aliases) ? statement.aliases.map(String) : []
  const result = { date: statement.date, text: statement.text, value: statement.value, aliases }
  if (!statesValue(result.text, valuesOf(result)))
    throw new Error(`${where}: the text does not state its value`)
  return result
}

/** Reads and checks a set: every date readable and in order, every value stated by its text. */
export function loadFactChangeSet(path: string): FactChangeSet {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { writer?: unknown; items?: unknown }
  if (!Array.isArray(raw.items)) throw new Error(`${path}: no items`)
  const ids = new Set<string>()
  const items = raw.items.map((value, index): FactChangeItem => {
    const item = value as Partial<FactChangeItem>
    const where = `${path} item ${String(index)} (${String(item.id)})`
    if (typeof item.id !== 'string' || ids.has(item.id)) throw new Error(`${where}: missing or repeated id`)
    ids.add(item.id)
    if (
      typeof item.person !== 'string' ||
      typeof item.attribute !== 'string' ||
      typeof item.question !== 'string'
    )
      throw new Error(`${where}: person, attribute and question are required`)
    const before = checkStatement(item.before, `${where} before`)
    const after = checkStatement(item.after, `${where} after`)
    const chatter = (Array.isArray(item.chatter) ? item.chatter : []).map((message, position) => {
      if (!isDate(message.date) || typeof message.text !== 'string')
        throw new Error(`${where} chatter ${String(position)}: date and text are required`)
      return { date: message.date, text: message.text }
    })
    if (before.date >= after.date) throw new Error(`${where}: the later statement is not later`)
    const change = item.change !== false
    if (!change && normalizedValue(before.value) !== normalizedValue(after.value))
      throw new Error(`${where}: a trap keeps its value`)
    return {
      id: item.id,
      person: item.person,
      attribute: item.attribute,
      favoriteOf: typeof item.favoriteOf === 'string' ? item.favoriteOf : null,
      change,
      before,
      chatter,
      after,
      question: item.question,
    }
  })
  return { writer: typeof raw.writer === 'string' ? raw.writer : '', items }
}

const normalizedValue = (value: string) =>
  value
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

export function valuesOf(statement: Pick<Statement, 'value' | 'aliases'>): string[] {
  return [statement.value, ...statement.aliases]
}

/** Whether a text names one of the values, as whole words, whatever the case and accents. */
export function statesValue(text: string, values: readonly string[]): boolean {
  const haystack = ` ${normalizedValue(text)} `
  return values.some((value) => {
    const needle = normalizedValue(value)
    return needle !== '' && haystack.includes(` ${needle} `)
  })
}

/** The value that holds after the later message: the new one, or for a trap the first one. */
export const currentValues = (item: FactChangeItem) => valuesOf(item.change ? item.after : item.before)

/**
 * A moment when the first value surely held: soon after it was said (two weeks, or a quarter of the time to the
 * later message when that is shorter). Not the eve of the later message: "I've been at Stripe for a month now" dates
 * the change a month before it was said.
 */
export function momentBefore(item: FactChangeItem): string {
  const said = Date.parse(`${item.before.date}T12:00:00Z`)
  const gap = Date.parse(`${item.after.date}T12:00:00Z`) - said
  return new Date(said + Math.min(14 * 86_400_000, gap / 4)).toISOString()
}
