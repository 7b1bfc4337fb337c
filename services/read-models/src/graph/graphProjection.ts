import { activeGraphGenerationQuery } from './graphGenerations.js'
import { entityKey, validityOf } from '@memory-service/domain'
import { type ConsumedEvent } from '@memory-service/log'
import { type MemoryChanged } from '@memory-service/contracts'
import { type Neo4jStore } from '@memory-service/engines'

// Entity counts are recomputed from the graph for every entity a statement touched, never incremented, so a
// replayed batch cannot skew them.
const recountTouched = `
WITH collect(previousIds) AS previousLists
WITH reduce(ids = $touched, list IN previousLists | ids + list) AS ids
UNWIND ids AS entityId
WITH DISTINCT entityId
MATCH (entity:Entity {generation: $generation, entity_id: entityId})
SET entity.memory_count = COUNT { (entity)<-[:MENTIONS]-(:Memory) }`

/**
 * How an event compares with what the graph holds at the same version: a live projector skips it (a replay), a
 * re-projection under another policy writes it again (`<=`).
 */
type Newer = '<' | '<='

// A memory node keeps the version of the last event applied; an event whose version is not higher changes nothing.
// Entities are shared by memories: created on first mention, never deleted with a memory; aliases accumulate.
const upsertMemories = (newer: Newer) => `
UNWIND $memories AS m
OPTIONAL MATCH (deleted:DeletedMemory {generation: $generation, id: m.id})
WITH m WHERE deleted IS NULL OR deleted.version ${newer} m.version
MERGE (memory:Memory {generation: $generation, id: m.id})
ON CREATE SET memory.version = 0
WITH memory, m WHERE memory.version ${newer} m.version
SET memory += m.properties, memory.version = m.version
WITH memory, m
CALL {
  WITH memory
  OPTIONAL MATCH (memory)-[:MENTIONS]->(:Entity)-[relation:RELATES_TO {memory_id: memory.id}]->(:Entity)
  DELETE relation
}
CALL {
  WITH memory
  OPTIONAL MATCH (memory)-[mention:MENTIONS]->(previous:Entity)
  DELETE mention
  RETURN collect(previous.entity_id) AS previousIds
}
CALL {
  WITH memory, m
  UNWIND m.entities AS mentioned
  MERGE (entity:Entity {generation: $generation, entity_id: mentioned.entity_id})
  ON CREATE SET entity.instance_id = m.properties.instance_id, entity.canonical_name = mentioned.canonical_name,
      entity.type = mentioned.type, entity.key = mentioned.key, entity.initials = mentioned.initials,
      entity.aliases = [], entity.alias_keys = []
  SET entity.aliases = entity.aliases + [alias IN mentioned.aliases WHERE NOT alias IN entity.aliases],
      entity.alias_keys = entity.alias_keys + [key IN mentioned.alias_keys WHERE NOT key IN entity.alias_keys]
  MERGE (memory)-[:MENTIONS]->(entity)
}
CALL {
  WITH memory, m
  UNWIND m.relations AS related
  MATCH (from:Entity {generation: $generation, entity_id: related.from_entity_id}),
      (to:Entity {generation: $generation, entity_id: related.to_entity_id})
  MERGE (from)-[relation:RELATES_TO {memory_id: memory.id, type: related.type}]->(to)
  // A relation holds while the memory stating it does.
  SET relation.valid_from = m.properties.valid_from, relation.valid_to = m.properties.valid_to
}
WITH previousIds
${recountTouched}`

// A deleted memory leaves only its id and version behind, so an older event (a racing update, a reprocessed
// document) cannot bring it back.
const deleteMemories = (newer: Newer) => `
UNWIND $deletions AS d
MATCH (memory:Memory {generation: $generation, id: d.id}) WHERE memory.version ${newer} d.version
CALL {
  WITH memory
  OPTIONAL MATCH (memory)-[:MENTIONS]->(entity:Entity)
  RETURN collect(entity.entity_id) AS previousIds
}
CALL {
  WITH memory
  OPTIONAL MATCH (memory)-[:MENTIONS]->(:Entity)-[relation:RELATES_TO {memory_id: memory.id}]->(:Entity)
  DELETE relation
}
DETACH DELETE memory
WITH previousIds
${recountTouched}`

const recordTombstones = `
UNWIND $deletions AS d
MERGE (deleted:DeletedMemory {generation: $generation, id: d.id})
ON CREATE SET deleted.version = d.version
ON MATCH SET deleted.version = CASE WHEN deleted.version < d.version THEN d.version ELSE deleted.version END`

// A memory withheld by an earlier policy left a tombstone at its own version; stored again, it loses it.
const liftTombstones = `
UNWIND $memories AS m
MATCH (deleted:DeletedMemory {generation: $generation, id: m.id}) WHERE deleted.version <= m.version
DELETE deleted`

function initialsOf(name: string): string | null {
  const words = name.split(/\s+/).filter((word) => /^[A-Za-z]/.test(word))
  return words.length >= 2 ? words.map((word) => word[0]?.toLowerCase() ?? '').join('') : null
}

/** Per memory, the highest version in the batch: events carry full state, so the last one is all that matters. */
function latestPerMemory(events: ConsumedEvent<MemoryChanged>[]): MemoryChanged[] {
  const latest = new Map<string, MemoryChanged>()
  for (const { payload } of events) {
    const known = latest.get(payload.memory_id)
    if (!known || known.version < payload.version) latest.set(payload.memory_id, payload)
  }
  return [...latest.values()]
}

/**
 * Memories into Neo4j: (Memory)-[:MENTIONS]->(Entity), and in long-range mode (Entity)-[:RELATES_TO]->(Entity)
 * per memory. One transaction per fetched batch; the version guard makes a replayed event a no-op.
 */
export function createGraphProjection(
  graph: Neo4jStore,
  options: { generation?: string; sameVersion?: 'skip' | 'replace' } = {},
) {
  const newer: Newer = options.sameVersion === 'replace' ? '<=' : '<'
  // The live projector follows the active generation (read per batch, so a rebuild's switch takes effect at the
  // next batch); a rebuild writes into the generation it fills.
  const generationOf = async (): Promise<string> => {
    if (options.generation) return options.generation
    const [row] = await graph.read<{ generation: string }>(activeGraphGenerationQuery)
    if (!row) throw new Error('the graph has no active generation; provisioning has not run')
    return row.generation
  }
  return async (events: ConsumedEvent<MemoryChanged>[]): Promise<void> => {
    const changes = latestPerMemory(events)
    const upserts = changes.filter((change) => change.change !== 'deleted')
    const deletions = changes.filter((change) => change.change === 'deleted')
    const touched = (list: MemoryChanged[]) => [
      ...new Set(list.flatMap((change) => change.memory.entities.map((entity) => entity.entity_id))),
    ]
    const statements = []
    if (upserts.length > 0) {
      const memories = upserts.map(({ memory_id, version }) => ({ id: memory_id, version }))
      if (newer === '<=') statements.push({ cypher: liftTombstones, params: { memories } })
      statements.push({
        cypher: upsertMemories(newer),
        params: {
          touched: touched(upserts),
          memories: upserts.map(({ memory, memory_id, version }) => ({
            id: memory_id,
            version,
            properties: {
              instance_id: memory.instance_id,
              type: memory.type,
              content: memory.content,
              user_id: memory.scope.user_id,
              customer_id: memory.scope.customer_id,
              speaker: memory.speaker,
              occurred_on: memory.occurred_on,
              created_at: memory.created_at,
              updated_at: memory.updated_at,
              ingestion_id: memory.source.ingestion_id,
              ...validityOf(memory),
            },
            entities: memory.entities.map((entity) => ({
              entity_id: entity.entity_id,
              canonical_name: entity.canonical_name,
              type: entity.type,
              key: entityKey(entity.canonical_name),
              initials: initialsOf(entity.canonical_name),
              aliases: entity.aliases ?? [],
              alias_keys: (entity.aliases ?? []).map((alias) => entityKey(alias)),
            })),
            relations: memory.relations,
          })),
        },
      })
    }
    if (deletions.length > 0) {
      statements.push({
        cypher: deleteMemories(newer),
        params: {
          touched: touched(deletions),
          deletions: deletions.map(({ memory_id, version }) => ({ id: memory_id, version })),
        },
      })
      statements.push({
        cypher: recordTombstones,
        params: { deletions: deletions.map(({ memory_id, version }) => ({ id: memory_id, version })) },
      })
    }
    if (statements.length === 0) return
    const generation = await generationOf()
    await graph.writeTransaction(
      statements.map(({ cypher, params }) => ({ cypher, params: { ...params, generation } })),
    )
  }
}
