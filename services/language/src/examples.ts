/**
 * The labelled examples the readers learn from, as data (data/examples/*.jsonl): chat messages by independent
 * writers who saw neither the code nor an evaluation set, each with the attribute it is about, the words that name
 * its value (and the value it replaced), and its stance — the writer's own current value, or one of the cases that
 * change nothing. Questions about a person's attribute are examples too (*.questions.jsonl).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** What a message says of the attribute it mentions. */
export const stances = [
  'current',
  'other_person',
  'plan',
  'trip',
  'past',
  'negation',
  'question',
  'hypothetical',
  'also',
] as const
export type Stance = (typeof stances)[number]

export interface AttributeDefinition {
  name: string
  description: string
  /** What kind of words name a value. */
  value: string
  /** People hold several at once (pets, hobbies): a new one replaces an old one only when the message says so. */
  several?: boolean
}

const dataDirectory = fileURLToPath(new URL('../data/', import.meta.url))
/** The labelled examples' folder (data/examples). */
export const examplesDirectory = `${dataDirectory}examples/`

export const attributeCatalogue: readonly AttributeDefinition[] = (
  JSON.parse(readFileSync(`${dataDirectory}attributes.json`, 'utf8')) as { attributes: AttributeDefinition[] }
).attributes
export const attributeNames: readonly string[] = attributeCatalogue.map(({ name }) => name)
export const isAttributeName = (name: string): boolean => attributeNames.includes(name)
/** Whether people hold several values of the attribute at once. */
export const holdsSeveral = (name: string): boolean =>
  attributeCatalogue.find((attribute) => attribute.name === name)?.several === true

export interface LabelledMessage {
  text: string
  attribute: string | null
  value: string | null
  previous: string | null
  stance: Stance | 'none'
  writer: string
}

export interface LabelledQuestion {
  text: string
  attribute: string | null
  writer: string
}

function linesOf(file: string): unknown[] {
  return readFileSync(`${examplesDirectory}${file}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as unknown
      } catch {
        throw new Error(`${file}:${String(index + 1)} is not JSON`)
      }
    })
}

/** Every labelled message, checked: a known attribute and stance, values that are words of the message. */
export function labelledMessages(): LabelledMessage[] {
  const files = readdirSync(examplesDirectory)
    .filter((file) => file.endsWith('.jsonl') && !file.endsWith('.questions.jsonl'))
    .sort()
  return files.flatMap((file) =>
    linesOf(file).map((line, index) =>
      checkedMessage(line as UncheckedMessage, `${file}:${String(index + 1)}`),
    ),
  )
}

/** Every labelled question. */
export function labelledQuestions(): LabelledQuestion[] {
  const files = readdirSync(examplesDirectory)
    .filter((file) => file.endsWith('.questions.jsonl'))
    .sort()
  return files.flatMap((file) =>
    linesOf(file).map((line, index) => {
      const question = line as LabelledQuestion
      if (
        typeof question.text !== 'string' ||
        (question.attribute !== null && !isAttributeName(question.attribute))
      )
        throw new Error(`${file}:${String(index + 1)}: unknown attribute ${String(question.attribute)}`)
      return { text: question.text, attribute: question.attribute, writer: question.writer }
    }),
  )
}

/** A line as read from a file: what it holds is checked before it is used. */
type UncheckedMessage = { [Field in keyof LabelledMessage]?: unknown }

function checkedMessage(message: UncheckedMessage, where: string): LabelledMessage {
  const { text, attribute, value, previous, stance, writer } = message
  if (typeof text !== 'string' || text.trim() === '') throw new Error(`${where}: no text`)
  if (typeof stance !== 'string' || (stance !== 'none' && !(stances as readonly string[]).includes(stance)))
    throw new Error(`${where}: unknown stance ${JSON.stringify(stance)}`)
  if (attribute !== null && (typeof attribute !== 'string' || !isAttributeName(attribute)))
    throw new Error(`${where}: unknown attribute ${JSON.stringify(attribute)}`)
  for (const words of [value, previous])
    if (words !== null && words !== undefined && (typeof words !== 'string' || !text.includes(words)))
      throw new Error(`${where}: ${JSON.stringify(words)} is not in the text`)
  return {
    text,
    attribute,
    value: typeof value === 'string' ? value : null,
    previous: typeof previous === 'string' ? previous : null,
    stance: attribute === null ? 'none' : (stance as Stance),
    writer: typeof writer === 'string' ? writer : 'unknown',
  }
}
