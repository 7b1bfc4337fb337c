// Constraints the graph projection relies on: MERGE on these ids makes replayed events harmless.
CREATE CONSTRAINT entity_id_unique IF NOT EXISTS FOR (entity:Entity) REQUIRE entity.entity_id IS UNIQUE;
CREATE CONSTRAINT memory_id_unique IF NOT EXISTS FOR (memory:Memory) REQUIRE memory.id IS UNIQUE;
CREATE INDEX entity_scope IF NOT EXISTS FOR (entity:Entity) ON (entity.instance_id, entity.canonical_name);
// Long-range entity resolution looks entities up by normalized key within an instance.
CREATE INDEX entity_key IF NOT EXISTS FOR (entity:Entity) ON (entity.instance_id, entity.key);
CREATE INDEX memory_instance IF NOT EXISTS FOR (memory:Memory) ON (memory.instance_id);
// Tombstones of deleted memories (id and version only) keep older events from recreating them.
CREATE CONSTRAINT deleted_memory_id_unique IF NOT EXISTS FOR (deleted:DeletedMemory) REQUIRE deleted.id IS UNIQUE;
