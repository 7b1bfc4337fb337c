/**
 * Which parts of an event carry a person's content, read from the event's own JSON Schema: the schema names its data
 * subject (`x-data-subject`: JSON pointers to the instance and the user) and marks each property that is theirs
 * (`x-personal`: `sealed` is encrypted with the subject's key, `pseudonym` is replaced by a keyed pseudonym). The
 * marks live beside the types so a new personal field is marked where it is declared, and the wire schema of a sealed
 * record is derived from the same file.
 */

type SchemaNode = {
  type?: string | string[]
  properties?: Record<string, SchemaNode>
  required?: string[]
  'x-personal'?: 'sealed' | 'pseudonym'
  'x-data-subject'?: { instance: string; user: string }
  [keyword: string]: unknown
}

export interface PersonalContentPlan {
  /** Path segments of the instance id and of the user id: together, the data subject. */
  subject: { instance: string[]; user: string[] }
  /** Properties encrypted with the subject's key, as path segments through `properties`. */
  sealed: string[][]
  /** Properties replaced by the subject's pseudonym. */
  pseudonyms: string[][]
}

/** The property of a sealed record that holds its personal content, encrypted. */
export const SEALED_PROPERTY = 'sealed'

/** The subject under which the wire schema of a sealed record is registered. */
export const sealedSubjectOf = (subject: string) => `${subject}-sealed`

const segmentsOf = (pointer: string) => pointer.split('/').slice(1)
const pointerOf = (segments: string[]) => `/${segments.join('/')}`

/** The plan of an event schema, or undefined when the schema names no data subject. */
export function personalContentPlanOf(schema: Record<string, unknown>): PersonalContentPlan | undefined {
  const root = schema as SchemaNode
  const subject = root['x-data-subject']
  if (!subject) return undefined
  const plan: PersonalContentPlan = {
    subject: { instance: segmentsOf(subject.instance), user: segmentsOf(subject.user) },
    sealed: [],
    pseudonyms: [],
  }
  const walk = (node: SchemaNode, path: string[]) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const mark = child['x-personal']
      if (mark === 'sealed') plan.sealed.push([...path, name])
      else if (mark === 'pseudonym') plan.pseudonyms.push([...path, name])
      else walk(child, [...path, name])
    }
  }
  walk(root, [])
  return plan
}

/**
 * The schema a sealed record is written with: the plaintext schema without its sealed properties (neither declared
 * nor required), and a required `sealed` object with the key reference and the ciphertext. Consumers outside the
 * service read every other field as before.
 */
export function sealedSchemaOf(
  schema: Record<string, unknown>,
  plan: PersonalContentPlan,
): Record<string, unknown> {
  const copy = structuredClone(schema) as SchemaNode
  for (const path of plan.sealed) {
    let parent: SchemaNode | undefined = copy
    for (const segment of path.slice(0, -1)) parent = parent?.properties?.[segment]
    const name = path[path.length - 1] ?? ''
    if (!parent?.properties) continue
    Reflect.deleteProperty(parent.properties, name)
    if (parent.required) parent.required = parent.required.filter((required) => required !== name)
  }
  copy.properties = {
    ...copy.properties,
    [SEALED_PROPERTY]: {
      description:
        "The record's personal content (JSON of the removed properties by JSON pointer), encrypted with AES-256-GCM under its data subject's key; unreadable once the subject is erased.",
      type: 'object',
      additionalProperties: false,
      required: ['key', 'data'],
      properties: {
        key: { type: 'string', pattern: '^[0-9a-f]{32}\\.[0-9a-f]{16}$' },
        data: { type: 'string', contentEncoding: 'base64' },
      },
    },
  }
  copy.required = [...(copy.required ?? []), SEALED_PROPERTY]
  copy.$id = `${typeof copy.$id === 'string' ? copy.$id : 'event'}.sealed`
  return copy
}

export function valueAt(payload: unknown, path: string[]): unknown {
  let node: unknown = payload
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[segment]
  }
  return node
}

/** The instance and user a payload belongs to, or undefined for content of no user (instance or customer wide). */
export function dataSubjectOf(
  payload: unknown,
  plan: PersonalContentPlan,
): { instanceId: string; userId: string } | undefined {
  const instanceId = valueAt(payload, plan.subject.instance)
  const userId = valueAt(payload, plan.subject.user)
  return typeof instanceId === 'string' && typeof userId === 'string' && userId !== ''
    ? { instanceId, userId }
    : undefined
}

/**
 * A copy of `payload` with a fresh object on every level of `path` above its leaf, and the leaf replaced by `value`
 * (or left out when `value` is undefined). Leaving a property out of a copy, rather than deleting it, keeps the
 * objects in V8's fast shape, which the record's serialization pays for otherwise.
 */
function replacedAt(
  payload: Record<string, unknown>,
  path: string[],
  value: unknown,
): Record<string, unknown> {
  const [name = '', ...rest] = path
  const copy: Record<string, unknown> = {}
  for (const key in payload) {
    if (key !== name) copy[key] = payload[key]
    else if (rest.length > 0) {
      const child = payload[key]
      copy[key] =
        child !== null && typeof child === 'object'
          ? replacedAt(child as Record<string, unknown>, rest, value)
          : child
    } else if (value !== undefined) copy[key] = value
  }
  return copy
}

/**
 * Splits a payload into what stays readable and the personal content taken out of it (by JSON pointer), with each
 * pseudonym property replaced. The payload itself is not changed.
 */
export function takePersonalContent(
  payload: Record<string, unknown>,
  plan: PersonalContentPlan,
  pseudonym: string,
): { readable: Record<string, unknown>; taken: Record<string, unknown> } {
  let readable = payload
  const taken: Record<string, unknown> = {}
  for (const path of plan.sealed) {
    const value = valueAt(readable, path)
    if (value === undefined) continue
    taken[pointerOf(path)] = value
    readable = replacedAt(readable, path, undefined)
  }
  for (const path of plan.pseudonyms) {
    if (typeof valueAt(readable, path) !== 'string') continue
    readable = replacedAt(readable, path, pseudonym)
  }
  return { readable, taken }
}

function parentOf(payload: Record<string, unknown>, path: string[]): Record<string, unknown> | undefined {
  const parent = valueAt(payload, path.slice(0, -1))
  return parent !== null && typeof parent === 'object' ? (parent as Record<string, unknown>) : undefined
}

/** Puts personal content taken by {@link takePersonalContent} back in place (into `payload`, which is changed). */
export function restorePersonalContent(
  payload: Record<string, unknown>,
  taken: Record<string, unknown>,
): void {
  for (const [pointer, value] of Object.entries(taken)) {
    const path = segmentsOf(pointer)
    const parent = parentOf(payload, path)
    if (parent) parent[path[path.length - 1] ?? ''] = value
  }
}
