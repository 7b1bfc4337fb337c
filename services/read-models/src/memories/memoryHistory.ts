import type { Client } from '@elastic/elasticsearch'
import type { estypes } from '@elastic/elasticsearch'
import type { MemoryChanged } from '@memory-service/contracts'
import { MEMORY_CHANGES_INDEX, validityOf } from '@memory-service/domain'
import type { ConsumedEvent } from '@memory-service/log'
import { deleteMatchingDocuments, distinctValuesOf, sourcesOf } from '@memory-service/engines'

/** What a change did to a memory, as its history tells it. */
export type HistoryChange = 'created' | 'updated' | 'superseded' | 'reinstated' | 'feedback' | 'deleted'

/** One version of a memory: the change that made it, why, and the state it left. */
export interface MemoryHistoryEntry {
  instance_id: string
  memory_id: string
  version: number
  change: HistoryChange
  changed_at: string
  event_id: string
  correlation_id: string | null
  cause: NonNullable<MemoryChanged['cause']> | null
  user_id: string | null
  customer_id: string | null
  content: string | null
  valid_from: string
  valid_to: string | null
  superseded_by: string | null
  /** Absent from rows written before expiry existed. */
  expires_at?: string | null
  /** Absent from rows written before feedback existed. */
  feedback?: MemoryChanged['memory']['feedback'] | null
}

function changeOf(event: MemoryChanged): HistoryChange {
  if (event.change !== 'updated') return event.change
  if (event.cause?.kind === 'api' && event.cause.operation === 'feedback') return 'feedback'
  if (event.cause?.kind !== 'supersession') return 'updated'
  return event.memory.superseded_by ? 'superseded' : 'reinstated'
}

/** The history row of one event; none for an erasure, which takes the memory's whole history with it. */
export function historyEntryOf(
  event: MemoryChanged,
  correlationId: string | undefined,
): MemoryHistoryEntry | null {
  if (event.cause?.kind === 'erasure') return null
  return {
    instance_id: event.instance_id,
    memory_id: event.memory_id,
    version: event.version,
    change: changeOf(event),
    changed_at: event.changed_at,
    event_id: event.event_id,
    correlation_id: correlationId ?? null,
    cause: event.cause ?? null,
    user_id: event.memory.scope.user_id,
    customer_id: event.memory.scope.customer_id,
    content: event.change === 'deleted' ? null : event.memory.content,
    ...validityOf(event.memory),
    expires_at: event.memory.expires_at ?? null,
    feedback: event.memory.feedback ?? null,
  }
}

/**
 * The memories topic into one row per memory version. A row is created once (the first event of a version in the log
 * wins, as in the memory projections) and never rewritten, so a replay or a redelivered batch writes nothing new. An
 * erasure event removes every row of its memory, in the same batch as rows a replay just wrote before it.
 */
export function createHistoryProjection(client: Client, index: string = MEMORY_CHANGES_INDEX) {
  return async (events: ConsumedEvent<MemoryChanged>[]): Promise<{ written: number; erased: number }> => {
    const rows = events.flatMap(({ payload, correlationId }) => {
      const entry = historyEntryOf(payload, correlationId)
      return entry ? [entry] : []
    })
    const erasedIds = [
      ...new Set(
        events
          .filter(({ payload }) => payload.cause?.kind === 'erasure')
          .map(({ payload }) => payload.memory_id),
      ),
    ]
    let written = 0
    if (rows.length > 0) {
      const response = await client.bulk({
        operations: rows.flatMap((row) => [
          { create: { _index: index, _id: `${row.memory_id}:${String(row.version)}` } },
          row,
        ]),
      })
      for (const item of response.items) {
        const status = item.create?.status ?? 500
        if (status < 300) written += 1
        else if (status !== 409)
          throw new Error(`memory history write failed: ${JSON.stringify(item.create?.error)}`)
      }
    }
    let erased = 0
    if (erasedIds.length > 0) {
      // Rows written a moment ago (by this batch, on a replay) are deleted too once they are searchable.
      await client.indices.refresh({ index })
      erased = await deleteMatchingDocuments(client, index, [{ terms: { memory_id: erasedIds } }])
    }
    return { written, erased }
  }
}

export interface MemoryHistory {
  /** Every change of one memory of the instance, oldest first; empty when it has none (or another instance's). */
  of(instanceId: string, memoryId: string): Promise<MemoryHistoryEntry[]>
  /** Ids of the user's memories that have a history, deleted ones included (an erasure must reach them too). */
  memoryIdsOfUser(instanceId: string, userId: string): Promise<string[]>
  /** Removes every row of the user's memories (an erasure leaves no history). */
  eraseUser(instanceId: string, userId: string): Promise<number>
  /** The histories of many memories at once (an export's page), each oldest first, the latest changes included. */
  ofMany(instanceId: string, memoryIds: string[]): Promise<Map<string, MemoryHistoryEntry[]>>
}

export function createMemoryHistory(client: Client, index: string = MEMORY_CHANGES_INDEX): MemoryHistory {
  const ofUser = (instanceId: string, userId: string) => ({
    bool: { filter: [{ term: { instance_id: instanceId } }, { term: { user_id: userId } }] },
  })
  return {
    async of(instanceId, memoryId) {
      const response = await client.search<MemoryHistoryEntry>({
        index,
        size: 1000,
        sort: [{ version: 'asc' }],
        query: {
          bool: { filter: [{ term: { instance_id: instanceId } }, { term: { memory_id: memoryId } }] },
        },
      })
      const entries = sourcesOf(response.hits.hits)
      // Search sees what the last refresh made visible; the versions after it are read by id, in real time (a
      // memory's versions are consecutive), so a change the API just answered for is in its history.
      for (;;) {
        const next = (entries[entries.length - 1]?.version ?? 0) + 1
        const { docs } = await client.mget<MemoryHistoryEntry>({
          index,
          ids: [0, 1, 2, 3].map((offset) => `${memoryId}:${String(next + offset)}`),
        })
        const found = docs.flatMap((doc) => ('found' in doc && doc.found && doc._source ? [doc._source] : []))
        const consecutive = found.filter((entry, position) => entry.version === next + position)
        entries.push(...consecutive.filter((entry) => entry.instance_id === instanceId))
        if (consecutive.length < 4) return entries
      }
    },
    async memoryIdsOfUser(instanceId, userId) {
      // A memory deleted a moment before the erasure must be found too.
      await client.indices.refresh({ index })
      return distinctValuesOf(client, index, ofUser(instanceId, userId).bool.filter, 'memory_id')
    },
    async ofMany(instanceId, memoryIds) {
      const histories = new Map<string, MemoryHistoryEntry[]>(memoryIds.map((id) => [id, []]))
      if (memoryIds.length === 0) return histories
      let after: estypes.SortResults | undefined
      for (;;) {
        const response = await client.search<MemoryHistoryEntry>({
          index,
          size: 1000,
          sort: [{ memory_id: 'asc' }, { version: 'asc' }],
          ...(after ? { search_after: after } : {}),
          query: {
            bool: { filter: [{ term: { instance_id: instanceId } }, { terms: { memory_id: memoryIds } }] },
          },
        })
        const hits = response.hits.hits
        for (const entry of sourcesOf(hits)) histories.get(entry.memory_id)?.push(entry)
        if (hits.length < 1000) break
        after = hits[hits.length - 1]?.sort
      }
      // As `of` does: the versions after the last refresh are read by id, in real time, one version of every
      // memory per round, until no memory has a next one.
      let growing = memoryIds
      while (growing.length > 0) {
        const next = (id: string) => (histories.get(id)?.at(-1)?.version ?? 0) + 1
        const { docs } = await client.mget<MemoryHistoryEntry>({
          index,
          ids: growing.map((id) => `${id}:${String(next(id))}`),
        })
        const found = docs.flatMap((doc) =>
          'found' in doc && doc.found && doc._source?.instance_id === instanceId ? [doc._source] : [],
        )
        for (const entry of found) histories.get(entry.memory_id)?.push(entry)
        growing = found.map((entry) => entry.memory_id)
      }
      return histories
    },
    async eraseUser(instanceId, userId) {
      await client.indices.refresh({ index })
      return deleteMatchingDocuments(client, index, ofUser(instanceId, userId).bool.filter)
    },
  }
}
