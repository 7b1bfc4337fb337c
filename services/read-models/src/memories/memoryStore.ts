import type { Client, estypes } from '@elastic/elasticsearch'
import type { MemoryListQuery } from '@memory-service/contracts'
import {
  MEMORIES_ALIAS,
  type MemoryDocument,
  type MemoryFilter,
  type MemoryState,
} from '@memory-service/domain'
import { memoryFilterQuery } from './memoryFilterQuery.js'
import { unexpiredFilter, validityFilters } from './memoryValidity.js'
import { pageWindow, sourcesOf, totalHitsOf } from '@memory-service/engines'

/** A memory as read back: the vector only when asked for, the keyword terms absent from documents older than them. */
export type StoredMemory = Omit<
  MemoryDocument,
  | 'embedding'
  | 'content_terms'
  | 'context_terms'
  | 'context_embedding'
  | 'readings_embedding'
  | 'entity_name_keys'
  | 'metadata_values'
> & {
  embedding?: number[]
  content_terms?: string
  context_terms?: string
  context_embedding?: number[]
  readings_embedding?: number[]
  entity_name_keys?: string[]
  metadata_values?: MemoryDocument['metadata_values']
}

/** What a read leaves out unless asked: the vectors, the keyword terms and the filters' typed copies, which no reader shows. */
export const derivedFields = [
  'embedding',
  'content_terms',
  'context_terms',
  'context_embedding',
  'readings_embedding',
  'entity_name_keys',
  'metadata_values',
]

/** The memory's state as its events carry it, back from what the projection stored (read with its vectors). */
export function memoryStateOf(stored: StoredMemory, vector: number[] = []): MemoryState {
  const {
    entity_ids,
    entity_names,
    version,
    last_event_id,
    embedding_model,
    embedding,
    content_terms,
    context,
    context_terms,
    context_embedding,
    readings_embedding,
    entity_name_keys,
    metadata_values,
    ...state
  } = stored
  return {
    ...state,
    embedding: { model: embedding_model, vector: embedding ?? vector },
    ...(context
      ? {
          context: { ...context, embedding: { model: embedding_model, vector: context_embedding ?? vector } },
        }
      : {}),
  }
}

/** The scope a memory belongs to, which a fact's versions share. */
export interface MemoryScopeFilter {
  user_id: string | null
  customer_id: string | null
}

/** What narrows the list of an instance's memories (GET /v1/memories), its filter parsed. */
export type InventoryQuery = Omit<MemoryListQuery, 'filters' | 'page' | 'page_size'> & {
  filter?: MemoryFilter | null
}

export interface MemoryStore {
  /** Real-time read of one memory (no refresh needed); with the vector only when asked for. */
  get(id: string, options?: { withVector?: boolean }): Promise<StoredMemory | null>
  /** One page of an instance's memories, newest first. */
  list(
    instanceId: string,
    query: InventoryQuery & { page: number; page_size: number },
  ): Promise<{ items: StoredMemory[]; total: number }>
  /** The ids of the first `limit` memories the list would show (newest first), and how many it would show in all. */
  matching(
    instanceId: string,
    query: InventoryQuery,
    limit: number,
  ): Promise<{ ids: string[]; total: number }>
  /**
   * Every stored version of these facts in one scope, with vectors (their next version is written whole). Refreshes
   * the index first: a version stored a moment ago by another document must be seen.
   */
  factVersions(instanceId: string, scope: MemoryScopeFilter, keys: string[]): Promise<StoredMemory[]>
  /**
   * A speaker's memories in one scope that state not this fact (`key`: none, or another one) and became true before
   * `before`, the `limit` nearest to `vector`, with vectors: the older statements a newly stated fact may supersede
   * (factSupersession.ts).
   */
  unstatedVersions(
    instanceId: string,
    scope: MemoryScopeFilter,
    query: { speaker: string; vector: number[]; before: string; key: string; limit?: number },
  ): Promise<StoredMemory[]>
  /** The `limit` memories of one scope nearest to `vector`, with vectors (what a new statement may update). */
  nearest(
    instanceId: string,
    scope: MemoryScopeFilter,
    vector: number[],
    limit: number,
  ): Promise<StoredMemory[]>
  /** How many memories the instance holds now (deleted and erased ones are gone from the index). */
  count(instanceId: string): Promise<number>
  /**
   * Up to `limit` memories of any instance whose expiry came by `at`, the earliest first: what the expiry sweep
   * deletes next (memoryExpiry.ts).
   */
  expiredBy(at: Date, limit: number): Promise<Pick<StoredMemory, 'id' | 'instance_id' | 'expires_at'>[]>
  /**
   * Up to `size` of the memories the list would show that were created up to `createdUpTo`, in id order after
   * `after`, each as it is now (read in real time): an export's next page, from wherever its reader stopped.
   */
  inIdOrder(
    instanceId: string,
    query: InventoryQuery & { createdUpTo: string },
    after: string | undefined,
    size: number,
  ): Promise<StoredMemory[]>
}

/** Exactly this scope: a memory without a user is not in a user's scope, nor the other way round. */
function inScope(scope: MemoryScopeFilter): estypes.QueryDslQueryContainer[] {
  const scoped = (field: string, value: string | null): estypes.QueryDslQueryContainer =>
    value === null ? { bool: { must_not: { exists: { field } } } } : { term: { [field]: value } }
  return [scoped('scope.user_id', scope.user_id), scoped('scope.customer_id', scope.customer_id)]
}

/**
 * An instance's memories as the list names them. Without a moment the list is the inventory: every stored memory,
 * superseded ones included, but none that has expired.
 */
function inventoryFilter(
  instanceId: string,
  query: InventoryQuery,
  now: Date,
): estypes.QueryDslQueryContainer[] {
  const filter: estypes.QueryDslQueryContainer[] = [
    { term: { instance_id: instanceId } },
    unexpiredFilter(now),
  ]
  if (query.user_id !== undefined) filter.push({ term: { 'scope.user_id': query.user_id } })
  if (query.customer_id !== undefined) filter.push({ term: { 'scope.customer_id': query.customer_id } })
  if (query.type !== undefined) filter.push({ term: { type: query.type } })
  if (query.ingestion_id !== undefined) filter.push({ term: { 'source.ingestion_id': query.ingestion_id } })
  if (query.as_of !== undefined) filter.push(...validityFilters({ as_of: query.as_of }))
  if (query.filter) filter.push(memoryFilterQuery(query.filter))
  return filter
}

export function createMemoryStore(
  client: Client,
  index: string = MEMORIES_ALIAS,
  options: {
    /** The moment lists are answered at: a memory expired by then is left out. */
    now?: () => Date
  } = {},
): MemoryStore {
  const now = options.now ?? (() => new Date())
  async function versionsOfFacts(
    instanceId: string,
    scope: MemoryScopeFilter,
    keys: estypes.QueryDslQueryContainer,
  ): Promise<StoredMemory[]> {
    await client.indices.refresh({ index })
    const response = await client.search<StoredMemory>(
      {
        index,
        size: 1000,
        query: { bool: { filter: [{ term: { instance_id: instanceId } }, keys, ...inScope(scope)] } },
        _source: { excludes: ['content_terms', 'context_terms'] },
      },
      { querystring: { _source_exclude_vectors: false } },
    )
    return sourcesOf(response.hits.hits)
  }

  return {
    async get(id, options) {
      const response = await client.get<StoredMemory>(
        { index, id, ...(options?.withVector ? {} : { _source_excludes: derivedFields }) },
        // Elasticsearch 9 leaves vectors out of _source unless asked.
        {
          ignore: [404],
          ...(options?.withVector ? { querystring: { _source_exclude_vectors: false } } : {}),
        },
      )
      return response.found ? (response._source ?? null) : null
    },
    async list(instanceId, query) {
      const response = await client.search<StoredMemory>({
        index,
        query: { bool: { filter: inventoryFilter(instanceId, query, now()) } },
        sort: [{ created_at: 'desc' }, { id: 'asc' }],
        ...pageWindow(query.page, query.page_size),
        track_total_hits: true,
        _source: { excludes: derivedFields },
      })
      return { items: sourcesOf(response.hits.hits), total: totalHitsOf(response.hits.total) }
    },
    async inIdOrder(instanceId, { createdUpTo, ...query }, after, size) {
      const response = await client.search({
        index,
        query: {
          bool: {
            filter: [
              ...inventoryFilter(instanceId, query, now()),
              { range: { created_at: { lte: createdUpTo } } },
            ],
          },
        },
        sort: [{ id: 'asc' }],
        ...(after !== undefined ? { search_after: [after] } : {}),
        size,
        _source: false,
      })
      const ids = response.hits.hits.flatMap((hit) => (hit._id === undefined ? [] : [hit._id]))
      if (ids.length === 0) return []
      // Search sees the last refresh; the memories themselves are read by id, in real time, so an edit the API
      // has answered for is exported as made (one deleted since the search is left out).
      const { docs } = await client.mget<StoredMemory>({ index, ids, _source_excludes: derivedFields })
      return docs.flatMap((doc) => ('found' in doc && doc.found && doc._source ? [doc._source] : []))
    },
    async matching(instanceId, query, limit) {
      const response = await client.search({
        index,
        query: { bool: { filter: inventoryFilter(instanceId, query, now()) } },
        sort: [{ created_at: 'desc' }, { id: 'asc' }],
        size: limit,
        _source: false,
        track_total_hits: true,
      })
      return {
        ids: response.hits.hits.flatMap((hit) => (hit._id === undefined ? [] : [hit._id])),
        total: totalHitsOf(response.hits.total),
      }
    },
    async factVersions(instanceId, scope, keys) {
      if (keys.length === 0) return []
      return versionsOfFacts(instanceId, scope, { terms: { 'fact.key': keys } })
    },
    async unstatedVersions(instanceId, scope, query) {
      const limit = query.limit ?? 20
      const response = await client.search<StoredMemory>(
        {
          index,
          size: limit,
          knn: {
            field: 'embedding',
            query_vector: query.vector,
            k: limit,
            num_candidates: Math.max(100, limit * 5),
            filter: {
              bool: {
                filter: [
                  { term: { instance_id: instanceId } },
                  { term: { speaker: query.speaker } },
                  { range: { valid_from: { lt: query.before } } },
                  ...inScope(scope),
                ],
                must_not: [{ term: { 'fact.key': query.key } }],
              },
            },
          },
          _source: { excludes: ['content_terms', 'context_terms'] },
        },
        { querystring: { _source_exclude_vectors: false } },
      )
      return sourcesOf(response.hits.hits)
    },
    async nearest(instanceId, scope, vector, limit) {
      const response = await client.search<StoredMemory>(
        {
          index,
          size: limit,
          knn: {
            field: 'embedding',
            query_vector: vector,
            k: limit,
            num_candidates: Math.max(100, limit * 5),
            filter: { bool: { filter: [{ term: { instance_id: instanceId } }, ...inScope(scope)] } },
          },
          _source: { excludes: ['content_terms', 'context_terms'] },
        },
        { querystring: { _source_exclude_vectors: false } },
      )
      return sourcesOf(response.hits.hits)
    },
    async count(instanceId) {
      const response = await client.count({ index, query: { term: { instance_id: instanceId } } })
      return response.count
    },
    async expiredBy(at, limit) {
      const response = await client.search<Pick<StoredMemory, 'id' | 'instance_id' | 'expires_at'>>({
        index,
        size: limit,
        query: { range: { expires_at: { lte: at.toISOString() } } },
        sort: [{ expires_at: 'asc' }, { id: 'asc' }],
        track_total_hits: false,
        _source: ['id', 'instance_id', 'expires_at'],
      })
      return sourcesOf(response.hits.hits)
    },
  }
}
