/**
 * Erasing a user on the real stack: one call destroys their key and starts the erasure job, which removes their
 * memories from Elasticsearch and Neo4j, the entities only they were mentioned in, their conversations and turns;
 * the receipt, read by its id, counts each store once completed; afterwards every store is checked directly for
 * anything left, another user's data is untouched, and a purged conversation is not found.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@elastic/elasticsearch'
import { createMemoryClient, type MemoryClient } from '@memory-service/client'
import type { UserErasureReceipt } from '@memory-service/contracts'
import { activeGraphGeneration, turnDocumentId, createConversationStore } from '@memory-service/read-models'
import {
  createElasticsearchClient,
  createNeo4jDriver,
  createNeo4jStore,
  type Neo4jStore,
} from '@memory-service/engines'
import {
  MEMORIES_ALIAS,
  CONVERSATION_EVENTS_TOPIC,
  CONVERSATION_TURNS_INDEX,
  CONVERSATIONS_INDEX,
} from '@memory-service/domain'
import { createConversationProjection } from '@memory-service/read-models'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
let elasticsearch: Client
let neo4j: Neo4jStore
let instanceId: string
const erased = uniqueName('erased-user')
const kept = uniqueName('kept-user')
const conversationId = uniqueName('erased-conv')
const uniquePlace = `Zyx${uniqueName('ville').replace(/[^a-z0-9]/gi, '')}`

async function remember(userId: string, document: string): Promise<string[]> {
  const accepted = await client.memories.ingest({
    document,
    document_type: 'note',
    mode: 'long-range',
    user_id: userId,
  })
  const job = await completedJob(client, accepted.ingestion_id)
  return job.memory_ids ?? []
}

const count = async (index: string, filter: object[]) =>
  (await elasticsearch.count({ index, query: { bool: { filter } } })).count
const graphCount = async (cypher: string, params: Record<string, unknown>) =>
  (await neo4j.read<{ n: number }>(`${activeGraphGeneration}\n${cypher}`, params))[0]?.n ?? 0

beforeAll(async () => {
  harness = await startGatewayWithInstance('user-erasure', { withWorkers: true })
  instanceId = harness.instance.instance.instance_id
  client = createMemoryClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
  elasticsearch = createElasticsearchClient(harness.config.elasticsearch)
  neo4j = createNeo4jStore(createNeo4jDriver(harness.config.neo4j), harness.config.neo4j.database)
})

afterAll(async () => {
  await elasticsearch.close()
  await neo4j.close()
  await harness.close()
})

describe('erasing a user', () => {
  it('removes their data from every store, lists it in the receipt, and leaves others untouched', async () => {
    const erasedMemories = [
      ...(await remember(erased, `My sister Clara moved to ${uniquePlace} last year. I love sushi.`)),
      ...(await remember(erased, 'My friend Clara works as a nurse in Lisbon.')),
    ]
    const keptMemories = await remember(kept, 'My colleague Marco lives in Lisbon.')
    await client.conversations.ingestTranscript(conversationId, {
      user_id: erased,
      messages: [
        { role: 'user', content: `I am planning a trip to ${uniquePlace}.` },
        { role: 'assistant', content: 'When would you like to go?' },
        { role: 'user', content: 'In May, with my sister Clara.' },
        { role: 'assistant', content: 'May is a good month.' },
      ],
    })
    await eventually(async () =>
      (await client.conversations.context(conversationId, { user_id: erased })).recent_turns.length === 4
        ? true
        : undefined,
    )
    // Compaction hands the compacted turns to extraction: they become memories of the user too.
    const compaction = await client.conversations.compact(conversationId, { user_id: erased, keep_recent: 1 })
    await eventually(async () => {
      const status = await client.memories.status(compaction.ingestion_id ?? '')
      return status.status === 'completed' ? true : undefined
    }, 60_000)
    const ownedMemories = [{ term: { instance_id: instanceId } }, { term: { 'scope.user_id': erased } }]
    const stored = await eventually(async () => {
      await elasticsearch.indices.refresh({ index: MEMORIES_ALIAS })
      const n = await count(MEMORIES_ALIAS, ownedMemories)
      return n > erasedMemories.length ? n : undefined
    })
    const inGraph = await eventually(async () => {
      const n = await graphCount(
        'MATCH (m:Memory {generation: generation, instance_id: $i, user_id: $u}) RETURN count(m) AS n',
        {
          i: instanceId,
          u: erased,
        },
      )
      return n === stored ? n : undefined
    })
    const placeEntities = await graphCount(
      'MATCH (e:Entity {generation: generation, instance_id: $i}) WHERE e.canonical_name = $p RETURN count(e) AS n',
      { i: instanceId, p: uniquePlace },
    )
    expect(placeEntities).toBe(1)

    // Answered at once, the job running; the same receipt read by its id until the job has completed it.
    const response = await fetch(`${harness.gateway.addresses.http ?? ''}/v1/users/${erased}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${harness.instance.api_key.key}` },
    })
    expect(response.status).toBe(202)
    const accepted = (await response.json()) as UserErasureReceipt
    expect(accepted).toMatchObject({
      receipt_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      user_id: erased,
      completed_at: null,
      log: { data_key_destroyed: true },
    })
    expect(accepted.log.erasure_event_id).toBe(accepted.receipt_id)
    // Another user's path, or an id nobody was given, does not find it.
    await expect(client.users.erasure(kept, accepted.receipt_id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(
      client.users.erasure(erased, `evt_${randomBytes(16).toString('hex')}`),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const receipt = await eventually(async () => {
      const read = await client.users.erasure(erased, accepted.receipt_id)
      return read.status === 'completed' ? read : undefined
    }, 60_000)
    expect(receipt).toEqual({
      receipt_id: accepted.receipt_id,
      instance_id: instanceId,
      user_id: erased,
      status: 'completed',
      erased_at: accepted.erased_at,
      completed_at: expect.any(String),
      removed: {
        memories: { elasticsearch: stored, neo4j: inGraph },
        entities: { neo4j: expect.any(Number) },
        conversations: { elasticsearch: 1 },
        turns: { elasticsearch: 4 },
      },
      log: {
        memory_deletions: stored,
        erasure_event_id: accepted.receipt_id,
        data_key_destroyed: true,
      },
    })
    // The place only they mentioned is gone; Clara and Lisbon are shared with the other user or stay mentioned.
    expect((receipt.removed as { entities: { neo4j: number } }).entities.neo4j).toBeGreaterThanOrEqual(1)

    // Nothing of theirs is left anywhere.
    expect(
      await count(MEMORIES_ALIAS, [
        { term: { instance_id: instanceId } },
        { term: { 'scope.user_id': erased } },
      ]),
    ).toBe(0)
    expect(
      await count(CONVERSATION_TURNS_INDEX, [
        { term: { instance_id: instanceId } },
        { term: { user_id: erased } },
      ]),
    ).toBe(0)
    expect(
      await count(CONVERSATIONS_INDEX, [
        { term: { instance_id: instanceId } },
        { term: { user_id: erased } },
      ]),
    ).toBe(0)
    expect(
      await graphCount(
        'MATCH (m:Memory {generation: generation, instance_id: $i, user_id: $u}) RETURN count(m) AS n',
        {
          i: instanceId,
          u: erased,
        },
      ),
    ).toBe(0)
    expect(
      await graphCount(
        'MATCH (e:Entity {generation: generation, instance_id: $i}) WHERE e.canonical_name = $p RETURN count(e) AS n',
        { i: instanceId, p: uniquePlace },
      ),
    ).toBe(0)
    for (const memoryId of erasedMemories) {
      await expect(client.memories.get(memoryId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    }
    expect(
      (await client.memories.search({ query: 'Clara sushi', user_id: erased, mode: 'fast' })).results,
    ).toEqual([])
    // Their conversation is purged: not found, not an empty new one.
    await expect(client.conversations.context(conversationId, { user_id: erased })).rejects.toMatchObject({
      status: 404,
      code: 'CONVERSATION_NOT_FOUND',
      details: { conversation_id: conversationId },
    })

    // The other user keeps everything.
    for (const memoryId of keptMemories)
      expect((await client.memories.get(memoryId)).scope.user_id).toBe(kept)
    expect(
      await graphCount(
        'MATCH (m:Memory {generation: generation, instance_id: $i, user_id: $u}) RETURN count(m) AS n',
        {
          i: instanceId,
          u: kept,
        },
      ),
    ).toBe(keptMemories.length)
  })

  it('a turn of the erased user received before the erasure, delivered again (a replay), is not stored', async () => {
    const writer = createConversationProjection(createConversationStore(elasticsearch))
    const conversationId = uniqueName('replayed')
    const turn = (userId: string, eventId: string) => ({
      topic: CONVERSATION_EVENTS_TOPIC,
      partition: 0,
      offset: '999999',
      key: null,
      headers: {},
      correlationId: undefined,
      raw: { key: null, value: Buffer.alloc(0), headers: {} },
      payload: {
        type: 'conversation_event_recorded' as const,
        event_id: eventId,
        client_event_id: null,
        instance_id: instanceId,
        client_id: harness.instance.instance.client_id,
        conversation_id: conversationId,
        user_id: userId,
        customer_id: null,
        event_type: 'user_message' as const,
        role: 'user' as const,
        content: 'a turn from before the erasure',
        metadata: {},
        occurred_at: '2020-01-01T00:00:00.000Z',
        received_at: '2020-01-01T00:00:00.000Z',
      },
    })
    const replayedId = `evt_${randomBytes(16).toString('hex')}`
    const otherId = `evt_${randomBytes(16).toString('hex')}`
    await writer([turn(erased, replayedId), turn(kept, otherId)])
    const stored = await elasticsearch.mget({
      index: CONVERSATION_TURNS_INDEX,
      ids: [replayedId, otherId].map((eventId) => turnDocumentId(instanceId, conversationId, eventId)),
    })
    expect(stored.docs.map((doc) => 'found' in doc && doc.found)).toEqual([false, true])
  })

  it('needs instances:write: an agent key cannot erase', async () => {
    const agent = await harness.tenancy.issueKey(
      instanceId,
      ['memories:read', 'memories:write', 'events:write'],
      'erasure-e2e',
    )
    await harness.untilUsable(agent.key)
    const response = await fetch(`${harness.gateway.addresses.http ?? ''}/v1/users/${kept}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${agent.key}` },
    })
    expect(response.status).toBe(403)
    expect(((await response.json()) as { code: string }).code).toBe('FORBIDDEN')
  })
})
