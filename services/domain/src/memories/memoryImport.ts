import { createHash } from 'node:crypto'
import type { Document, DocumentAccepted } from '@memory-service/contracts'
import { validateDocument } from '../documents/documents.js'
import { utcInstantOf } from '../timestamps.js'
import { memoryTypes, type MemoryType } from '../extraction/extraction.js'
import { expiryOfExpirationDate } from './expiry.js'

export type ImportFormat = NonNullable<DocumentAccepted['imported']>['format']
export type ImportedMemory = NonNullable<DocumentAccepted['imported']>

/** A record taken in: the document the pipeline stores as one memory as given (`imported`), under its source's id. */
export interface ImportDocument extends Document {
  document_id: string
  imported: ImportedMemory
}

export type ImportedRecord =
  | { externalId: string; document: ImportDocument }
  | { externalId: string; skipped: string }
  | { fields: Record<string, string> }

export const importLimits = { records: 1_000, contentLength: 20_000 } as const

/** The envelope keys records may come under: ours, then the source systems' own (docs/api/import.md). */
const envelopeKeys = ['records', 'results', 'memories', 'edges', 'relevant_facts', 'messages'] as const

/**
 * The records of a JSON body: a list, or the lists an envelope holds under its record keys, one after the other in
 * the order of `envelopeKeys` (a Zep session's memory holds `relevant_facts` and `messages`); other keys of the
 * envelope, such as mem0's `count` / `next` or Zep's `context`, are ignored.
 */
export function recordsOf(body: unknown): { records: unknown[] } | { fields: Record<string, string> } {
  if (Array.isArray(body)) return { records: body }
  if (body === null || typeof body !== 'object')
    return { fields: { body: 'must be a list of records or an object holding one' } }
  const present = envelopeKeys.filter((key) => key in body)
  if (present.length === 0)
    return { fields: { body: `must hold its records under one of ${envelopeKeys.join(', ')}` } }
  const records: unknown[] = []
  for (const key of present) {
    const list = (body as Record<string, unknown>)[key]
    if (!Array.isArray(list)) return { fields: { [key]: 'must be a list of records' } }
    records.push(...(list as unknown[]))
  }
  return { records }
}

type Raw = Record<string, unknown>

/** A value the source left empty: null, an empty string, or the string "None" mem0's exports write for it. */
const isAbsent = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || value === 'None'
const present = (record: Raw, key: string): unknown => (isAbsent(record[key]) ? undefined : record[key])

/** The value when it is a plain object, else nothing to spread. */
const objectOr = (value: unknown): object =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}

/** The source's own fields kept on the memory, without the empty ones. */
function kept(record: Raw, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.flatMap((key) => (isAbsent(record[key]) ? [] : [[key, record[key]]])))
}

interface Mapped {
  externalId: unknown
  content: unknown
  /** The record's key the content came from, for messages that name it. */
  contentKey: string
  type?: unknown
  confidence?: unknown
  userId?: unknown
  customerId?: unknown
  createdAt?: unknown
  validFrom?: unknown
  validTo?: unknown
  /** When the memory expires, as the source says it (the key it came under: `expiresKey`). */
  expiresAt?: unknown
  expiresKey?: string
  metadata?: unknown
  embedding?: unknown
  feedback?: unknown
  skipped?: string
}

/** Our own format, as the export writes it (docs/api/import.md). */
function fromMemoryService(record: Raw): Mapped {
  return {
    externalId: present(record, 'external_id') ?? present(record, 'id'),
    content: record.content,
    contentKey: 'content',
    type: present(record, 'type'),
    confidence: present(record, 'confidence'),
    userId: present(record, 'user_id'),
    customerId: present(record, 'customer_id'),
    createdAt: present(record, 'created_at'),
    validFrom: present(record, 'valid_from'),
    validTo: present(record, 'valid_to'),
    expiresAt: present(record, 'expires_at'),
    expiresKey: 'expires_at',
    metadata: present(record, 'metadata'),
    embedding: present(record, 'embedding'),
    feedback: present(record, 'feedback'),
  }
}

/**
 * mem0: an item of get_all / GET /v1/memories / POST /v3/memories (`memory`), of a memory export with a list schema
 * or an OpenMemory backup line (`content`). mem0 has no memory types: `user_preferences` among the categories (or
 * metadata `type: preference`) is a preference, the rest is left to our categorizer. A memory mem0 replaced ended
 * when it was last updated; one its backup marks deleted is skipped.
 */
function fromMem0(record: Raw): Mapped {
  const categories = Array.isArray(record.categories) ? record.categories : []
  const metadata = present(record, 'metadata')
  const declaredType = metadata && typeof metadata === 'object' ? (metadata as Raw).type : undefined
  const replaced = !isAbsent(record.replaced_by) || record.state === 'archived'
  const expiration = present(record, 'expiration_date')
  const source = kept(record, [
    'id',
    'agent_id',
    'app_id',
    'run_id',
    'session_id',
    'actor_id',
    'role',
    'hash',
    'categories',
    'replaced_by',
    'immutable',
    'state',
    'app',
    'updated_at',
  ])
  return {
    externalId: present(record, 'id'),
    content: present(record, 'memory') ?? record.content,
    contentKey: 'memory' in record ? 'memory' : 'content',
    ...(categories.includes('user_preferences') || declaredType === 'preference'
      ? { type: 'preference' }
      : {}),
    userId: present(record, 'user_id'),
    createdAt: present(record, 'created_at'),
    ...(replaced ? { validTo: present(record, 'updated_at') } : {}),
    // A plain date that counts in full: the memory expires at the next day's start, UTC.
    ...(expiration !== undefined
      ? {
          expiresAt:
            typeof expiration === 'string' ? (expiryOfExpirationDate(expiration) ?? expiration) : expiration,
        }
      : {}),
    expiresKey: 'expiration_date',
    metadata: { ...objectOr(metadata), mem0: source },
    ...(record.state === 'deleted' ? { skipped: 'deleted in the source (state: deleted)' } : {}),
  }
}

/**
 * Zep: an entity edge of a user graph (`fact`; v2 facts carry it as `content`) or a message (`role` and `content`,
 * stored as an episode). An edge held from `valid_at` until `invalid_at`; one Zep expired without saying when it
 * stopped being true ended when it was expired. Graphiti's `group_id` is the user.
 */
function fromZep(record: Raw): Mapped {
  const isMessage = !('fact' in record) && ('role' in record || 'role_type' in record)
  if (isMessage)
    return {
      externalId: present(record, 'uuid'),
      content: record.content,
      contentKey: 'content',
      type: 'episode',
      createdAt: present(record, 'created_at'),
      metadata: {
        ...objectOr(record.metadata),
        zep: kept(record, ['uuid', 'role', 'role_type', 'name', 'thread_id', 'session_id']),
      },
    }
  return {
    externalId: present(record, 'uuid'),
    content: present(record, 'fact') ?? record.content,
    contentKey: 'fact' in record ? 'fact' : 'content',
    userId: present(record, 'group_id'),
    createdAt: present(record, 'created_at'),
    validFrom: present(record, 'valid_at'),
    validTo: present(record, 'invalid_at') ?? present(record, 'expired_at'),
    metadata: {
      zep: kept(record, [
        'uuid',
        'name',
        'source_node_uuid',
        'target_node_uuid',
        'source_node_name',
        'target_node_name',
        'episodes',
        'attributes',
        'expired_at',
        'rating',
      ]),
    },
  }
}

const mappers: Record<ImportFormat, (record: Raw) => Mapped> = {
  'memory-service': fromMemoryService,
  mem0: fromMem0,
  zep: fromZep,
}

const idPattern = /^[A-Za-z0-9._:/@-]+$/

/** The document id an import claims: the source's id where it fits one, else its digest; always under the format. */
function documentIdOf(format: ImportFormat, externalId: string): string {
  const plain = `import:${format}:${externalId}`
  return idPattern.test(externalId) && plain.length <= 256
    ? plain
    : `import:${format}:sha256:${createHash('sha256').update(externalId).digest('hex')}`
}

// The document's fields as the record names them, for messages about the record.
const recordFieldOf: Record<string, string> = {
  document_created_at: 'created_at',
}

/**
 * One record in the named format as the document the pipeline stores as one memory, as given: no extraction, the
 * type, dates, validity and metadata of the record (the categorizer types what the record does not). Each problem
 * is reported under `records.<index>.<the record's key>`.
 */
export function importedRecordOf(
  format: ImportFormat,
  raw: unknown,
  index: number,
  defaults: { userId?: string; customerId?: string; now?: () => Date } = {},
): ImportedRecord {
  const at = (key: string) => `records.${String(index)}.${key}`
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { fields: { [`records.${String(index)}`]: 'must be an object' } }
  const mapped = mappers[format](raw as Raw)
  const fields: Record<string, string> = {}
  const idKey = format === 'zep' ? 'uuid' : format === 'mem0' ? 'id' : 'id'
  const externalId = typeof mapped.externalId === 'number' ? String(mapped.externalId) : mapped.externalId
  if (typeof externalId !== 'string' || externalId.length === 0 || externalId.length > 256)
    fields[at(idKey)] =
      'is required: the record’s id in its source (1–256 characters), which makes a re-import a no-op'
  if (typeof externalId === 'string' && mapped.skipped && Object.keys(fields).length === 0)
    return { externalId, skipped: mapped.skipped }
  if (typeof mapped.content !== 'string' || mapped.content.trim().length === 0)
    fields[at(mapped.contentKey)] = 'is required: the memory’s text'
  else if (mapped.content.length > importLimits.contentLength)
    fields[at(mapped.contentKey)] = `must be at most ${String(importLimits.contentLength)} characters`
  if (mapped.type !== undefined && !memoryTypes.includes(mapped.type as MemoryType))
    fields[at('type')] = `must be one of ${memoryTypes.join(', ')}`
  if (
    mapped.confidence !== undefined &&
    (typeof mapped.confidence !== 'number' || mapped.confidence < 0 || mapped.confidence > 1)
  )
    fields[at('confidence')] = 'must be a number from 0 to 1'
  const instants: Partial<Record<'created_at' | 'valid_from' | 'valid_to', string>> = {}
  const dateKeys =
    format === 'zep'
      ? { created_at: 'created_at', valid_from: 'valid_at', valid_to: 'invalid_at' }
      : format === 'mem0'
        ? { created_at: 'created_at', valid_from: 'created_at', valid_to: 'updated_at' }
        : { created_at: 'created_at', valid_from: 'valid_from', valid_to: 'valid_to' }
  for (const [field, value] of [
    ['created_at', mapped.createdAt],
    ['valid_from', mapped.validFrom],
    ['valid_to', mapped.validTo],
  ] as const) {
    if (value === undefined) continue
    const instant = utcInstantOf(value)
    if (instant === null)
      fields[at(dateKeys[field])] = 'must be a date-time (RFC 3339) or a date (YYYY-MM-DD)'
    else instants[field] = instant
  }
  if (instants.valid_from && instants.valid_to && instants.valid_to < instants.valid_from)
    fields[at(dateKeys.valid_to)] = 'must not be before the memory became valid'
  // A record that says when it stopped holding but not since when (Zep records facts after they ended, mem0 memories
  // replaced before this import): without a start of its own the memory would start when it was created, or now,
  // after its end. It is stored as already ended, valid at no moment: its start is unknown.
  const now = (defaults.now ?? (() => new Date()))()
  const defaultStart = instants.created_at ?? now.toISOString()
  if (!instants.valid_from && instants.valid_to && instants.valid_to < defaultStart)
    instants.valid_from = instants.valid_to
  if (
    mapped.metadata !== undefined &&
    (typeof mapped.metadata !== 'object' || Array.isArray(mapped.metadata))
  )
    fields[at('metadata')] = 'must be an object'
  let expiresAt: string | undefined
  if (mapped.expiresAt !== undefined) {
    const instant = utcInstantOf(mapped.expiresAt)
    if (instant === null)
      fields[at(mapped.expiresKey ?? 'expires_at')] = 'must be a date-time (RFC 3339) or a date (YYYY-MM-DD)'
    else expiresAt = instant
  }
  const embedding = embeddingOf(mapped.embedding)
  if (embedding === 'invalid') fields[at('embedding')] = 'must be {model, vector} with a list of numbers'
  const feedback = feedbackOf(mapped.feedback)
  if (feedback === 'invalid')
    fields[at('feedback')] =
      'must be {rating: positive | negative | very_negative, reason: text of at most 1000 characters or null, given_at}'
  if (Object.keys(fields).length > 0 || typeof externalId !== 'string' || typeof mapped.content !== 'string')
    return { fields }
  // Expired in the source: no reader would ever see it here (a mem0 export holds the memories it hides).
  if (expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime())
    return { externalId, skipped: `expired in the source (${expiresAt})` }

  const userId = (mapped.userId as string | undefined) ?? defaults.userId
  const customerId = (mapped.customerId as string | undefined) ?? defaults.customerId
  const document = {
    document: mapped.content,
    document_type: 'note',
    mode: 'fast',
    document_id: documentIdOf(format, externalId),
    ...(instants.created_at ? { document_created_at: instants.created_at } : {}),
    ...(userId !== undefined ? { user_id: userId } : {}),
    ...(customerId !== undefined ? { customer_id: customerId } : {}),
    ...(mapped.metadata ? { metadata: mapped.metadata as Record<string, unknown> } : {}),
    ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
  }
  const checked = validateDocument(document)
  if ('fields' in checked)
    return {
      fields: Object.fromEntries(
        Object.entries(checked.fields).map(([field, message]) => [
          at(field === 'document' ? mapped.contentKey : (recordFieldOf[field] ?? field)),
          message,
        ]),
      ),
    }
  return {
    externalId,
    document: {
      ...checked.document,
      document_id: document.document_id,
      imported: {
        format,
        external_id: externalId,
        ...(mapped.type !== undefined ? { type: mapped.type as MemoryType } : {}),
        ...(mapped.confidence !== undefined ? { confidence: mapped.confidence as number } : {}),
        ...instants,
        ...(embedding && embedding !== 'invalid' ? { embedding } : {}),
        ...(feedback && feedback !== 'invalid' ? { feedback } : {}),
      },
    },
  }
}

const ratings = ['positive', 'negative', 'very_negative'] as const

/** The feedback an exported memory held (our format's `feedback`), as the memory will hold it. */
function feedbackOf(value: unknown): ImportedMemory['feedback'] | 'invalid' | undefined {
  if (value === undefined) return undefined
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'invalid'
  const { rating, reason, given_at } = value as Raw
  const givenAt = utcInstantOf(given_at)
  if (!ratings.includes(rating as (typeof ratings)[number]) || givenAt === null) return 'invalid'
  if (reason !== undefined && reason !== null && (typeof reason !== 'string' || reason.length > 1000))
    return 'invalid'
  return {
    rating: rating as (typeof ratings)[number],
    reason: typeof reason === 'string' ? reason : null,
    given_at: givenAt,
  }
}

function embeddingOf(value: unknown): ImportedMemory['embedding'] | 'invalid' | undefined {
  if (value === undefined) return undefined
  if (value === null || typeof value !== 'object') return 'invalid'
  const { model, vector } = value as Raw
  if (typeof model !== 'string' || model.length === 0 || !Array.isArray(vector) || vector.length > 4_096)
    return 'invalid'
  if (!vector.every((component) => typeof component === 'number' && Number.isFinite(component)))
    return 'invalid'
  return { model, vector: vector as number[] }
}
