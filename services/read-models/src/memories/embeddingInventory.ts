import type { Client, estypes } from '@elastic/elasticsearch'
import { MEMORIES_ALIAS } from '@memory-service/domain'
import { derivedFields, type StoredMemory } from './memoryStore.js'

/** Which embedding models made an instance's stored vectors, and the memories whose vectors another model made. */
export interface EmbeddingInventory {
  /** How many memories the instance holds, and how many of them carry vectors another model than `model` made. */
  census(instanceId: string, model: string): Promise<{ memories: number; otherModel: number }>
  /**
   * Ids of the instance's memories whose vectors another model than `model` made, in id order after `after`, from
   * the searchable state (up to one refresh interval behind the projection).
   */
  otherModelIds(instanceId: string, model: string, page: { after?: string; limit: number }): Promise<string[]>
  /** Real-time read of memories without their vectors; a missing or deleted one is absent from the map. */
  read(ids: string[]): Promise<Map<string, StoredMemory>>
  /** The dimension of the serving index's vectors (undefined when the alias points at no index). */
  dimension(): Promise<number | undefined>
  /** Makes everything projected so far searchable (the counts and pages above read the searchable state). */
  refresh(): Promise<void>
}

const ofInstance = (instanceId: string, model: string): estypes.QueryDslQueryContainer => ({
  bool: {
    filter: [{ term: { instance_id: instanceId } }],
    must_not: [{ term: { embedding_model: model } }],
  },
})

/** The memories index read for a re-embedding (`memory-service reembed`): by instance and by `embedding_model`. */
export function createEmbeddingInventory(client: Client, index: string = MEMORIES_ALIAS): EmbeddingInventory {
  return {
    async census(instanceId, model) {
      const [all, other] = await Promise.all([
        client.count({ index, query: { term: { instance_id: instanceId } } }),
        client.count({ index, query: ofInstance(instanceId, model) }),
      ])
      return { memories: all.count, otherModel: other.count }
    },
    async otherModelIds(instanceId, model, { after, limit }) {
      const response = await client.search({
        index,
        size: limit,
        query: ofInstance(instanceId, model),
        sort: [{ id: 'asc' }],
        ...(after === undefined ? {} : { search_after: [after] }),
        _source: false,
      })
      return response.hits.hits.flatMap((hit) => (hit._id === undefined ? [] : [hit._id]))
    },
    async read(ids) {
      if (ids.length === 0) return new Map()
      const { docs } = await client.mget<StoredMemory>({ index, ids, _source_excludes: derivedFields })
      return new Map(
        docs.flatMap((doc) =>
          'found' in doc && doc.found && doc._source ? [[doc._id, doc._source] as const] : [],
        ),
      )
    },
    async dimension() {
      const mappings = await client.indices.getMapping({ index })
      const [mapping] = Object.values(mappings)
      const field = mapping?.mappings.properties?.embedding as { dims?: number } | undefined
      return field?.dims
    },
    async refresh() {
      await client.indices.refresh({ index })
    },
  }
}
