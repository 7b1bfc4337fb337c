import { afterAll, describe, expect, it } from 'vitest'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createNeo4jDriver, createNeo4jStore } from './createNeo4jStore.js'

const config = testConfig()
const store = createNeo4jStore(createNeo4jDriver(config.neo4j), config.neo4j.database)
// A label per test file keeps its nodes and constraints apart from every other run.
const label = uniqueName('TestEntity').replace(/[^A-Za-z0-9_]/g, '_')
const constraint = `${label}_id_unique`

afterAll(async () => {
  await store.write(`MATCH (n:${label}) DETACH DELETE n`)
  await store.write(`DROP CONSTRAINT ${constraint} IF EXISTS`)
  await store.close()
})

describe('neo4j store', () => {
  it('reports the server version and edition', async () => {
    expect(await store.version()).toMatch(/^\d+\.\d+\.\d+ community$/)
  })

  it('applies schema statements idempotently', async () => {
    const statements = [
      `CREATE CONSTRAINT ${constraint} IF NOT EXISTS FOR (n:${label}) REQUIRE n.entity_id IS UNIQUE`,
    ]
    await store.applySchema(statements)
    await store.applySchema(statements)
    const constraints = await store.read<{ name: string }>(
      'SHOW CONSTRAINTS YIELD name WHERE name = $name RETURN name',
      {
        name: constraint,
      },
    )
    expect(constraints).toEqual([{ name: constraint }])
  })

  it('merges the same entity twice into one node and reads it back with its relation', async () => {
    const merge = `MERGE (person:${label} {entity_id: $id}) SET person.canonical_name = $name
                   MERGE (place:${label} {entity_id: $placeId}) SET place.canonical_name = $place
                   MERGE (person)-[:LIVES_IN]->(place)`
    const params = { id: 'ent_caroline', name: 'Caroline', placeId: 'ent_lisbon', place: 'Lisbon' }
    await store.write(merge, params)
    await store.write(merge, params)
    const rows = await store.read<{ name: string; place: string; count: number }>(
      `MATCH (person:${label} {entity_id: $id})-[:LIVES_IN]->(place:${label})
       RETURN person.canonical_name AS name, place.canonical_name AS place, count { (:${label} {entity_id: $id}) } AS count`,
      { id: 'ent_caroline' },
    )
    expect(rows).toEqual([{ name: 'Caroline', place: 'Lisbon', count: 1 }])
  })

  it('rejects a second node with the same constrained id', async () => {
    await store.applySchema([
      `CREATE CONSTRAINT ${constraint} IF NOT EXISTS FOR (n:${label}) REQUIRE n.entity_id IS UNIQUE`,
    ])
    await store.write(`MERGE (:${label} {entity_id: 'ent_dup'})`)
    await expect(store.write(`CREATE (:${label} {entity_id: 'ent_dup'})`)).rejects.toMatchObject({
      code: 'Neo.ClientError.Schema.ConstraintValidationFailed',
    })
  })
})
