import { aliasMatch, entityIdFor, entityKey, type KnownEntity } from './entityNames.js'
import { type ExtractedStatement, type IngestionMode, type RecognizedEntity } from './extraction.js'
import { type MemoryEntity, type MemoryState } from '../memories/memories.js'

/** An entity the instance already has (from the graph), as long-range resolution compares against. */
export interface StoredEntity extends KnownEntity {
  entity_id: string
}

export interface ResolvedStatement {
  statement: ExtractedStatement
  entities: MemoryEntity[]
  relations: MemoryState['relations']
}

/**
 * Gives every recognized entity its instance-wide id. Both modes merge case and spelling variants through the
 * normalized key (the id is derived from it, so the same name gets the same id in every document without a lookup).
 * Long-range also matches aliases — a first name, a nickname prefix, an acronym — against the entities the instance
 * already has and those met earlier in the same document, and keeps the relations between entities.
 */
export function resolveEntities(
  instanceId: string,
  mode: IngestionMode,
  statements: ExtractedStatement[],
  known: StoredEntity[],
): ResolvedStatement[] {
  const seen = new Map<string, StoredEntity>()
  const candidates: StoredEntity[] = [...known]

  const resolveOne = (recognized: RecognizedEntity): MemoryEntity => {
    const key = entityKey(recognized.name)
    const cached = seen.get(key)
    if (cached) return toMemoryEntity(cached, recognized.name)
    const matched = mode === 'long-range' ? aliasMatch(recognized.name, candidates) : null
    const entity: StoredEntity = matched
      ? { ...matched }
      : {
          entity_id: entityIdFor(instanceId, key),
          canonical_name: recognized.name.trim(),
          type: recognized.type,
          aliases: [],
        }
    seen.set(key, entity)
    if (!matched) candidates.push(entity)
    return toMemoryEntity(entity, recognized.name)
  }

  return statements.map((statement) => {
    const byName = new Map<string, MemoryEntity>()
    for (const recognized of statement.entities) byName.set(recognized.name, resolveOne(recognized))
    const entities = dedupeById([...byName.values()])
    const relations =
      mode === 'long-range'
        ? statement.relations.flatMap((relation) => {
            const from = byName.get(relation.from)
            const to = byName.get(relation.to)
            return from && to && from.entity_id !== to.entity_id
              ? [{ from_entity_id: from.entity_id, to_entity_id: to.entity_id, type: relation.type }]
              : []
          })
        : []
    return { statement, entities, relations }
  })
}

function toMemoryEntity(entity: StoredEntity, mentionedAs: string): MemoryEntity {
  const aliases = entityKey(mentionedAs) === entityKey(entity.canonical_name) ? [] : [mentionedAs.trim()]
  return {
    entity_id: entity.entity_id,
    canonical_name: entity.canonical_name,
    type: entity.type,
    ...(aliases.length > 0 ? { aliases } : {}),
  }
}

function dedupeById(entities: MemoryEntity[]): MemoryEntity[] {
  const byId = new Map<string, MemoryEntity>()
  for (const entity of entities) {
    const existing = byId.get(entity.entity_id)
    byId.set(
      entity.entity_id,
      existing
        ? { ...existing, aliases: [...new Set([...(existing.aliases ?? []), ...(entity.aliases ?? [])])] }
        : entity,
    )
  }
  return [...byId.values()]
}
