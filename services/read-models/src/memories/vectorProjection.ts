import { MEMORY_LANE_HEADER, memoryDocumentOf, type MemoryDocument } from '@memory-service/domain'
import { type ConsumedEvent } from '@memory-service/log'
import { type ElasticsearchStore } from '@memory-service/engines'
import { type MemoryChanged } from '@memory-service/contracts'

/**
 * Memories into Elasticsearch (text + vector) through the alias. Every write carries the event's version as an
 * external version: a replayed or duplicated event, or an older one arriving late, is refused by Elasticsearch
 * itself and counted as skipped. A delete leaves a versioned tombstone, so an older event cannot resurrect it.
 * A failed write throws, leaving the offsets unresolved: the batch is retried and what was written is skipped.
 * A batch holding memories of the interactive lane is refreshed with its write: searchable when the call returns.
 */
export function createVectorProjection(memories: ElasticsearchStore<MemoryDocument>) {
  return (events: ConsumedEvent<MemoryChanged>[]): Promise<{ written: number; skipped: number }> =>
    memories.upsert(
      events.map(({ payload }) => ({
        id: payload.memory_id,
        version: payload.version,
        document: payload.change === 'deleted' ? null : memoryDocumentOf(payload),
      })),
      { refresh: events.some(({ headers }) => headers[MEMORY_LANE_HEADER] === 'interactive') },
    )
}
