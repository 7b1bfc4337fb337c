import { type MemoryChanged } from '@memory-service/contracts'
import { type ElasticsearchStore } from '@memory-service/engines'
import { type ConsumedEvent } from '@memory-service/log'

/** One memory that states a changing fact, as the profile holds it (mem-profiles). */
export interface ProfileRow {
  instance_id: string
  user_id: string | null
  customer_id: string | null
  subject: string
  attribute: string
  value: string
  key: string
  memory_id: string
  content: string
  speaker: string | null
  valid_from: string
  valid_to: string | null
  superseded_by: string | null
  version: number
  changed_at: string
}

/** The profile row of a memory event: none for a deletion or a memory that states no fact (the row goes). */
export function profileRowOf(event: MemoryChanged): ProfileRow | null {
  const { memory } = event
  if (event.change === 'deleted' || !memory.fact) return null
  return {
    instance_id: event.instance_id,
    user_id: memory.scope.user_id,
    customer_id: memory.scope.customer_id,
    subject: memory.fact.subject,
    attribute: memory.fact.attribute,
    value: memory.fact.value,
    key: memory.fact.key,
    memory_id: event.memory_id,
    content: memory.content,
    speaker: memory.speaker ?? null,
    valid_from: memory.valid_from ?? memory.created_at,
    valid_to: memory.valid_to ?? null,
    superseded_by: memory.superseded_by ?? null,
    version: event.version,
    changed_at: event.changed_at,
  }
}

/**
 * The memories topic into the profile: a row per memory that states a fact, at the memory's version (external
 * versions: a replayed, duplicated or late event is refused by Elasticsearch and changes nothing). A deletion, an
 * erasure, or a new version that no longer states a fact removes the row at that version, so an older event cannot
 * bring it back. Each attribute's current value, since when, and what it replaced are queries over these rows
 * (profiles.ts).
 */
export function createProfileProjection(profiles: ElasticsearchStore<ProfileRow>) {
  return (events: ConsumedEvent<MemoryChanged>[]): Promise<{ written: number; skipped: number }> =>
    profiles.upsert(
      events.map(({ payload }) => ({
        id: payload.memory_id,
        version: payload.version,
        document: profileRowOf(payload),
      })),
    )
}
