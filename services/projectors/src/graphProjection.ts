import { entityKey, type ConsumedEvent, type MemoryChanged, type Neo4jStore } from '@memory-service/shared'

// A memory node keeps the version of the last event applied; an event whose version is not higher changes nothing.
const upsertMemory = `
MERGE (memory:Memory {id: $id})
ON CREATE SET memory.version = 0
WITH memory WHERE memory.version < $version
SET memory.instance_id = $instanceId, memory.version = $version, memory.type = $type, memory.content = $content,
    memory.user_id = $userId, memory.customer_id = $customerId, memory.speaker = $speaker,
    memory.occurred_on = $occurredOn, memory.created_at = $createdAt, memory.updated_at = $updatedAt,
    memory.ingestion_id = $ingestionId
WITH memory
OPTIONAL MATCH (memory)-[mention:MENTIONS]->(previous:Entity)
DELETE mention
WITH memory, collect(previous) AS previousEntities
FOREACH (entity IN previousEntities | SET entity.memory_count = COUNT { (entity)<-[:MENTIONS]-(:Memory) })
WITH DISTINCT memory
OPTIONAL MATCH (:Entity)-[relation:RELATES_TO {memory_id: memory.id}]->(:Entity)
DELETE relation`

// Entities are shared by memories: created on first mention, never deleted with a memory; aliases accumulate.
const linkEntities = `
MATCH (memory:Memory {id: $id}) WHERE memory.version = $version
UNWIND $entities AS mentioned
MERGE (entity:Entity {entity_id: mentioned.entity_id})
ON CREATE SET entity.instance_id = $instanceId, entity.canonical_name = mentioned.canonical_name,
    entity.type = mentioned.type, entity.key = mentioned.key, entity.initials = mentioned.initials,
    entity.aliases = [], entity.alias_keys = []
SET entity.aliases = entity.aliases + [alias IN mentioned.aliases WHERE NOT alias IN entity.aliases],
    entity.alias_keys = entity.alias_keys + [key IN mentioned.alias_keys WHERE NOT key IN entity.alias_keys]
MERGE (memory)-[:MENTIONS]->(entity)`

const linkRelations = `
MATCH (memory:Memory {id: $id}) WHERE memory.version = $version
UNWIND $relations AS related
MATCH (from:Entity {entity_id: related.from_entity_id}), (to:Entity {entity_id: related.to_entity_id})
MERGE (from)-[:RELATES_TO {memory_id: memory.id, type: related.type}]->(to)`

const deleteMemory = `
MATCH (memory:Memory {id: $id}) WHERE memory.version < $version
OPTIONAL MATCH (memory)-[:MENTIONS]->(entity:Entity)
WITH memory, collect(entity.entity_id) AS previousIds
OPTIONAL MATCH (:Entity)-[relation:RELATES_TO {memory_id: memory.id}]->(:Entity)
DELETE relation
WITH DISTINCT memory, previousIds
DETACH DELETE memory
RETURN previousIds`

const recount = `
UNWIND $entityIds AS entityId
MATCH (entity:Entity {entity_id: entityId})
SET entity.memory_count = COUNT { (entity)<-[:MENTIONS]-(:Memory) }`

function initialsOf(name: string): string | null {
  const words = name.split(/\s+/).filter((word) => /^[A-Za-z]/.test(word))
  return words.length >= 2 ? words.map((word) => word[0]?.toLowerCase() ?? '').join('') : null
}

/**
 * Memories into Neo4j: (Memory)-[:MENTIONS]->(Entity), and in long-range mode (Entity)-[:RELATES_TO]->(Entity)
 * per memory. Each event is one transaction; the version guard makes a replayed event a no-op, and every entity
 * touched gets its memory_count recomputed from the graph rather than incremented, so replays cannot skew it.
 */
export function createGraphProjection(graph: Neo4jStore) {
  return async (events: ConsumedEvent<MemoryChanged>[]): Promise<void> => {
    for (const { payload } of events) {
      const { memory } = payload
      const params = { id: payload.memory_id, version: payload.version, instanceId: payload.instance_id }
      const touched = memory.entities.map((entity) => entity.entity_id)
      if (payload.change === 'deleted') {
        const [row] = await graph.write<{ previousIds: string[] }>(deleteMemory, params)
        await graph.write(recount, { entityIds: [...new Set([...touched, ...(row?.previousIds ?? [])])] })
        continue
      }
      await graph.writeTransaction([
        {
          cypher: upsertMemory,
          params: {
            ...params,
            type: memory.type,
            content: memory.content,
            userId: memory.scope.user_id,
            customerId: memory.scope.customer_id,
            speaker: memory.speaker,
            occurredOn: memory.occurred_on,
            createdAt: memory.created_at,
            updatedAt: memory.updated_at,
            ingestionId: memory.source.ingestion_id,
          },
        },
        {
          cypher: linkEntities,
          params: {
            ...params,
            entities: memory.entities.map((entity) => ({
              ...entity,
              key: entityKey(entity.canonical_name),
              initials: initialsOf(entity.canonical_name),
              aliases: entity.aliases ?? [],
              alias_keys: (entity.aliases ?? []).map((alias) => entityKey(alias)),
            })),
          },
        },
        { cypher: linkRelations, params: { ...params, relations: memory.relations } },
        { cypher: recount, params: { entityIds: touched } },
      ])
    }
  }
}
