// Constraints the graph projection relies on: MERGE on these ids makes replayed events harmless. The projection lives
// in generations (a rebuild fills the next one while the active one serves), so every id is unique per generation.
DROP CONSTRAINT entity_id_unique IF EXISTS;
DROP CONSTRAINT memory_id_unique IF EXISTS;
DROP CONSTRAINT deleted_memory_id_unique IF EXISTS;
DROP INDEX entity_scope IF EXISTS;
DROP INDEX entity_key IF EXISTS;
DROP INDEX memory_instance IF EXISTS;
CREATE CONSTRAINT entity_generation_id_unique IF NOT EXISTS FOR (entity:Entity) REQUIRE (entity.generation, entity.entity_id) IS UNIQUE;
CREATE CONSTRAINT memory_generation_id_unique IF NOT EXISTS FOR (memory:Memory) REQUIRE (memory.generation, memory.id) IS UNIQUE;
// Tombstones of deleted memories (id and version only) keep older events from recreating them.
CREATE CONSTRAINT deleted_memory_generation_id_unique IF NOT EXISTS FOR (deleted:DeletedMemory) REQUIRE (deleted.generation, deleted.id) IS UNIQUE;
CREATE CONSTRAINT projection_state_unique IF NOT EXISTS FOR (state:ProjectionState) REQUIRE state.projection IS UNIQUE;
// Entity resolution and search look entities up by normalized key within an instance.
CREATE INDEX entity_generation_key IF NOT EXISTS FOR (entity:Entity) ON (entity.generation, entity.instance_id, entity.key);
CREATE INDEX memory_generation_instance IF NOT EXISTS FOR (memory:Memory) ON (memory.generation, memory.instance_id);
CREATE INDEX entity_generation IF NOT EXISTS FOR (entity:Entity) ON (entity.generation);
// Which generation readers use ($graph_state and $first_generation carry the deployment's namespace: 'graph' and
// 'g1' by default). Data written before generations existed belongs to the first. That scan of every node runs once:
// the pointer remembers it was done, so later starts skip it.
MERGE (state:ProjectionState {projection: $graph_state}) ON CREATE SET state.generation = $first_generation;
MATCH (state:ProjectionState {projection: $graph_state}) WHERE state.labelled_generations IS NULL CALL { MATCH (node) WHERE (node:Memory OR node:Entity OR node:DeletedMemory) AND node.generation IS NULL SET node.generation = $first_generation } SET state.labelled_generations = true;
