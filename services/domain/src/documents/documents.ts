import { createHash } from 'node:crypto'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { useStorableDateTimes } from '../timestamps.js'
import type {
  Document,
  DocumentAccepted,
  IngestionJobChanged,
  IngestionStatus,
} from '@memory-service/contracts'
import { readContractSchema } from '@memory-service/contracts/files'
import { fieldsOfIssues } from '../errors/validationMessages.js'
import { BULK_DOCUMENTS_TOPIC, DOCUMENTS_TOPIC } from '../topology.js'
import type { DocumentContext } from './conversationContext.js'

export const DOCUMENT_SUBJECT = `${DOCUMENTS_TOPIC}-value`

/**
 * The pipeline's lanes (docs/decisions.md, "Interactive and bulk lanes"): what an agent writes one at a time — a
 * single document, a conversation's compaction — is formed ahead of what arrives in bulk (the batch route, imports),
 * so that one customer's backfill never holds another's agent. Both lanes carry the same DocumentAccepted records
 * under the same schema subject; only the topic differs.
 */
export type DocumentLane = 'interactive' | 'bulk'

export const documentsTopicOf = (lane: DocumentLane): string =>
  lane === 'bulk' ? BULK_DOCUMENTS_TOPIC : DOCUMENTS_TOPIC

/**
 * The Kafka header a memory event formed by the interactive lane carries: the vector projection makes such memories
 * searchable at once (a refresh with the write) instead of at the index's next periodic refresh; bulk memories wait
 * for it, so an import does not make a segment per batch.
 */
export const MEMORY_LANE_HEADER = 'x-memory-lane'

/**
 * The ingestion id of a document the client identified: derived from its instance and document_id, not random, so
 * every append of that document — a client retry after an ambiguous failure, a claim taken over after a crash —
 * is the same ingestion: one job, and (memory ids derive from it) the same memories, however often it is in the log.
 */
export function ingestionIdFor(instanceId: string, documentId: string): string {
  return `ing_${createHash('sha256').update(`document\u0000${instanceId}\u0000${documentId}`).digest('hex').slice(0, 32)}`
}

export const documentAcceptedSchema = readContractSchema('events/DocumentAccepted.v1.schema.json')

const ajv = new Ajv({ allErrors: true, strict: false })
addFormats.default(ajv)
useStorableDateTimes(ajv)
const validateShape = ajv.compile<Document>(readContractSchema('rest/Document.schema.json'))

/** Limits on metadata beyond its JSON Schema: it is copied into every memory and indexed as one flattened field. */
export const metadataLimits = { bytes: 16_384, depth: 5, stringLength: 4_096, keyLength: 256 } as const

// eslint-disable-next-line no-control-regex -- control characters are what is refused: Elasticsearch's flattened field cannot index such a key at any depth.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/

/** Why metadata cannot be stored (too large, too deep, a value too long to index), or null when it can. */
export function metadataProblem(metadata: Record<string, unknown>): string | null {
  if (Buffer.byteLength(JSON.stringify(metadata)) > metadataLimits.bytes) {
    return `must be at most ${String(metadataLimits.bytes)} bytes as JSON`
  }
  const deepest = (value: unknown, depth: number): string | null => {
    if (typeof value === 'string') {
      return value.length > metadataLimits.stringLength
        ? `string values must be at most ${String(metadataLimits.stringLength)} characters`
        : null
    }
    if (value === null || typeof value !== 'object') return null
    if (depth > metadataLimits.depth)
      return `must be nested at most ${String(metadataLimits.depth)} levels deep`
    if (!Array.isArray(value)) {
      for (const key of Object.keys(value)) {
        if (key.length === 0 || key.length > metadataLimits.keyLength || controlCharacter.test(key))
          return `keys, at every level, must be 1–${String(metadataLimits.keyLength)} characters without control characters`
      }
    }
    for (const child of Object.values(value)) {
      const problem = deepest(child, depth + 1)
      if (problem) return problem
    }
    return null
  }
  return deepest(metadata, 1)
}

/** One document of a batch checked on its own: the document, or a message per bad field. */
export function validateDocument(raw: unknown): { document: Document } | { fields: Record<string, string> } {
  if (!validateShape(raw)) return { fields: fieldsOfIssues(validateShape.errors ?? [], 'document') }
  const problem = raw.metadata ? metadataProblem(raw.metadata) : null
  return problem ? { fields: { metadata: problem } } : { document: raw }
}

export function toDocumentAccepted(
  document: Document & Pick<DocumentAccepted, 'imported'>,
  context: {
    ingestionId: string
    instanceId: string
    clientId: string
    acceptedAt: string
    /** When its memories expire (documentExpiryOf), null: never. */
    expiresAt?: string | null
    /** The neighbouring turns of the batch (batchContextsOf). */
    conversation?: DocumentContext
  },
): DocumentAccepted {
  return {
    type: 'document_accepted',
    ingestion_id: context.ingestionId,
    instance_id: context.instanceId,
    client_id: context.clientId,
    document_id: document.document_id ?? null,
    document: document.document,
    document_type: document.document_type,
    mode: document.mode,
    document_created_at: document.document_created_at ?? context.acceptedAt,
    user_id: document.user_id ?? null,
    customer_id: document.customer_id ?? null,
    metadata: document.metadata ?? {},
    accepted_at: context.acceptedAt,
    ...(context.expiresAt ? { expires_at: context.expiresAt } : {}),
    ...(context.conversation ? { context: context.conversation } : {}),
    ...(document.imported ? { imported: document.imported } : {}),
  }
}

/** The job as the status route shows it, with the instance it belongs to (the job projection's document). */
export interface IngestionJob extends IngestionStatus {
  instance_id: string
  memory_ids: string[]
  updated_at: string
}

export function jobDocumentOf(job: IngestionJobChanged): IngestionJob {
  return {
    ingestion_id: job.ingestion_id,
    instance_id: job.instance_id,
    status: job.status,
    progress: job.progress,
    errors: job.errors,
    memory_ids: job.memory_ids,
    ...(job.reason ? { reason: job.reason } : {}),
    updated_at: job.changed_at,
  }
}
