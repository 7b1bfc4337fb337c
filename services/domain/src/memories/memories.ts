import { createHash } from 'node:crypto'
import type { Memory, MemoryChanged } from '@memory-service/contracts'
import { readContractSchema } from '@memory-service/contracts/files'
import { searchTermsOf } from '../search/searchTerms.js'
import { MEMORIES_TOPIC } from '../topology.js'
import type { DocumentContext } from '../documents/conversationContext.js'
import { validFromOf } from './supersession.js'
import { entityKey } from '../extraction/entityNames.js'
import { typedMetadataValues, type TypedMetadataValue } from './memoryFilter.js'

export const MEMORY_SUBJECT = `${MEMORIES_TOPIC}-value`
export const memoryChangedSchema = readContractSchema('events/MemoryChanged.v1.schema.json')

export type MemoryState = MemoryChanged['memory']
export type MemoryEntity = MemoryState['entities'][number]
export type MemoryChange = MemoryChanged['change']

const memoryIdPattern = /^mem_[0-9a-f]{24}$/

export function isMemoryId(value: string): boolean {
  return memoryIdPattern.test(value)
}

/**
 * The id of the n-th memory of an ingestion job. Derived, not random, so a document processed twice (a redelivered
 * Kafka message, a worker restarted mid-document) produces the same ids, and the projections see the same memory.
 */
export function memoryIdFor(ingestionId: string, ordinal: number): string {
  return `mem_${createHash('sha256')
    .update(`${ingestionId}\u0000${String(ordinal)}`)
    .digest('hex')
    .slice(0, 24)}`
}

/** The memory as the vector projection stores it: the state plus what search filters and ranks on. */
export interface MemoryDocument extends Omit<
  MemoryState,
  'embedding' | 'context' | 'valid_from' | 'valid_to' | 'superseded_by'
> {
  valid_from: string
  valid_to: string | null
  superseded_by: string | null
  entity_ids: string[]
  entity_names: string[]
  /** The names' identities (entityKey, as entity resolution compares names), which filters compare exactly. */
  entity_name_keys: string[]
  /** The metadata's numbers and dates with their key paths, which range filters compare by type. */
  metadata_values: TypedMetadataValue[]
  version: number
  last_event_id: string
  embedding_model: string
  embedding: number[]
  /** Stemmed content words for keyword search (see searchTermsOf). */
  content_terms: string
  /** The neighbouring turns of the source document (conversationContext.ts), when it had any. */
  context?: DocumentContext
  /** Stemmed words of those turns: a turn is found by what the conversation around it says. */
  context_terms: string
  /** The statement in its conversation; the statement's own vector when it came alone, so every memory competes. */
  context_embedding: number[]
  /**
   * The sum of the two readings (embedding + context_embedding), indexed for inner product: one kNN of the sum of
   * several questions' vectors over it scores the sum of every question's cosine with every reading, which `fast`
   * search needs in one kNN leg instead of one per pair.
   */
  readings_embedding: number[]
}

export function memoryDocumentOf(event: MemoryChanged): MemoryDocument {
  const { embedding, context, ...state } = event.memory
  return {
    ...state,
    ...validityOf(state),
    entity_ids: state.entities.map((entity) => entity.entity_id),
    entity_names: state.entities.map((entity) => entity.canonical_name),
    entity_name_keys: state.entities.map((entity) => entityKey(entity.canonical_name)),
    metadata_values: typedMetadataValues(state.metadata),
    version: event.version,
    last_event_id: event.event_id,
    embedding_model: embedding.model,
    embedding: embedding.vector,
    content_terms: searchTermsOf(state.content),
    ...(context ? { context: { before: context.before, after: context.after } } : {}),
    context_terms: context ? searchTermsOf(`${context.before} ${context.after}`) : '',
    context_embedding: context?.embedding.vector ?? embedding.vector,
    readings_embedding: sumOfVectors(embedding.vector, context?.embedding.vector ?? embedding.vector),
  }
}

export function sumOfVectors(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, index) => value + (b[index] ?? 0))
}

/** A memory's validity; events written before validity existed hold from their stated date or document time. */
export function validityOf(
  memory: Pick<MemoryState, 'valid_from' | 'valid_to' | 'superseded_by' | 'occurred_on' | 'source'>,
): { valid_from: string; valid_to: string | null; superseded_by: string | null } {
  return {
    valid_from: memory.valid_from ?? validFromOf(memory.occurred_on, memory.source.document_created_at),
    valid_to: memory.valid_to ?? null,
    superseded_by: memory.superseded_by ?? null,
  }
}

/** The public view (spec: Resources → Memory); the projection's own fields stay inside. */
export function publicMemoryOf(memory: Omit<MemoryState, 'embedding' | 'context'>): Memory {
  return {
    id: memory.id,
    type: memory.type,
    content: memory.content,
    confidence: memory.confidence,
    entities: memory.entities.map(({ entity_id, canonical_name, type }) => ({
      entity_id,
      canonical_name,
      type,
    })),
    scope: memory.scope,
    source: memory.source,
    metadata: memory.metadata,
    created_at: memory.created_at,
    updated_at: memory.updated_at,
    ...validityOf(memory),
    // Stored before expiry and feedback existed: never expires, and holds no feedback.
    expires_at: memory.expires_at ?? null,
    feedback: memory.feedback ?? null,
  }
}
