import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import type { Document, DocumentAccepted, IngestionStatus } from '../contracts/generated/index.js'
import { fieldsOfIssues } from '../errors/validationMessages.js'

export const DOCUMENTS_TOPIC = 'mem.documents.v1'
export const DOCUMENT_SUBJECT = `${DOCUMENTS_TOPIC}-value`
/** Declared in infra/elasticsearch/indices.json. */
export const INGESTION_JOBS_INDEX = 'mem-ingestion-jobs-v1'

const schemasDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../schemas')
const readSchema = (file: string) =>
  JSON.parse(readFileSync(join(schemasDir, file), 'utf8')) as Record<string, unknown>
export const documentAcceptedSchema = readSchema('events/DocumentAccepted.v1.schema.json')

const ajv = new Ajv({ allErrors: true, strict: false })
addFormats.default(ajv)
const validateShape = ajv.compile<Document>(readSchema('rest/Document.schema.json'))

/** One document of a batch checked on its own: the document, or a message per bad field. */
export function validateDocument(raw: unknown): { document: Document } | { fields: Record<string, string> } {
  if (validateShape(raw)) return { document: raw }
  return { fields: fieldsOfIssues(validateShape.errors ?? [], 'document') }
}

export function toDocumentAccepted(
  document: Document,
  context: { ingestionId: string; instanceId: string; clientId: string; acceptedAt: string },
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
  }
}

/** The job as the status route shows it, with the instance it belongs to. */
export interface IngestionJob extends IngestionStatus {
  instance_id: string
  updated_at: string
}

export function queuedJob(ingestionId: string, instanceId: string, at: string): IngestionJob {
  return {
    ingestion_id: ingestionId,
    instance_id: instanceId,
    status: 'queued',
    progress: { extraction: 0, categorization: 0, entity_resolution: 0, storage: 0 },
    errors: [],
    updated_at: at,
  }
}
