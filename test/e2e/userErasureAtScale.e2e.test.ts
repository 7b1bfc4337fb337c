/**
 * Erasing a user with 100 000 memories (issue 56): the request answers while the job has removed nothing yet (its
 * answer does not wait on the user's history), and the job, run by the projectors, removes every memory from
 * Elasticsearch and Neo4j through the log and completes the receipt. Another user of the instance keeps theirs.
 *
 * The memories are seeded straight into both stores (written as the projections write them, without vectors: the
 * pipeline would take an hour to form 100 000); their removal goes the production way, one deletion event each,
 * applied by the projectors.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@elastic/elasticsearch'
import { createMemoryClient, type MemoryClient } from '@memory-service/client'
import type { UserErasureReceipt } from '@memory-service/contracts'
import { activeGraphGenerationQuery } from '@memory-service/read-models'
import {
  createElasticsearchClient,
  createNeo4jDriver,
  createNeo4jStore,
  type Neo4jStore,
} from '@memory-service/engines'
import { MEMORIES_ALIAS } from '@memory-service/domain'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

const memoriesOfErased = Number(process.env.ERASURE_SCALE_MEMORIES ?? 100_000)
const memoriesOfKept = 20
const entities = 50
const seedChunk = 5_000

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
let elasticsearch: Client
let neo4j: Neo4jStore
let instanceId: string
let clientId: string
const erased = uniqueName('erased-at-scale')
const kept = uniqueName('kept-at-scale')
const entityPrefix = `ent_${randomBytes(6).toString('hex')}_`

/** The memories mention the entities in turn: the kept user's 20 mention the first 20, the erased user's all 50. */
const entityIdOf = (n: number) => `${entityPrefix}${String(n % entities)}`
const memoryIdOf = (userId: string, n: number) =>
  `mem_${Buffer.from(userId).toString('hex').slice(0, 24)}${n.toString(16).padStart(8, '0')}`

/** The user's memories into Elasticsearch (version 1, as a first projection writes it) and into the graph. */
async function seed(userId: string, count: number, generation: string): Promise<void> {
  const at = new Date().toISOString()
  for (let start = 0; start < count; start += seedChunk) {
    const ids = Array.from({ length: Math.min(seedChunk, count - start) }, (_, i) => start + i)
    const response = await elasticsearch.bulk({
      operations: ids.flatMap((n) => [
        { index: { _index: MEMORIES_ALIAS, _id: memoryIdOf(userId, n), version: 1, version_type: 'external' } },
        {
          id: memoryIdOf(userId, n),
          instance_id: instanceId,
          type: 'fact',
          content: `Seeded memory number ${String(n)} of a large history.`,
          confidence: 0.9,
          entity_ids: [entityIdOf(n)],
          scope: { user_id: userId, customer_id: null, client_id: clientId },
          source: { ingestion_id: 'seeded', document_type: 'note', document_created_at: at },
          metadata: {},
          created_at: at,
          updated_at: at,
          mode: 'fast',
          version: 1,
          embedding_model: 'seeded',
        },
      ]),
    })
    expect(response.errors).toBe(false)
    await neo4j.write(
      `UNWIND $ids AS n
       CREATE (memory:Memory {generation: $generation, id: n.id, instance_id: $instanceId,
         user_id: $userId, version: 1})
       WITH memory, n
       MATCH (entity:Entity {generation: $generation, entity_id: n.entity_id})
       CREATE (memory)-[:MENTIONS]->(entity)`,
      {
        generation,
        instanceId,
        userId,
        ids: ids.map((n) => ({ id: memoryIdOf(userId, n), entity_id: entityIdOf(n) })),
      },
    )
  }
}

const inElasticsearch = async (userId: string) =>
  (
    await elasticsearch.count({
      index: MEMORIES_ALIAS,
      query: {
        bool: { filter: [{ term: { instance_id: instanceId } }, { term: { 'scope.user_id': userId } }] },
      },
    })
  ).count
const inGraph = async (userId: string) =>
  (
    await neo4j.read<{ n: number }>(
      `MATCH (m:Memory {instance_id: $instanceId, user_id: $userId}) RETURN count(m) AS n`,
      { instanceId, userId },
    )
  )[0]?.n ?? 0

const mentionsOf = async (userId: string) =>
  (
    await neo4j.read<{ n: number }>(
      `MATCH (m:Memory {instance_id: $instanceId, user_id: $userId})-[:MENTIONS]->(:Entity) RETURN count(m) AS n`,
      { instanceId, userId },
    )
  )[0]?.n ?? 0

beforeAll(async () => {
  harness = await startGatewayWithInstance('user-erasure-at-scale', { withWorkers: true })
  instanceId = harness.instance.instance.instance_id
  clientId = harness.instance.instance.client_id
  client = createMemoryClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
  elasticsearch = createElasticsearchClient(harness.config.elasticsearch)
  neo4j = createNeo4jStore(createNeo4jDriver(harness.config.neo4j), harness.config.neo4j.database)
  const generation = (await neo4j.read<{ generation: string }>(activeGraphGenerationQuery))[0]?.generation
  if (!generation) throw new Error('no active graph generation')
  await neo4j.write(
    `UNWIND $entityIds AS entityId
     CREATE (:Entity {generation: $generation, entity_id: entityId, instance_id: $instanceId,
       canonical_name: 'Seeded ' + entityId, type: 'concept', aliases: [], alias_keys: [], memory_count: 0})`,
    { entityIds: Array.from({ length: entities }, (_, n) => entityIdOf(n)), generation, instanceId },
  )
  await seed(erased, memoriesOfErased, generation)
  await seed(kept, memoriesOfKept, generation)
  await elasticsearch.indices.refresh({ index: MEMORIES_ALIAS })
}, 600_000)

afterAll(async () => {
  await elasticsearch.close()
  await neo4j.close()
  await harness.close()
})

describe('erasing a user of 100 000 memories', () => {
  it('answers before anything is removed and completes as a job that leaves nothing of theirs', async () => {
    expect(await inElasticsearch(erased)).toBe(memoriesOfErased)
    expect(await inGraph(erased)).toBe(memoriesOfErased)
    expect(await mentionsOf(kept)).toBe(memoriesOfKept)

    const asked = performance.now()
    const accepted = await client.users.erase(erased)
    const answeredMs = performance.now() - asked
    // Not a timing assertion: the answer came while every memory was still in both stores, so it did not wait for
    // their removal, whatever the history's size. The time is printed for docs/benchmarks.md.
    expect(accepted.status).toBe('running')
    expect(await inElasticsearch(erased)).toBe(memoriesOfErased)

    const receipt = await eventually<UserErasureReceipt>(async () => {
      const read = await client.users.erasure(erased, accepted.receipt_id)
      return read.status === 'completed' ? read : undefined
    }, 900_000)
    const completedMs = Date.parse(receipt.completed_at ?? '') - Date.parse(receipt.erased_at)
    console.log(
      `erasure of ${String(memoriesOfErased)} memories: answered in ${answeredMs.toFixed(0)} ms, ` +
        `completed in ${(completedMs / 1000).toFixed(1)} s`,
    )
    expect(receipt.removed.memories).toEqual({ elasticsearch: memoriesOfErased, neo4j: memoriesOfErased })
    expect(receipt.log.memory_deletions).toBe(memoriesOfErased)
    await elasticsearch.indices.refresh({ index: MEMORIES_ALIAS })
    expect(await inElasticsearch(erased)).toBe(0)
    expect(await inGraph(erased)).toBe(0)
    // The other user's memories, and the entities they mention, stay; none was only the erased user's.
    expect(await inElasticsearch(kept)).toBe(memoriesOfKept)
    expect(await inGraph(kept)).toBe(memoriesOfKept)
    expect(receipt.removed.entities.neo4j).toBe(entities - memoriesOfKept)
  }, 900_000)
})
