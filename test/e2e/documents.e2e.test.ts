/**
 * Document ingestion against the real stack: POST /v1/memories, the batch route and the status route, with
 * document_id reuse refused (409) even under concurrency, counted in Kafka itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import { BULK_DOCUMENTS_TOPIC, DOCUMENTS_TOPIC } from '@memory-service/domain'
import {
  type CreatedInstance,
  type Document,
  type DocumentAccepted,
  type DocumentBatchResponse,
  type ErrorBody,
  type IngestionJobList,
} from '@memory-service/contracts'
import { createTestClient, refusal, refusalOf, request, statusOf, type Exchange } from '../support/http.js'
import { eventually, readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let other: CreatedInstance
let baseUrl: string
let client: MemoryClient
let otherClient: MemoryClient
/** Every response the clients of this file received, for the statuses the library does not return. */
const exchanges: Exchange[] = []
const lastStatus = () => exchanges.at(-1)?.status

/** Sends what the client library would refuse to: invalid fields, the batch's fail_fast. */
const raw = <T>(path: string, json: unknown) =>
  request<T>(baseUrl, 'POST', path, { apiKey: instance.api_key.key, json })

const doc = (overrides: Partial<Document> = {}): Document => ({
  document: 'Caroline: I moved to Lisbon last spring.',
  document_type: 'ai-chat-conversation',
  mode: 'fast',
  ...overrides,
})

/** The instance's documents in the log, by either lane (a batch goes by the bulk one). */
async function acceptedDocuments(): Promise<DocumentAccepted[]> {
  const lanes = await Promise.all(
    [DOCUMENTS_TOPIC, BULK_DOCUMENTS_TOPIC].map((topic) =>
      readTopicToEnd<DocumentAccepted>(harness.kafka, harness.codec, topic),
    ),
  )
  return lanes
    .flat()
    .map((record) => record.value)
    .filter((event) => event.instance_id === instance.instance.instance_id)
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('documents')
  instance = harness.instance
  other = await harness.createInstance('other')
  baseUrl = harness.gateway.addresses.http ?? ''
  client = createTestClient({ baseUrl, apiKey: instance.api_key.key, exchanges })
  otherClient = createTestClient({ baseUrl, apiKey: other.api_key.key, exchanges })
})

afterAll(() => harness.close())

describe('POST /v1/memories', () => {
  it('queues a document: 201, a queued job at once, and the document in Kafka with the correlation id', async () => {
    const correlationId = uniqueName('corr-doc')
    const documentId = uniqueName('doc')
    const correlated = createTestClient({
      baseUrl,
      apiKey: instance.api_key.key,
      headers: { 'x-correlation-id': correlationId },
      exchanges,
    })
    const created = await correlated.memories.ingest(
      doc({
        document_id: documentId,
        user_id: 'caroline',
        metadata: { dia_id: 'D1:3' },
        document_created_at: '2023-05-08T13:56:00Z',
      }),
    )
    expect(lastStatus()).toBe(201)
    expect(created).toEqual({ ingestion_id: expect.stringMatching(/^ing_[0-9a-f]{32}$/), status: 'queued' })
    const ingestionId = created.ingestion_id
    expect(await client.memories.status(ingestionId)).toEqual({
      ingestion_id: ingestionId,
      status: 'queued',
      progress: { extraction: 0, categorization: 0, entity_resolution: 0, storage: 0 },
      errors: [],
    })
    expect(lastStatus()).toBe(200)
    const records = await readTopicToEnd<DocumentAccepted>(harness.kafka, harness.codec, DOCUMENTS_TOPIC)
    const record = records.find((entry) => entry.value.ingestion_id === ingestionId)
    expect(record?.value).toEqual({
      type: 'document_accepted',
      ingestion_id: ingestionId,
      instance_id: instance.instance.instance_id,
      client_id: instance.instance.client_id,
      document_id: documentId,
      document: 'Caroline: I moved to Lisbon last spring.',
      document_type: 'ai-chat-conversation',
      mode: 'fast',
      document_created_at: '2023-05-08T13:56:00Z',
      user_id: 'caroline',
      customer_id: null,
      metadata: { dia_id: 'D1:3' },
      accepted_at: expect.any(String),
    })
    expect(record?.headers['x-correlation-id']).toBe(correlationId)
  })

  it('refuses a reused document_id with 409 DOCUMENT_ALREADY_INGESTED naming the first job', async () => {
    const documentId = uniqueName('doc')
    const first = await client.memories.ingest(doc({ document_id: documentId }))
    expect(
      await refusal(client.memories.ingest(doc({ document_id: documentId, document: 'changed text' }))),
    ).toEqual({
      status: 409,
      code: 'DOCUMENT_ALREADY_INGESTED',
      details: { document_id: documentId, ingestion_id: first.ingestion_id },
    })
    // The same document_id in another instance is another document.
    await otherClient.memories.ingest(doc({ document_id: documentId }))
    expect(lastStatus()).toBe(201)
  })

  it('makes exactly one job of ten concurrent requests with the same document_id', async () => {
    const documentId = uniqueName('doc-race')
    exchanges.length = 0
    // While the first request has not confirmed its append, the others are told to retry (503
    // document_in_flight), as a client does; none of them is told "ingested" before it is.
    const ingestRetryingInFlight = async (): Promise<string> => {
      for (;;) {
        const outcome = await client.memories.ingest(doc({ document_id: documentId })).then(
          () => 'queued',
          (error: unknown) => refusalOf(error),
        )
        if (typeof outcome === 'string') return outcome
        if (outcome.status !== 503) return outcome.code
        expect(outcome.details).toEqual({ retry_after_seconds: 1, reason: 'document_in_flight' })
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    const outcomes = await Promise.all(Array.from({ length: 10 }, ingestRetryingInFlight))
    expect(exchanges.filter((exchange) => exchange.status === 201)).toHaveLength(1)
    expect(exchanges.filter((exchange) => exchange.status === 409)).toHaveLength(9)
    for (const exchange of exchanges.filter((candidate) => candidate.status === 503))
      expect(exchange.headers.get('retry-after')).toBe('1')
    expect(outcomes.filter((outcome) => outcome === 'queued')).toHaveLength(1)
    expect(outcomes.filter((outcome) => outcome === 'DOCUMENT_ALREADY_INGESTED')).toHaveLength(9)
    expect((await acceptedDocuments()).filter((event) => event.document_id === documentId)).toHaveLength(1)
  })

  it('validates every field with 400 INVALID_INPUT and a message per field', async () => {
    // Values of the wrong type and an unknown field: a body the typed client cannot send.
    const response = await raw<ErrorBody>('/v1/memories', {
      document: '',
      document_type: 'spreadsheet',
      mode: 'slow',
      document_created_at: 'last tuesday',
      metadata: 'not an object',
      document_id: 'has space',
      extra: 1,
    })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      error: expect.any(String),
      code: 'INVALID_INPUT',
      details: {
        fields: {
          document: 'must NOT have fewer than 1 characters',
          document_type:
            'must be one of: ai-chat-conversation, document, email, pdf, image, audio, meeting-transcript, human-chat-conversation, support-ticket, knowledge-article, note',
          mode: 'must be one of: fast, long-range',
          document_created_at: 'must match format "date-time"',
          metadata: 'must be object',
          document_id: 'must match pattern "^[A-Za-z0-9._:/@-]+$"',
          extra: 'is not a known field',
        },
      },
    })
    const empty = await raw<ErrorBody>('/v1/memories', {})
    expect(empty.status).toBe(400)
    expect(empty.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: {
        fields: { document: expect.any(String), document_type: expect.any(String), mode: expect.any(String) },
      },
    })
    expect(await refusal(client.memories.ingest(doc({ document: 'x'.repeat(500_001) })))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { fields: { document: 'must NOT have more than 500000 characters' } },
    })
  })

  it('accepts every document type, including the ones announced as coming soon, in both modes', async () => {
    const types: Document['document_type'][] = [
      'ai-chat-conversation',
      'document',
      'email',
      'pdf',
      'image',
      'audio',
      'meeting-transcript',
      'human-chat-conversation',
      'support-ticket',
      'knowledge-article',
      'note',
    ]
    for (const [index, documentType] of types.entries()) {
      const status = await client.memories
        .ingest(doc({ document_type: documentType, mode: index % 2 ? 'fast' : 'long-range' }))
        .then(lastStatus, statusOf)
      expect(status, documentType).toBe(201)
    }
  })
})

describe('POST /v1/memories/batch', () => {
  it('queues the valid documents and reports each invalid or reused one by index', async () => {
    const reused = uniqueName('doc')
    await client.memories.ingest(doc({ document_id: reused }))
    // Document 1 has a mode the typed client cannot send.
    const response = await raw<DocumentBatchResponse>('/v1/memories/batch', {
      documents: [
        doc(),
        { ...doc(), mode: 'slow' },
        doc({ document_id: reused }),
        doc({ document_id: uniqueName('doc') }),
      ],
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      results: [
        { index: 0, ingestion_id: expect.stringMatching(/^ing_/), status: 'queued' },
        { index: 3, ingestion_id: expect.stringMatching(/^ing_/), status: 'queued' },
      ],
      // No pipeline runs here: whatever the bulk lane holds is still queued.
      bulk_queued: expect.any(Number) as number,
      errors: [
        {
          index: 1,
          code: 'INVALID_INPUT',
          message: expect.any(String),
          details: { fields: { mode: 'must be one of: fast, long-range' } },
        },
        {
          index: 2,
          code: 'DOCUMENT_ALREADY_INGESTED',
          message: expect.any(String),
          details: { document_id: reused, ingestion_id: expect.stringMatching(/^ing_/) },
        },
      ],
    })
    // A batch goes by the bulk lane, a single document by the interactive one.
    const queued = new Set(response.body?.results.map((result) => result.ingestion_id))
    const bulk = await readTopicToEnd<DocumentAccepted>(harness.kafka, harness.codec, BULK_DOCUMENTS_TOPIC)
    expect(bulk.filter((record) => queued.has(record.value.ingestion_id))).toHaveLength(2)
    const interactive = await readTopicToEnd<DocumentAccepted>(harness.kafka, harness.codec, DOCUMENTS_TOPIC)
    expect(interactive.filter((record) => queued.has(record.value.ingestion_id))).toHaveLength(0)
  })

  it('with fail_fast rejects the whole batch for one invalid document and queues nothing', async () => {
    // The client library has no fail_fast, and document 1 has a type it cannot send.
    const ids = [uniqueName('ff'), uniqueName('ff')]
    const response = await raw<ErrorBody>('/v1/memories/batch', {
      fail_fast: true,
      documents: [doc({ document_id: ids[0] }), { ...doc({ document_id: ids[1] }), document_type: 'fax' }],
    })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      error: expect.any(String),
      code: 'INVALID_INPUT',
      details: {
        fields: {
          'documents[1].document_type': expect.stringMatching(/^must be one of: ai-chat-conversation/),
        },
      },
    })
    expect((await acceptedDocuments()).filter((event) => ids.includes(event.document_id ?? ''))).toHaveLength(
      0,
    )
    // Nothing was claimed either: the corrected batch goes through.
    const fixed = await raw<DocumentBatchResponse>('/v1/memories/batch', {
      fail_fast: true,
      documents: [doc({ document_id: ids[0] }), doc({ document_id: ids[1] })],
    })
    expect(fixed.status).toBe(200)
    expect(fixed.body?.results).toHaveLength(2)
  })

  it('refuses more than 100 documents and a body that is not a batch', async () => {
    expect(
      await refusal(client.memories.ingestBatch(Array.from({ length: 101 }, () => doc()))),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { fields: { documents: 'must NOT have more than 100 items' } },
    })
    const notABatch = await raw<ErrorBody>('/v1/memories/batch', { documents: 'x' })
    expect(notABatch.status).toBe(400)
    expect(notABatch.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { documents: 'must be array' } },
    })
  })
})

describe('GET /v1/memories/{ingestion_id}/status', () => {
  it("answers another instance's job and an unknown or malformed id with 404 NOT_FOUND", async () => {
    const mine = await client.memories.ingest(doc())
    const ingestionId = mine.ingestion_id
    expect(await refusal(otherClient.memories.status(ingestionId))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      details: { ingestion_id: ingestionId },
    })
    expect(await refusal(client.memories.status(`ing_${'0'.repeat(32)}`))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    })
    expect(await refusal(client.memories.status('not-an-id'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    })
  })
})

describe('GET /v1/ingestions', () => {
  const list = (query: string, apiKey = instance.api_key.key) =>
    request<IngestionJobList>(baseUrl, 'GET', `/v1/ingestions${query}`, { apiKey })
  const jobs = async (query: string, apiKey?: string): Promise<IngestionJobList> => {
    const answer = await list(query, apiKey)
    expect(answer.status, answer.text).toBe(200)
    return answer.body ?? { items: [], page: 0, page_size: 0, total: -1, has_more: false }
  }

  it("lists the instance's jobs, the most recently changed first, by status and page; never another instance's", async () => {
    const queued: string[] = []
    for (let index = 0; index < 3; index += 1) queued.push((await client.memories.ingest(doc())).ingestion_id)
    const firstPage = await eventually(async () => {
      const page = await jobs('?page_size=2')
      return page.items[0]?.ingestion_id === queued[2] ? page : undefined
    })
    expect(firstPage).toMatchObject({ page: 1, page_size: 2, has_more: true })
    expect(firstPage.items.map((job) => job.ingestion_id)).toEqual([queued[2], queued[1]])
    expect(firstPage.items[0]).toEqual({
      ingestion_id: queued[2],
      status: 'queued',
      progress: { extraction: 0, categorization: 0, entity_resolution: 0, storage: 0 },
      errors: [],
      updated_at: expect.any(String),
    })
    const all = await jobs('?page_size=100')
    expect(all.total).toBe(all.items.length)
    expect(all.items.map((job) => job.ingestion_id)).toEqual(expect.arrayContaining(queued))
    const updated = all.items.map((job) => Date.parse(job.updated_at))
    expect(updated).toEqual([...updated].sort((a, b) => b - a))
    expect(await jobs('?status=completed')).toMatchObject({ items: [], total: 0, has_more: false })
    expect((await jobs('?status=queued&page_size=100')).total).toBe(all.total)

    const others = await jobs('', other.api_key.key)
    expect(others.items.map((job) => job.ingestion_id)).not.toContain(queued[0])
  })

  it('refuses a bad status, page or page size with 400 INVALID_INPUT naming the field', async () => {
    for (const [query, field] of [
      ['?status=done', 'status'],
      ['?page=0', 'page'],
      ['?page=101', 'page'],
      ['?page_size=101', 'page_size'],
    ] as const) {
      const answer = await list(query)
      expect(answer.status, query).toBe(400)
      expect(answer.text, query).toContain('"code":"INVALID_INPUT"')
      expect(answer.text, query).toContain(field)
    }
  })
})
