import type { Client, estypes } from '@elastic/elasticsearch'
import {
  memoryDocumentOf,
  MEMORIES_ALIAS,
  type ConsumedEvent,
  type MemoryChanged,
  type MemoryDocument,
} from '@memory-service/shared'

/**
 * Memories into Elasticsearch (text + vector) through the alias. Every write carries the event's version as an
 * external version: a replayed or duplicated event, or an older one arriving late, is refused by Elasticsearch
 * itself and counted as skipped. A delete leaves a versioned tombstone, so an older event cannot resurrect it.
 */
export function createVectorProjection(client: Client, index: string = MEMORIES_ALIAS) {
  return async (events: ConsumedEvent<MemoryChanged>[]): Promise<{ written: number; skipped: number }> => {
    if (events.length === 0) return { written: 0, skipped: 0 }
    const operations = events.flatMap(
      ({ payload }): estypes.BulkOperationContainer[] | [estypes.BulkOperationContainer, MemoryDocument] =>
        payload.change === 'deleted'
          ? [
              {
                delete: {
                  _index: index,
                  _id: payload.memory_id,
                  version: payload.version,
                  version_type: 'external' as const,
                },
              },
            ]
          : [
              {
                index: {
                  _index: index,
                  _id: payload.memory_id,
                  version: payload.version,
                  version_type: 'external' as const,
                },
              },
              memoryDocumentOf(payload),
            ],
    )
    const response = await client.bulk({ operations })
    let skipped = 0
    const failures: string[] = []
    for (const item of response.items) {
      const result = item.index ?? item.delete
      const error = result?.error
      if (!error) continue
      if (error.type === 'version_conflict_engine_exception') skipped += 1
      else failures.push(`${result._id ?? '?'}: ${error.type} ${error.reason ?? ''}`)
    }
    // Throwing leaves the offsets unresolved: the batch is retried, and what was written is skipped next time.
    if (failures.length > 0)
      throw new Error(`memory projection failed for ${String(failures.length)}: ${failures.join('; ')}`)
    return { written: events.length - skipped, skipped }
  }
}
