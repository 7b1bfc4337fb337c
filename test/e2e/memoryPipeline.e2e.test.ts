/**
 * The memory pipeline on the real stack: documents become memories through every stage, land in Elasticsearch
 * and Neo4j, and can be read, listed, updated and deleted through the API. Failures (injected by markers, see
 * test/support/faultInjection.ts) end in failed or partial_success jobs with errors and dead letters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createEventProducer,
  DEAD_LETTER_TOPIC,
  deadLetterHeaders,
  type EventProducer,
} from '@memory-service/log'
import { createNeo4jDriver, createNeo4jStore, type Neo4jStore } from '@memory-service/engines'
import {
  DOCUMENT_SUBJECT,
  DOCUMENTS_TOPIC,
  documentAcceptedSchema,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  MEMORY_SUBJECT,
  memoryChangedSchema,
} from '@memory-service/domain'
import {
  type CreatedInstance,
  type DocumentAccepted,
  type Memory,
  type MemoryChanged,
} from '@memory-service/contracts'
import { faultMarkers } from '../support/faultInjection.js'
import { eventually, readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let other: CreatedInstance
let graph: Neo4jStore
let producer: EventProducer

interface Reply {
  status: number
  body: Record<string, unknown>
  text: string
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  key = instance.api_key.key,
): Promise<Reply> {
  const response = await fetch(`${harness.gateway.addresses.http ?? ''}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
}

interface JobStatus {
  ingestion_id: string
  status: string
  progress: Record<string, number>
  errors: { stage: string; code: string; message: string }[]
  memory_ids?: string[]
}

async function ingest(document: Record<string, unknown>): Promise<string> {
  const created = await call('POST', '/v1/memories', {
    document_type: 'ai-chat-conversation',
    mode: 'fast',
    document_created_at: '2023-05-08T13:56:00.000Z',
    ...document,
  })
  expect(created.status, created.text).toBe(201)
  return created.body.ingestion_id as string
}

async function finished(ingestionId: string): Promise<JobStatus> {
  return eventually(async () => {
    const reply = await call('GET', `/v1/memories/${ingestionId}/status`)
    const job = reply.body as unknown as JobStatus
    return ['completed', 'failed', 'partial_success'].includes(job.status) ? job : undefined
  }, 60_000)
}

async function memory(id: string, key = instance.api_key.key): Promise<Reply> {
  return call('GET', `/v1/memories/${id}`, undefined, key)
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('memory-pipeline', { withWorkers: true })
  instance = harness.instance
  other = await harness.createInstance('memory-pipeline-other')
  await harness.untilUsable(other.api_key.key)
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
  let job: JobStatus
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
    memories = await Promise.all(
      (job.memory_ids ?? []).map(async (id) => (await memory(id)).body as unknown as Memory),
    )
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
    const entities = ((await memory(first ?? '')).body as unknown as Memory).entities
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

  it('a document with nothing worth remembering fails with that reason', async () => {
    const job = await finished(await ingest({ document: 'Caroline: Hey Mel! Good to see you!' }))
    expect(job).toMatchObject({ status: 'failed', memory_ids: [] })
    expect(job.errors.map((error) => error.code)).toEqual(['NOTHING_TO_REMEMBER'])
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
    const listed = await call('GET', `/v1/memories?ingestion_id=${ingestionId}`)
    expect(listed.body.total).toBe(job.memory_ids?.length)
    const nodes = await graph.read<{ count: number }>(
      'MATCH (memory:Memory {ingestion_id: $ingestionId}) RETURN count(memory) AS count',
      { ingestionId },
    )
    expect(nodes[0]?.count).toBe(job.memory_ids?.length)
  })
  it('a memory event replayed with the same version, even with other content, changes neither projection', async () => {
    const job = await finished(await ingest({ document: 'Caroline: I adore jazz music.', user_id: 'replay' }))
    const memoryId = job.memory_ids?.[0] ?? ''
    const original = (await memory(memoryId)).body as unknown as Memory
    const countsBefore = await graph.read<{ id: string; count: number }>(
      `MATCH (:Memory {id: $memoryId})-[:MENTIONS]->(entity:Entity)
       RETURN entity.entity_id AS id, entity.memory_count AS count ORDER BY id`,
      { memoryId },
    )
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
    const patched = await call('PATCH', `/v1/memories/${memoryId}`, { confidence: 0.55 })
    expect(patched.status, patched.text).toBe(200)
    await eventually(async () => {
      const rows = await graph.read<{ version: number }>(
        'MATCH (memory:Memory {id: $memoryId}) RETURN memory.version AS version',
        { memoryId },
      )
      return rows[0]?.version === 2 ? true : undefined
    })
    expect(patched.body).toEqual({ ...original, confidence: 0.55, updated_at: patched.body.updated_at })
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
    const patched = await call('PATCH', `/v1/memories/${memoryId}`, {
      content: 'Caroline lives in Lisbon with Melanie.',
      merge_strategy: 'replace',
    })
    expect(patched.status, patched.text).toBe(200)
    expect(patched.body).toMatchObject({ id: memoryId, content: 'Caroline lives in Lisbon with Melanie.' })
    expect(patched.body.updated_at).toEqual(expect.any(String))
    const read = await memory(memoryId)
    expect(read.body).toEqual(patched.body)
    expect((read.body as unknown as Memory).entities.map((entity) => entity.canonical_name)).toEqual(
      expect.arrayContaining(['Lisbon']),
    )
  })

  it('PATCH append keeps the original and adds; smart-merge prefers the newer statement on conflict', async () => {
    const appended = await call('PATCH', `/v1/memories/${memoryId}`, {
      content: 'Caroline plays the guitar.',
      merge_strategy: 'append',
    })
    expect(appended.body.content).toBe('Caroline lives in Lisbon with Melanie. Caroline plays the guitar.')
    const merged = await call('PATCH', `/v1/memories/${memoryId}`, {
      content: 'Caroline lives in Porto with Melanie. Caroline plays the guitar.',
      merge_strategy: 'smart-merge',
    })
    expect(merged.body.content).toBe('Caroline lives in Porto with Melanie. Caroline plays the guitar.')
    expect((await memory(memoryId)).body.content).toBe(merged.body.content)
  })

  it('concurrent PATCH appends on one memory: neither is lost', async () => {
    const before = (await memory(memoryId)).body.content as string
    const [first, second] = await Promise.all([
      call('PATCH', `/v1/memories/${memoryId}`, { content: 'Caroline sings.', merge_strategy: 'append' }),
      call('PATCH', `/v1/memories/${memoryId}`, { content: 'Caroline paints.', merge_strategy: 'append' }),
    ])
    expect([first.status, second.status]).toEqual([200, 200])
    const after = (await memory(memoryId)).body.content as string
    expect(after.startsWith(before)).toBe(true)
    expect(after).toContain('Caroline sings.')
    expect(after).toContain('Caroline paints.')
    // Put the content back for the tests that follow.
    await call('PATCH', `/v1/memories/${memoryId}`, { content: before })
  })

  it('PATCH confidence and metadata: metadata merged into the existing', async () => {
    const patched = await call('PATCH', `/v1/memories/${memoryId}`, {
      confidence: 0.42,
      metadata: { reviewed: true },
    })
    expect(patched.body).toMatchObject({
      confidence: 0.42,
      metadata: { source: 'chat', dia_id: 'D2:1', reviewed: true },
    })
  })

  it('PATCH refuses invalid bodies with INVALID_INPUT', async () => {
    for (const body of [
      {},
      { confidence: 1.5 },
      { merge_strategy: 'append' },
      { content: 'x', merge_strategy: 'overwrite' },
      { content: '' },
      { color: 'red' },
      { metadata: { a: { b: { c: { d: { e: { f: 'too deep to index' } } } } } } },
      { metadata: { note: 'x'.repeat(5000) } },
    ]) {
      const reply = await call('PATCH', `/v1/memories/${memoryId}`, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body.code).toBe('INVALID_INPUT')
    }
  })

  it('lists memories newest first with filters and the spec pagination', async () => {
    // Lists read Elasticsearch search results, which see a write within its refresh interval (1 s).
    const listed = await eventually(async () => {
      const reply = await call('GET', `/v1/memories?user_id=${userId}&page_size=1`)
      return reply.body.total === 2 ? reply : undefined
    })
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body.has_more).toBe(true)
    expect(listed.body).toMatchObject({ page: 1, page_size: 1 })
    expect(listed.body.total, listed.text).toBeGreaterThanOrEqual(1)
    expect(await call('GET', '/v1/memories?page_size=101').then((reply) => reply.body.code)).toBe(
      'INVALID_INPUT',
    )
    expect(await call('GET', '/v1/memories?type=rumour').then((reply) => reply.status)).toBe(400)
    const defaults = await call('GET', '/v1/memories')
    expect(defaults.body).toMatchObject({ page: 1, page_size: 20 })
    const items = defaults.body.items as Memory[]
    const created = items.map((item) => item.created_at)
    expect(created).toEqual([...created].sort().reverse())
  })

  it('another instance cannot read, list, change or delete the memory: 404', async () => {
    const key = other.api_key.key
    expect((await memory(memoryId, key)).status).toBe(404)
    expect((await call('PATCH', `/v1/memories/${memoryId}`, { confidence: 0.1 }, key)).status).toBe(404)
    expect((await call('DELETE', `/v1/memories/${memoryId}`, undefined, key)).status).toBe(404)
    const listed = await call('GET', `/v1/memories?user_id=${userId}`, undefined, key)
    expect(listed.body.total).toBe(0)
    expect((await memory('mem_nothex', key)).body.code).toBe('NOT_FOUND')
  })

  it('DELETE: 204 with an empty body, then 404; gone from Neo4j while its entities stay', async () => {
    const before = await graph.read<{ id: string; count: number }>(
      `MATCH (:Memory {id: $memoryId})-[:MENTIONS]->(entity:Entity)
       RETURN entity.entity_id AS id, entity.memory_count AS count`,
      { memoryId },
    )
    expect(before.length).toBeGreaterThan(0)
    const deleted = await call('DELETE', `/v1/memories/${memoryId}`)
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe('')
    expect((await memory(memoryId)).status).toBe(404)
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
    expect((await call('DELETE', `/v1/memories/${memoryId}`)).status).toBe(404)
  })
})
