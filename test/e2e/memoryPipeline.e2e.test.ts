/**
 * The memory pipeline on the real stack: documents become memories through every stage, land in Elasticsearch
 * and Neo4j, and can be read, listed, updated and deleted through the API. Failures (injected by markers, see
 * test/support/faultInjection.ts) end in failed or partial_success jobs with errors and dead letters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEventProducer, deadLetterHeaders, type EventProducer } from '@memory-service/log'
import { createNeo4jDriver, createNeo4jStore, type Neo4jStore } from '@memory-service/engines'
import {
  DOCUMENT_SUBJECT,
  DOCUMENTS_TOPIC,
  documentAcceptedSchema,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  MEMORY_SUBJECT,
  memoryChangedSchema,
  DEAD_LETTER_TOPIC,
} from '@memory-service/domain'
import { type MemoryClient } from '@memory-service/client'
import {
  type CreatedInstance,
  type Document,
  type DocumentAccepted,
  type ErrorBody,
  type IngestionStatus,
  type Memory,
  type MemoryChanged,
  type MemoryUpdateRequest,
} from '@memory-service/contracts'
import { faultMarkers } from '../support/faultInjection.js'
import { createTestClient, refusal, request, type Exchange } from '../support/http.js'
import { eventually, readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let other: CreatedInstance
let graph: Neo4jStore
let producer: EventProducer

let client: MemoryClient
let otherClient: MemoryClient
/** Every response the clients of this file received, for what the library does not return (204, an empty body). */
const exchanges: Exchange[] = []

async function ingest(document: Pick<Document, 'document'> & Partial<Document>): Promise<string> {
  const created = await client.memories.ingest({
    document_type: 'ai-chat-conversation',
    mode: 'fast',
    document_created_at: '2023-05-08T13:56:00.000Z',
    ...document,
  })
  return created.ingestion_id
}

async function finished(ingestionId: string): Promise<IngestionStatus> {
  return eventually(async () => {
    const job = await client.memories.status(ingestionId)
    return ['completed', 'failed', 'partial_success'].includes(job.status) ? job : undefined
  }, 60_000)
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('memory-pipeline', { withWorkers: true })
  instance = harness.instance
  other = await harness.createInstance('memory-pipeline-other')
  const baseUrl = harness.gateway.addresses.http ?? ''
  client = createTestClient({ baseUrl, apiKey: instance.api_key.key, exchanges })
  otherClient = createTestClient({ baseUrl, apiKey: other.api_key.key, exchanges })
  graph = createNeo4jStore(createNeo4jDriver(harness.config.neo4j), harness.config.neo4j.database)
  await harness.codec.register([{ subject: DOCUMENT_SUBJECT, schema: documentAcceptedSchema }])
  producer = await createEventProducer(harness.kafka, harness.codec)
})

afterAll(async () => {
  await producer.close()
  await graph.close()
  await harness.close()
})

describe('a document through every stage', () => {
  let job: IngestionStatus
  let memories: Memory[]
  const userId = uniqueName('user')

  beforeAll(async () => {
    const ingestionId = await ingest({
      document:
        'Caroline: I went to a LGBTQ support group yesterday and it was so powerful.\n' +
        'Melanie: That sounds amazing! I am taking my kids to the Grand Canyon next month.',
      mode: 'long-range',
      user_id: userId,
      customer_id: 'acme',
      metadata: { dia_id: 'D1:3', session: 1 },
    })
    job = await finished(ingestionId)
    memories = await Promise.all((job.memory_ids ?? []).map((id) => client.memories.get(id)))
  })

  it('completes with every stage done and lists the memories it produced', () => {
    expect(job.status, JSON.stringify(job.errors)).toBe('completed')
    expect(job.progress).toEqual({ extraction: 1, categorization: 1, entity_resolution: 1, storage: 1 })
    expect(job.errors).toEqual([])
    expect(job.memory_ids?.length).toBeGreaterThanOrEqual(2)
  })

  it('serves each memory with every field of the spec', () => {
    const caroline = memories.find((item) => item.content.includes('Caroline'))
    expect(caroline).toMatchObject({
      id: expect.stringMatching(/^mem_[0-9a-f]+$/) as unknown,
      type: expect.stringMatching(/^(fact|preference|episode|emotion|temporal_event)$/) as unknown,
      scope: { user_id: userId, customer_id: 'acme', client_id: instance.instance.client_id },
      source: {
        ingestion_id: job.ingestion_id,
        document_type: 'ai-chat-conversation',
        document_created_at: '2023-05-08T13:56:00.000Z',
      },
      metadata: { dia_id: 'D1:3', session: 1 },
      updated_at: null,
    })
    expect(caroline?.content).toMatch(/7 May 2023/)
    expect(caroline?.confidence).toBeGreaterThan(0)
    expect(caroline?.confidence).toBeLessThanOrEqual(1)
    expect(caroline?.entities).toContainEqual({
      canonical_name: 'Caroline',
      type: 'person',
      entity_id: expect.stringMatching(/^ent_[0-9a-f]+$/) as unknown,
    })
  })

  it('stores the memories with their vectors in Elasticsearch and their entities in Neo4j', async () => {
    const { elasticsearch } = await import('@memory-service/engines').then((shared) => ({
      elasticsearch: shared.createElasticsearchClient(harness.config.elasticsearch),
    }))
    try {
      const stored = await elasticsearch.get<{ embedding: number[]; entity_ids: string[] }>(
        { index: MEMORIES_ALIAS, id: memories[0]?.id ?? '' },
        { querystring: { _source_exclude_vectors: false } },
      )
      expect(stored._source?.embedding).toHaveLength(harness.config.embeddings.dimension)
    } finally {
      await elasticsearch.close()
    }
    const ids = memories.map((item) => item.id)
    const rows = await eventually(async () => {
      const found = await graph.read<{ id: string; names: string[] }>(
        `MATCH (memory:Memory)-[:MENTIONS]->(entity:Entity) WHERE memory.id IN $ids
         RETURN memory.id AS id, collect(entity.canonical_name) AS names`,
        { ids },
      )
      return found.length === ids.length ? found : undefined
    })
    expect(rows.flatMap((row) => row.names)).toEqual(expect.arrayContaining(['Caroline', 'Melanie']))
  })

  it('resolves the same person in another document, in another spelling, to the same entity', async () => {
    const carolineId = memories
      .flatMap((item) => item.entities)
      .find((entity) => entity.canonical_name === 'Caroline')?.entity_id
    const second = await finished(
      await ingest({ document: 'CAROLINE: My sister moved to Lisbon last year.', user_id: userId }),
    )
    const [first] = second.memory_ids ?? []
    const { entities } = await client.memories.get(first ?? '')
    expect(entities.map((entity) => entity.entity_id)).toContain(carolineId)
  })
})

describe('failures are never silent', () => {
  it('an extractor that stays unavailable: retried, dead-lettered with its errors, job failed', async () => {
    const ingestionId = await ingest({
      document: `Caroline: I adopted a puppy. ${faultMarkers.extractionUnavailable}`,
    })
    const job = await finished(ingestionId)
    expect(job.status).toBe('failed')
    expect(job.errors).toEqual([
      expect.objectContaining({ stage: 'extraction', code: 'EXTRACTION_UNAVAILABLE' }),
    ])
    const letters = await eventually(async () => {
      const records = await readTopicToEnd<DocumentAccepted>(harness.kafka, harness.codec, DEAD_LETTER_TOPIC)
      const mine = records.filter((record) => record.value.ingestion_id === ingestionId)
      return mine.length > 0 ? mine : undefined
    })
    const [letter] = letters
    expect(letter?.headers[deadLetterHeaders.topic]).toBe(DOCUMENTS_TOPIC)
    expect(Number(letter?.headers[deadLetterHeaders.offset])).toBeGreaterThanOrEqual(0)
    expect(letter?.headers['x-correlation-id']).toBeTruthy()
    expect(JSON.parse(letter?.headers[deadLetterHeaders.errors] ?? '[]')).toEqual([
      expect.objectContaining({ stage: 'extraction', code: 'EXTRACTION_UNAVAILABLE', attempts: 3 }),
    ])
    expect(letter?.value.document).toContain('I adopted a puppy')
  })

  it('malformed extractor output is refused, not stored: job failed', async () => {
    const job = await finished(
      await ingest({ document: `Caroline: hi. ${faultMarkers.malformedExtraction}` }),
    )
    expect(job).toMatchObject({ status: 'failed', memory_ids: [] })
    expect(job.errors[0]).toMatchObject({ stage: 'extraction', code: 'EXTRACTION_MALFORMED_OUTPUT' })
  })

  it('one statement the embedder cannot take: the others are stored, job partial_success', async () => {
    const job = await finished(
      await ingest({
        document:
          'Caroline: I started painting landscapes in March.\n' +
          `Melanie: I ran the Boston marathon ${faultMarkers.embeddingUnavailable} in April.\n` +
          'Caroline: My grandmother gave me a necklace from Sweden.',
      }),
    )
    expect(job.status).toBe('partial_success')
    expect(job.memory_ids?.length).toBeGreaterThanOrEqual(2)
    expect(job.errors).toEqual([expect.objectContaining({ stage: 'storage', code: 'EMBEDDING_UNAVAILABLE' })])
  })

  it('a document with nothing worth remembering completes with no memory and says why', async () => {
    const job = await finished(await ingest({ document: 'Caroline: Hey Mel! Good to see you!' }))
    expect(job).toMatchObject({
      status: 'completed',
      memory_ids: [],
      errors: [],
      reason: { code: 'NOTHING_TO_REMEMBER', message: expect.any(String) },
    })
  })

  it('a duplicated Kafka message does not duplicate a memory', async () => {
    const ingestionId = await ingest({
      document: 'Caroline: I bought a red bicycle last week.',
      user_id: 'dup',
    })
    const job = await finished(ingestionId)
    const records = await readTopicToEnd<DocumentAccepted>(harness.kafka, harness.codec, DOCUMENTS_TOPIC)
    const accepted = records.find((record) => record.value.ingestion_id === ingestionId)
    expect(accepted).toBeDefined()
    const marker = await ingest({ document: 'Caroline: I planted tomatoes in the garden.', user_id: 'dup' })
    await producer.append(DOCUMENTS_TOPIC, [
      {
        key: `${instance.instance.instance_id}/${ingestionId}`,
        subject: DOCUMENT_SUBJECT,
        payload: accepted?.value,
        correlationId: uniqueName('duplicate'),
      },
    ])
    await finished(await ingest({ document: 'Caroline: I visited my aunt in Ohio.', user_id: 'dup' }))
    await finished(marker)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const listed = await client.memories.list({ ingestion_id: ingestionId })
    expect(listed.total).toBe(job.memory_ids?.length)
    const nodes = await graph.read<{ count: number }>(
      'MATCH (memory:Memory {ingestion_id: $ingestionId}) RETURN count(memory) AS count',
      { ingestionId },
    )
    expect(nodes[0]?.count).toBe(job.memory_ids?.length)
  })
  it('a memory event replayed with the same version, even with other content, changes neither projection', async () => {
    const job = await finished(await ingest({ document: 'Caroline: I adore jazz music.', user_id: 'replay' }))
    const memoryId = job.memory_ids?.[0] ?? ''
    const original = await client.memories.get(memoryId)
    // The job finishes when the memory is stored; the graph projects it on its own consumer, so wait for it there.
    await eventually(async () => {
      const rows = await graph.read<{ version: number }>(
        'MATCH (memory:Memory {id: $memoryId}) RETURN memory.version AS version',
        { memoryId },
      )
      return rows[0]?.version === 1 ? true : undefined
    })
    const countsBefore = await graph.read<{ id: string; count: number }>(
      `MATCH (:Memory {id: $memoryId})-[:MENTIONS]->(entity:Entity)
       RETURN entity.entity_id AS id, entity.memory_count AS count ORDER BY id`,
      { memoryId },
    )
    expect(countsBefore.length).toBeGreaterThan(0)
    const rival: MemoryChanged = {
      type: 'memory_changed',
      change: 'created',
      event_id: uniqueName('rival'),
      memory_id: memoryId,
      instance_id: instance.instance.instance_id,
      version: 1,
      changed_at: new Date().toISOString(),
      memory: {
        ...original,
        instance_id: instance.instance.instance_id,
        content: 'Caroline hates jazz and lives with Gina.',
        entities: [{ entity_id: 'ent_0000000000000bad', canonical_name: 'Gina', type: 'person' }],
        relations: [],
        occurred_on: null,
        speaker: 'Caroline',
        mode: 'fast',
        embedding: {
          model: 'test',
          vector: new Array<number>(harness.config.embeddings.dimension).fill(0.1),
        },
      },
    }
    await harness.codec.register([{ subject: MEMORY_SUBJECT, schema: memoryChangedSchema }])
    await producer.append(MEMORIES_TOPIC, [
      { key: memoryId, subject: MEMORY_SUBJECT, payload: rival, correlationId: uniqueName('replay') },
    ])
    // A change behind it on the same key (same partition, so after it in both projectors) shows it was consumed.
    const patched = await client.memories.update(memoryId, { confidence: 0.55 })
    await eventually(async () => {
      const rows = await graph.read<{ version: number }>(
        'MATCH (memory:Memory {id: $memoryId}) RETURN memory.version AS version',
        { memoryId },
      )
      return rows[0]?.version === 2 ? true : undefined
    })
    expect(patched).toEqual({ ...original, confidence: 0.55, updated_at: patched.updated_at })
    const graphContent = await graph.read<{ content: string }>(
      'MATCH (memory:Memory {id: $memoryId}) RETURN memory.content AS content',
      { memoryId },
    )
    expect(graphContent[0]?.content).toBe(original.content)
    const countsAfter = await graph.read<{ id: string; count: number }>(
      `MATCH (:Memory {id: $memoryId})-[:MENTIONS]->(entity:Entity)
       RETURN entity.entity_id AS id, entity.memory_count AS count ORDER BY id`,
      { memoryId },
    )
    expect(countsAfter.map((row) => row.id)).toEqual(countsBefore.map((row) => row.id))
  })
})

describe('reading, updating and deleting memories', () => {
  let memoryId: string
  const userId = uniqueName('editor')

  beforeAll(async () => {
    const job = await finished(
      await ingest({
        document: 'Caroline: I live in Boston. I love hiking with my dog Max.',
        user_id: userId,
        metadata: { source: 'chat', dia_id: 'D2:1' },
      }),
    )
    memoryId = job.memory_ids?.[0] ?? ''
  })

  it('PATCH replace: the answer and a GET right after show the new content, re-embedded', async () => {
    const patched = await client.memories.update(memoryId, {
      content: 'Caroline lives in Lisbon with Melanie.',
      merge_strategy: 'replace',
    })
    expect(exchanges.at(-1)?.status).toBe(200)
    expect(patched).toMatchObject({ id: memoryId, content: 'Caroline lives in Lisbon with Melanie.' })
    expect(patched.updated_at).toEqual(expect.any(String))
    const read = await client.memories.get(memoryId)
    expect(read).toEqual(patched)
    expect(read.entities.map((entity) => entity.canonical_name)).toEqual(expect.arrayContaining(['Lisbon']))
  })

  it('PATCH append keeps the original and adds; smart-merge prefers the newer statement on conflict', async () => {
    const appended = await client.memories.update(memoryId, {
      content: 'Caroline plays the guitar.',
      merge_strategy: 'append',
    })
    expect(appended.content).toBe('Caroline lives in Lisbon with Melanie. Caroline plays the guitar.')
    const merged = await client.memories.update(memoryId, {
      content: 'Caroline lives in Porto with Melanie. Caroline plays the guitar.',
      merge_strategy: 'smart-merge',
    })
    expect(merged.content).toBe('Caroline lives in Porto with Melanie. Caroline plays the guitar.')
    expect((await client.memories.get(memoryId)).content).toBe(merged.content)
  })

  it('concurrent PATCH appends on one memory: neither is lost', async () => {
    const before = (await client.memories.get(memoryId)).content
    exchanges.length = 0
    await Promise.all([
      client.memories.update(memoryId, { content: 'Caroline sings.', merge_strategy: 'append' }),
      client.memories.update(memoryId, { content: 'Caroline paints.', merge_strategy: 'append' }),
    ])
    expect(exchanges.map((exchange) => exchange.status)).toEqual([200, 200])
    const after = (await client.memories.get(memoryId)).content
    expect(after.startsWith(before)).toBe(true)
    expect(after).toContain('Caroline sings.')
    expect(after).toContain('Caroline paints.')
    // Put the content back for the tests that follow.
    await client.memories.update(memoryId, { content: before })
  })

  it('PATCH confidence and metadata: metadata merged into the existing', async () => {
    const patched = await client.memories.update(memoryId, {
      confidence: 0.42,
      metadata: { reviewed: true },
    })
    expect(patched).toMatchObject({
      confidence: 0.42,
      metadata: { source: 'chat', dia_id: 'D2:1', reviewed: true },
    })
  })

  it('PATCH refuses invalid bodies with INVALID_INPUT', async () => {
    const invalid: MemoryUpdateRequest[] = [
      {},
      { confidence: 1.5 },
      { merge_strategy: 'append' },
      { content: '' },
      { metadata: { a: { b: { c: { d: { e: { f: 'too deep to index' } } } } } } },
      { metadata: { note: 'x'.repeat(5000) } },
    ]
    for (const body of invalid) {
      expect(await refusal(client.memories.update(memoryId, body)), JSON.stringify(body)).toMatchObject({
        status: 400,
        code: 'INVALID_INPUT',
      })
    }
    // An unknown merge strategy and an unknown field: bodies the typed client cannot send.
    for (const body of [{ content: 'x', merge_strategy: 'overwrite' }, { color: 'red' }]) {
      const reply = await request<ErrorBody>(
        harness.gateway.addresses.http ?? '',
        'PATCH',
        `/v1/memories/${memoryId}`,
        {
          apiKey: instance.api_key.key,
          json: body,
        },
      )
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body?.code).toBe('INVALID_INPUT')
    }
  })

  it('lists memories newest first with filters and the spec pagination', async () => {
    // Lists read Elasticsearch search results, which see a write within its refresh interval (1 s).
    const listed = await eventually(async () => {
      const reply = await client.memories.list({ user_id: userId, page_size: 1 })
      return reply.total === 2 ? reply : undefined
    })
    expect(exchanges.at(-1)?.status).toBe(200)
    expect(listed.has_more).toBe(true)
    expect(listed).toMatchObject({ page: 1, page_size: 1 })
    expect(listed.total).toBeGreaterThanOrEqual(1)
    expect(await refusal(client.memories.list({ page_size: 101 }))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    })
    // A type the typed client cannot send.
    const rumour = await request<ErrorBody>(
      harness.gateway.addresses.http ?? '',
      'GET',
      '/v1/memories?type=rumour',
      {
        apiKey: instance.api_key.key,
      },
    )
    expect(rumour.status).toBe(400)
    const defaults = await client.memories.list()
    expect(defaults).toMatchObject({ page: 1, page_size: 20 })
    const created = defaults.items.map((item) => item.created_at)
    expect(created).toEqual([...created].sort().reverse())
  })

  it('another instance cannot read, list, change or delete the memory: 404', async () => {
    expect((await refusal(otherClient.memories.get(memoryId))).status).toBe(404)
    expect((await refusal(otherClient.memories.update(memoryId, { confidence: 0.1 }))).status).toBe(404)
    expect((await refusal(otherClient.memories.delete(memoryId))).status).toBe(404)
    const listed = await otherClient.memories.list({ user_id: userId })
    expect(listed.total).toBe(0)
    expect((await refusal(otherClient.memories.get('mem_nothex'))).code).toBe('NOT_FOUND')
  })

  it('DELETE: 204 with an empty body, then 404; gone from Neo4j while its entities stay', async () => {
    const before = await graph.read<{ id: string; count: number }>(
      `MATCH (:Memory {id: $memoryId})-[:MENTIONS]->(entity:Entity)
       RETURN entity.entity_id AS id, entity.memory_count AS count`,
      { memoryId },
    )
    expect(before.length).toBeGreaterThan(0)
    await client.memories.delete(memoryId)
    expect(exchanges.at(-1)).toMatchObject({ method: 'DELETE', status: 204, text: '' })
    expect((await refusal(client.memories.get(memoryId))).status).toBe(404)
    await eventually(async () => {
      const rows = await graph.read('MATCH (memory:Memory {id: $memoryId}) RETURN memory', { memoryId })
      return rows.length === 0 ? true : undefined
    })
    const after = await graph.read<{ id: string; count: number }>(
      'MATCH (entity:Entity) WHERE entity.entity_id IN $ids RETURN entity.entity_id AS id, entity.memory_count AS count',
      { ids: before.map((row) => row.id) },
    )
    expect(after.map((row) => row.id).sort()).toEqual(before.map((row) => row.id).sort())
    for (const row of after) {
      expect(row.count).toBe((before.find((entry) => entry.id === row.id)?.count ?? 0) - 1)
    }
    expect((await refusal(client.memories.delete(memoryId))).status).toBe(404)
  })
})
