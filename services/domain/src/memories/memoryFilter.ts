import { metadataLimits } from '../documents/documents.js'
import { entityKey } from '../extraction/entityNames.js'
import { utcInstantOf } from '../timestamps.js'

/**
 * The filter language of memory search and list (docs/filters.md). A filter object is the AND of its keys; a key
 * is a logical operator (`and`, `or`, `not`) or a field, whose value is a scalar (equality) or an object of
 * comparisons. mem0's upper-case `AND` / `OR` / `NOT` and `icontains` are taken as they are, so filters written for
 * mem0 need no rewriting; the first version's keys (`types`, `entity_ids`, `created_after`, `created_before`,
 * `metadata`) keep their meaning.
 */
export type FilterScalar = string | number | boolean

export type FilterComparison =
  | { op: 'eq' | 'ne'; value: FilterScalar }
  | { op: 'in'; values: FilterScalar[] }
  /** A bound compares numbers as numbers and dates as instants (`value` then in UTC ISO form). */
  | { op: 'gt' | 'gte' | 'lt' | 'lte'; value: number | string; as: 'number' | 'date' }
  | { op: 'contains'; value: string }
  | { op: 'exists'; value: boolean }

export type FilterField =
  | 'type'
  | 'entity_id'
  | 'entity_name'
  | 'user_id'
  | 'customer_id'
  | 'document_type'
  | 'ingestion_id'
  | 'created_at'
  | 'updated_at'
  | 'valid_from'
  | 'valid_to'
  | 'expires_at'
  | 'feedback'
  | 'confidence'
  | 'content'
  | `metadata.${string}`

export type MemoryFilter =
  | { and: MemoryFilter[] }
  | { or: MemoryFilter[] }
  | { not: MemoryFilter }
  | { field: FilterField; comparison: FilterComparison }

export const filterLimits = {
  /** Nesting of and / or / not. */
  depth: 5,
  /** Field comparisons in the whole filter. */
  comparisons: 50,
  /** Members of one and / or. */
  branches: 20,
  /** Values of one `in`. */
  inValues: 100,
  /** Characters of one string value. */
  stringLength: 1_024,
} as const

type Operator = FilterComparison['op']
type FieldKind = 'keyword' | 'name' | 'date' | 'number' | 'text' | 'metadata'

const operatorsOf: Record<FieldKind, readonly Operator[]> = {
  keyword: ['eq', 'ne', 'in', 'exists'],
  name: ['eq', 'ne', 'in', 'contains', 'exists'],
  date: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists'],
  number: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'],
  text: ['contains'],
  metadata: ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists'],
}

const memoryTypes = ['fact', 'preference', 'episode', 'emotion', 'temporal_event'] as const
const feedbackRatings = ['positive', 'negative', 'very_negative'] as const

const fieldKinds: Record<Exclude<FilterField, `metadata.${string}`>, FieldKind> = {
  type: 'keyword',
  entity_id: 'keyword',
  entity_name: 'name',
  user_id: 'keyword',
  customer_id: 'keyword',
  document_type: 'keyword',
  ingestion_id: 'keyword',
  created_at: 'date',
  updated_at: 'date',
  valid_from: 'date',
  valid_to: 'date',
  expires_at: 'date',
  feedback: 'keyword',
  confidence: 'number',
  content: 'text',
}

/** The fields a filter names, for messages and the OpenAPI description. */
export const filterFields = [...Object.keys(fieldKinds), 'metadata.<key>[.<key>…]'] as const

const operatorAliases: Record<string, Operator> = { icontains: 'contains' }
const allOperators = new Set<string>([
  'eq',
  'ne',
  'in',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'exists',
  ...Object.keys(operatorAliases),
])
const logicalKeys: Record<string, 'and' | 'or' | 'not'> = {
  and: 'and',
  AND: 'and',
  or: 'or',
  OR: 'or',
  not: 'not',
  NOT: 'not',
}

/** What a value of one field must look like beyond its kind. */
const keywordRules: Partial<Record<FilterField, { check: (value: string) => boolean; says: string }>> = {
  type: {
    check: (value) => (memoryTypes as readonly string[]).includes(value),
    says: `must be one of: ${memoryTypes.join(', ')}`,
  },
  entity_id: { check: (value) => /^ent_[0-9a-f]+$/.test(value), says: 'must be an entity id (ent_…)' },
  feedback: {
    check: (value) => (feedbackRatings as readonly string[]).includes(value),
    says: `must be a rating: ${feedbackRatings.join(', ')}`,
  },
  ingestion_id: {
    check: (value) => /^ing_[0-9a-f]{32}$/.test(value),
    says: 'must be an ingestion id (ing_ and 32 hex digits)',
  },
}

class FilterProblem extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`)
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isScalar = (value: unknown): value is FilterScalar =>
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value))

/**
 * Parses a filter as the API receives it. Answers the filter (null when it is empty), or the first problem as a
 * field-level message: the path names the key at fault (`filters.or.1.metadata.price.gt`).
 */
export function parseMemoryFilter(
  raw: unknown,
  path = 'filters',
): { filter: MemoryFilter | null } | { fields: Record<string, string> } {
  let comparisons = 0
  const counted = (): void => {
    comparisons += 1
    if (comparisons > filterLimits.comparisons)
      throw new FilterProblem(path, `must hold at most ${String(filterLimits.comparisons)} comparisons`)
  }

  const stringValue = (value: unknown, at: string): string => {
    if (typeof value !== 'string') throw new FilterProblem(at, 'must be a string')
    if (value.length === 0 || value.length > filterLimits.stringLength)
      throw new FilterProblem(at, `must be 1–${String(filterLimits.stringLength)} characters`)
    return value
  }

  const scalarOf = (field: FilterField, kind: FieldKind, value: unknown, at: string): FilterScalar => {
    switch (kind) {
      case 'keyword':
      case 'name': {
        const text = stringValue(value, at)
        const rule = keywordRules[field]
        if (rule && !rule.check(text)) throw new FilterProblem(at, rule.says)
        return kind === 'name' ? entityKey(text) : text
      }
      case 'date': {
        const instant = utcInstantOf(value)
        if (instant === null)
          throw new FilterProblem(at, 'must be a date-time (RFC 3339) or a date (YYYY-MM-DD)')
        return instant
      }
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value))
          throw new FilterProblem(at, 'must be a number')
        return value
      case 'text':
        return stringValue(value, at)
      case 'metadata':
        if (!isScalar(value)) throw new FilterProblem(at, 'must be a string, a number or a boolean')
        if (typeof value === 'string') stringValue(value, at)
        return value
    }
  }

  const comparisonOf = (
    field: FilterField,
    kind: FieldKind,
    op: Operator,
    value: unknown,
    at: string,
  ): FilterComparison => {
    if (!operatorsOf[kind].includes(op)) {
      throw new FilterProblem(at, `is not a comparison of ${field}; it takes ${operatorsOf[kind].join(', ')}`)
    }
    switch (op) {
      case 'eq':
      case 'ne':
        return { op, value: scalarOf(field, kind, value, at) }
      case 'in': {
        if (!Array.isArray(value) || value.length === 0 || value.length > filterLimits.inValues)
          throw new FilterProblem(at, `must be a list of 1–${String(filterLimits.inValues)} values`)
        return {
          op,
          values: value.map((item, index) => scalarOf(field, kind, item, `${at}.${String(index)}`)),
        }
      }
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        if (kind === 'number' || (kind === 'metadata' && typeof value === 'number')) {
          if (typeof value !== 'number' || !Number.isFinite(value))
            throw new FilterProblem(at, 'must be a number')
          return { op, value, as: 'number' }
        }
        const instant = utcInstantOf(value)
        if (instant === null) {
          throw new FilterProblem(
            at,
            kind === 'metadata'
              ? 'must be a number or a date-time (RFC 3339) or a date (YYYY-MM-DD)'
              : 'must be a date-time (RFC 3339) or a date (YYYY-MM-DD)',
          )
        }
        return { op, value: instant, as: 'date' }
      }
      case 'contains':
        return { op, value: stringValue(value, at) }
      case 'exists':
        if (typeof value !== 'boolean') throw new FilterProblem(at, 'must be true or false')
        return { op, value }
    }
  }

  /** A field's value: a scalar means equality; an object holds comparisons, all of which must hold. */
  const conditionOf = (field: FilterField, kind: FieldKind, value: unknown, at: string): MemoryFilter => {
    if (!isPlainObject(value)) {
      counted()
      return { field, comparison: comparisonOf(field, kind, 'eq', value, at) }
    }
    const entries = Object.entries(value)
    if (entries.length === 0) throw new FilterProblem(at, 'must hold at least one comparison')
    const parts = entries.map(([name, operand]): MemoryFilter => {
      const op = operatorAliases[name] ?? name
      if (!allOperators.has(op)) throw new FilterProblem(`${at}.${name}`, 'is not a known comparison')
      counted()
      return { field, comparison: comparisonOf(field, kind, op as Operator, operand, `${at}.${name}`) }
    })
    return parts.length === 1 ? (parts[0] as MemoryFilter) : { and: parts }
  }

  const metadataPath = (key: string, at: string): string => {
    const segments = key.split('.')
    if (
      segments.length > metadataLimits.depth ||
      segments.some((segment) => segment.length === 0 || segment.length > metadataLimits.keyLength)
    ) {
      throw new FilterProblem(
        at,
        `must be a metadata key path of at most ${String(metadataLimits.depth)} keys of 1–${String(metadataLimits.keyLength)} characters`,
      )
    }
    return segments.join('.')
  }

  /** `metadata: {key: value | comparisons | {nested: …}}`: an object that is not all comparisons goes a level down. */
  const metadataConditions = (value: unknown, prefix: string, at: string): MemoryFilter[] => {
    if (!isPlainObject(value) || Object.keys(value).length === 0)
      throw new FilterProblem(
        at,
        'must be an object of metadata keys and the values or comparisons they must meet',
      )
    return Object.entries(value).flatMap(([key, condition]) => {
      const keyPath = metadataPath(prefix === '' ? key : `${prefix}.${key}`, `${at}.${key}`)
      const nested =
        isPlainObject(condition) &&
        Object.keys(condition).length > 0 &&
        Object.keys(condition).every((name) => !allOperators.has(name))
      return nested
        ? metadataConditions(condition, keyPath, `${at}.${key}`)
        : [conditionOf(`metadata.${keyPath}`, 'metadata', condition, `${at}.${key}`)]
    })
  }

  /** The first version's keys, with the meaning they had. */
  const legacyCondition = (key: string, value: unknown, at: string): MemoryFilter[] | null => {
    switch (key) {
      case 'types':
      case 'entity_ids': {
        const field = key === 'types' ? 'type' : 'entity_id'
        counted()
        return [{ field, comparison: comparisonOf(field, 'keyword', 'in', value, at) }]
      }
      case 'created_after':
      case 'created_before':
        counted()
        return [
          {
            field: 'created_at',
            comparison: comparisonOf('created_at', 'date', key === 'created_after' ? 'gt' : 'lt', value, at),
          },
        ]
      case 'metadata':
        // An empty object asked for nothing in the first version; it still asks for nothing.
        return isPlainObject(value) && Object.keys(value).length === 0
          ? []
          : metadataConditions(value, '', at)
      default:
        return null
    }
  }

  const filterOf = (value: unknown, at: string, depth: number): MemoryFilter[] => {
    if (!isPlainObject(value)) throw new FilterProblem(at, 'must be a filter object')
    if (depth > filterLimits.depth)
      throw new FilterProblem(at, `nests and / or / not more than ${String(filterLimits.depth)} levels deep`)
    return Object.entries(value).flatMap(([key, operand]): MemoryFilter[] => {
      const here = `${at}.${key}`
      const logical = logicalKeys[key]
      if (logical === 'not') {
        // mem0 writes NOT over a list: none of them holds.
        const members = Array.isArray(operand)
          ? branchesOf(operand, here, depth)
          : filterOf(operand, here, depth + 1)
        if (members.length === 0) throw new FilterProblem(here, 'must not be empty')
        if (members.length === 1) return [{ not: members[0] as MemoryFilter }]
        return [{ not: Array.isArray(operand) ? { or: members } : { and: members } }]
      }
      if (logical !== undefined) {
        if (!Array.isArray(operand)) throw new FilterProblem(here, 'must be a list of filter objects')
        const members = branchesOf(operand, here, depth)
        return [logical === 'and' ? { and: members } : { or: members }]
      }
      const legacy = legacyCondition(key, operand, here)
      if (legacy) return legacy
      if (key.startsWith('metadata.'))
        return [
          conditionOf(
            `metadata.${metadataPath(key.slice('metadata.'.length), here)}`,
            'metadata',
            operand,
            here,
          ),
        ]
      const kind = (fieldKinds as Record<string, FieldKind | undefined>)[key]
      if (kind === undefined)
        throw new FilterProblem(here, `is not a known field; filters name ${filterFields.join(', ')}`)
      return [conditionOf(key as FilterField, kind, operand, here)]
    })
  }

  const branchesOf = (operand: unknown[], at: string, depth: number): MemoryFilter[] => {
    if (operand.length === 0 || operand.length > filterLimits.branches)
      throw new FilterProblem(at, `must be a list of 1–${String(filterLimits.branches)} filter objects`)
    return operand.map((member, index) => {
      const parts = filterOf(member, `${at}.${String(index)}`, depth + 1)
      if (parts.length === 0) throw new FilterProblem(`${at}.${String(index)}`, 'must not be empty')
      return parts.length === 1 ? (parts[0] as MemoryFilter) : { and: parts }
    })
  }

  try {
    if (raw === undefined) return { filter: null }
    const parts = filterOf(raw, path, 1)
    if (parts.length === 0) return { filter: null }
    return { filter: parts.length === 1 ? (parts[0] as MemoryFilter) : { and: parts } }
  } catch (error) {
    if (error instanceof FilterProblem) return { fields: { [error.path]: error.problem } }
    throw error
  }
}

/** A metadata leaf as the index compares it: strings by their text, numbers as numbers, date-like strings as instants. */
export interface TypedMetadataValue {
  path: string
  text?: string
  number?: number
  date?: string
}

/**
 * Every string, number and date of a memory's metadata with its key path. The metadata field itself (flattened)
 * holds every value as a keyword, which compares numbers as text and cannot look inside a string; these copies can.
 */
export function typedMetadataValues(metadata: Record<string, unknown> | undefined): TypedMetadataValue[] {
  const values: TypedMetadataValue[] = []
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'number' && Number.isFinite(value)) values.push({ path, number: value })
    else if (typeof value === 'string') {
      const instant = utcInstantOf(value)
      values.push(instant === null ? { path, text: value } : { path, text: value, date: instant })
    } else if (Array.isArray(value)) for (const item of value) visit(item, path)
    else if (isPlainObject(value))
      for (const [key, child] of Object.entries(value)) visit(child, path === '' ? key : `${path}.${key}`)
  }
  visit(metadata ?? {}, '')
  return values
}
