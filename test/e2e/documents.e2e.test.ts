/**
 * Document ingestion against the real stack: POST /v1/memories, the batch route and the status route, with
 * document_id reuse refused (409) even under concurrency, counted in Kafka itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOCUMENTS_TOPIC } from '@memory-service/domain'
import { type CreatedInstance, type DocumentAccepted } from '@memory-service/contracts'
import { readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let other: CreatedInstance

async function call(
  path: string,
  body?: unknown,
  key = instance.api_key.key,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${harness.gateway.addresses.http ?? ''}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const doc = (overrides: Record<string, unknown> = {}) => ({
  document: 'Caroline: I moved to Lisbon last spring.',
  document_type: 'ai-chat-conversation',
  mode: 'fast',
  ...overrides,
})

async function acceptedDocuments(): Promise<DocumentAccepted[]> {
  const records = await readTopicToEnd<DocumentAccepted>(harness.kafka, harness.codec, DOCUMENTS_TOPIC)
  return records
    .map((record) => record.value)
    .filter((event) => event.instance_id === instance.instance.instance_id)
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('documents')
  instance = harness.instance
  other = await harness.createInstance('other')
  await harness.untilUsable(other.api_key.key)
})

afterAll(() => harness.close())

describe('POST /v1/memories', () => {
  it('queues a document: 201, a queued job at once, and the document in Kafka with the correlation id', async () => {
    const correlationId = uniqueName('corr-doc')
    const documentId = uniqueName('doc')
    const created = await call(
      '/v1/memories',
      doc({
        document_id: documentId,
        user_id: 'caroline',
        metadata: { dia_id: 'D1:3' },
        document_created_at: '2023-05-08T13:56:00Z',
      }),
      instance.api_key.key,
      { 'x-correlation-id': correlationId },
    )
    expect(created).toEqual({
      status: 201,
      body: { ingestion_id: expect.stringMatching(/^ing_[0-9a-f]{32}$/), status: 'queued' },
    })
    const ingestionId = created.body.ingestion_id as string
    expect(await call(`/v1/memories/${ingestionId}/status`)).toEqual({
      status: 200,
      body: {
        ingestion_id: ingestionId,
        status: 'queued',
        progress: { extraction: 0, categorization: 0, entity_resolution: 0, storage: 0 },
        errors: [],
      },
    })
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
    const first = await call('/v1/memories', doc({ document_id: documentId }))
    const again = await call('/v1/memories', doc({ document_id: documentId, document: 'changed text' }))
    expect(again).toEqual({
      status: 409,
      body: {
        error: `document_id ${documentId} was already ingested`,
        code: 'DOCUMENT_ALREADY_INGESTED',
        details: { document_id: documentId, ingestion_id: first.body.ingestion_id },
      },
    })
    // The same document_id in another instance is another document.
    expect((await call('/v1/memories', doc({ document_id: documentId }), other.api_key.key)).status).toBe(201)
  })

  it('makes exactly one job of ten concurrent requests with the same document_id', async () => {
    const documentId = uniqueName('doc-race')
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => call('/v1/memories', doc({ document_id: documentId }))),
    )
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1)
    expect(responses.filter((response) => response.status === 409)).toHaveLength(9)
    expect((await acceptedDocuments()).filter((event) => event.document_id === documentId)).toHaveLength(1)
  })

  it('validates every field with 400 INVALID_INPUT and a message per field', async () => {
    const response = await call('/v1/memories', {
      document: '',
      document_type: 'spreadsheet',
      mode: 'slow',
      document_created_at: 'last tuesday',
      metadata: 'not an object',
      document_id: 'has space',
      extra: 1,
    })
    expect(response).toEqual({
      status: 400,
      body: {
        error: 'Request validation failed',
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
      },
    })
    expect((await call('/v1/memories', {})).body).toMatchObject({
      details: {
        fields: { document: expect.any(String), document_type: expect.any(String), mode: expect.any(String) },
      },
    })
    const tooLong = await call('/v1/memories', doc({ document: 'x'.repeat(500_001) }))
    expect(tooLong.body).toMatchObject({
      details: { fields: { document: 'must NOT have more than 500000 characters' } },
    })
  })

  it('accepts every document type, including the ones announced as coming soon, in both modes', async () => {
    const types = [
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
      const response = await call(
        '/v1/memories',
        doc({ document_type: documentType, mode: index % 2 ? 'fast' : 'long-range' }),
      )
      expect(response.status, documentType).toBe(201)
    }
  })
})

describe('POST /v1/memories/batch', () => {
  it('queues the valid documents and reports each invalid or reused one by index', async () => {
    const reused = uniqueName('doc')
    await call('/v1/memories', doc({ document_id: reused }))
    const response = await call('/v1/memories/batch', {
      documents: [
        doc(),
        doc({ mode: 'slow' }),
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
      errors: [
        {
          index: 1,
          code: 'INVALID_INPUT',
          message: 'Document validation failed',
          details: { fields: { mode: 'must be one of: fast, long-range' } },
        },
        {
          index: 2,
          code: 'DOCUMENT_ALREADY_INGESTED',
          message: `document_id ${reused} was already ingested`,
          details: { document_id: reused, ingestion_id: expect.stringMatching(/^ing_/) },
        },
      ],
    })
  })

  it('with fail_fast rejects the whole batch for one invalid document and queues nothing', async () => {
    const ids = [uniqueName('ff'), uniqueName('ff')]
    const response = await call('/v1/memories/batch', {
      fail_fast: true,
      documents: [doc({ document_id: ids[0] }), doc({ document_id: ids[1], document_type: 'fax' })],
    })
    expect(response).toEqual({
      status: 400,
      body: {
        error: 'A document is invalid and fail_fast is set: nothing was queued',
        code: 'INVALID_INPUT',
        details: {
          fields: {
            'documents[1].document_type': expect.stringMatching(/^must be one of: ai-chat-conversation/),
          },
        },
      },
    })
    expect((await acceptedDocuments()).filter((event) => ids.includes(event.document_id ?? ''))).toHaveLength(
      0,
    )
    // Nothing was claimed either: the corrected batch goes through.
    const fixed = await call('/v1/memories/batch', {
      fail_fast: true,
      documents: [doc({ document_id: ids[0] }), doc({ document_id: ids[1] })],
    })
    expect((fixed.body.results as unknown[]).length).toBe(2)
  })

  it('refuses more than 100 documents and a body that is not a batch', async () => {
    const tooMany = await call('/v1/memories/batch', { documents: Array.from({ length: 101 }, () => doc()) })
    expect(tooMany.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { documents: 'must NOT have more than 100 items' } },
    })
    expect((await call('/v1/memories/batch', { documents: 'x' })).body).toMatchObject({
      details: { fields: { documents: 'must be array' } },
    })
  })
})

describe('GET /v1/memories/{ingestion_id}/status', () => {
  it("answers another instance's job and an unknown or malformed id with 404 NOT_FOUND", async () => {
    const mine = await call('/v1/memories', doc())
    const ingestionId = mine.body.ingestion_id as string
    const foreign = await call(`/v1/memories/${ingestionId}/status`, undefined, other.api_key.key)
    expect(foreign).toEqual({
      status: 404,
      body: { error: 'Ingestion job not found', code: 'NOT_FOUND', details: { ingestion_id: ingestionId } },
    })
    expect((await call(`/v1/memories/ing_${'0'.repeat(32)}/status`)).status).toBe(404)
    expect((await call('/v1/memories/not-an-id/status')).status).toBe(404)
  })
})
