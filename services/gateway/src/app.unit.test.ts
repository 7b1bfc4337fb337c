import { contractSchemaPath } from '@memory-service/contracts/files'
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { AppError, emptyControlState } from '@memory-service/domain'
import { createLogger } from '@memory-service/engines'
import { type Readiness } from '@memory-service/contracts'
import { buildApp } from './app.js'

const allUp: Readiness = {
  status: 'ready',
  checks: [
    { name: 'kafka', status: 'up', version: 'cluster x, 1 broker(s)', latency_ms: 3 },
    { name: 'clickhouse', status: 'up', version: '26.7.2.1', latency_ms: 1 },
  ],
}
const kafkaDown: Readiness = {
  status: 'not_ready',
  checks: [{ name: 'kafka', status: 'down', latency_ms: 5000, error: 'no answer within 5000 ms' }],
}

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

function build(readiness: Readiness = allUp): FastifyInstance {
  app = buildApp({
    logger: createLogger({ level: 'silent', name: 'test' }),
    checkReadiness: async () => readiness,
    control: { state: emptyControlState() },
  })
  return app
}

describe('health routes', () => {
  it('answers liveness without touching any engine', async () => {
    const response = await build(kafkaDown).inject({ method: 'GET', url: '/healthz' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
  })

  it('reports ready with each dependency check when all are up', async () => {
    const response = await build(allUp).inject({ method: 'GET', url: '/readyz' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(allUp)
  })

  it('passes the consumer lag through, measured or not, without changing the status', async () => {
    const withLag: Readiness = {
      ...allUp,
      consumers: [
        {
          group: 'memory-projector-jobs',
          lag: 12,
          no_committed_offsets: false,
          topics: [
            { topic: 'mem.documents.v1', lag: 2 },
            { topic: 'mem.ingestion-jobs.v1', lag: 10 },
          ],
        },
        { group: 'memory-projector-graph', error: 'no answer from Kafka within 3000 ms' },
      ],
    }
    const response = await build(withLag).inject({ method: 'GET', url: '/readyz' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(withLag)
  })

  it('answers 503 with the failing check when a dependency is down', async () => {
    const response = await build(kafkaDown).inject({ method: 'GET', url: '/readyz' })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual(kafkaDown)
  })
})

describe('API reference', () => {
  it('serves the committed OpenAPI document and a rendered reference page', async () => {
    app = buildApp({
      logger: createLogger({ level: 'silent', name: 'test' }),
      checkReadiness: async () => allUp,
      control: { state: emptyControlState() },
      // Every route registered, as for `npm run gen`; no handler runs here.
      tenancy: {} as never,
      events: {} as never,
      documents: {} as never,
      jobs: {} as never,
    })
    const document = await app.inject({ method: 'GET', url: '/openapi.json' })
    expect(document.statusCode).toBe(200)
    const committed: unknown = JSON.parse(readFileSync(contractSchemaPath('openapi.json'), 'utf8'))
    expect(document.json()).toEqual(committed)
    const page = await app.inject({ method: 'GET', url: '/docs/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/text\/html/)
  })
})

describe('correlation ids', () => {
  it('gives every response a fresh X-Correlation-Id, errors included', async () => {
    const server = build()
    const first = await server.inject({ method: 'GET', url: '/healthz' })
    const second = await server.inject({ method: 'GET', url: '/missing' })
    expect(first.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(second.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(first.headers['x-correlation-id']).not.toBe(second.headers['x-correlation-id'])
  })

  it("keeps the caller's id when it looks like one and replaces one that could forge log lines", async () => {
    const server = build()
    const kept = await server.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-correlation-id': 'agent-7.run-42' },
    })
    expect(kept.headers['x-correlation-id']).toBe('agent-7.run-42')
    const replaced = await server.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-correlation-id': 'x\n{"level":60}' },
    })
    expect(replaced.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('error bodies', () => {
  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const response = await build().inject({ method: 'GET', url: '/v1/nothing?x=1' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: 'No route GET /v1/nothing',
      code: 'NOT_FOUND',
      details: { method: 'GET', path: '/v1/nothing' },
    })
  })

  it('turns schema violations into 400 INVALID_INPUT with every failing field', async () => {
    const server = build()
    server.post(
      '/probe',
      {
        schema: {
          body: {
            type: 'object',
            required: ['document', 'mode'],
            additionalProperties: false,
            properties: { document: { type: 'string' }, mode: { enum: ['fast', 'long-range'] } },
          },
        },
      },
      async () => ({ ok: true }),
    )
    const response = await server.inject({
      method: 'POST',
      url: '/probe',
      payload: { mode: 'slow', extra: 1 },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      error: 'Request validation failed',
      code: 'INVALID_INPUT',
      details: {
        fields: {
          document: 'is required',
          extra: 'is not a known field',
          mode: 'must be one of: fast, long-range',
        },
      },
    })
  })

  it('answers malformed JSON and a wrong content type with 400 INVALID_INPUT, never 500', async () => {
    const server = build()
    server.post('/probe', async () => ({ ok: true }))
    const malformed = await server.inject({
      method: 'POST',
      url: '/probe',
      headers: { 'content-type': 'application/json' },
      payload: '{"document": ',
    })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { body: expect.any(String) } },
    })
    const wrongType = await server.inject({
      method: 'POST',
      url: '/probe',
      headers: { 'content-type': 'application/xml' },
      payload: '<document/>',
    })
    expect(wrongType.statusCode).toBe(400)
    expect(wrongType.json()).toEqual({
      error: 'The request could not be read',
      code: 'INVALID_INPUT',
      details: { fields: { 'content-type': 'must be application/json' } },
    })
  })

  it('answers a body over the size limit with 400 INVALID_INPUT', async () => {
    app = buildApp({
      logger: createLogger({ level: 'silent', name: 'test' }),
      checkReadiness: async () => allUp,
      control: { state: emptyControlState() },
      bodyLimit: 64,
    })
    app.post('/probe', async () => ({ ok: true }))
    const response = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: { document: 'x'.repeat(200) },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      error: 'The request could not be read',
      code: 'INVALID_INPUT',
      details: { fields: { body: 'exceeds the maximum request size' } },
    })
  })

  it('passes an AppError through with its status, code and details', async () => {
    const server = build()
    server.get('/probe', async () => {
      throw new AppError('INSTANCE_NOT_FOUND', 'Instance not found', { instance_id: 'inst_0123456789abcdef' })
    })
    const response = await server.inject({ method: 'GET', url: '/probe' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: 'Instance not found',
      code: 'INSTANCE_NOT_FOUND',
      details: { instance_id: 'inst_0123456789abcdef' },
    })
  })

  it('answers a dependency outage with 503 SERVICE_UNAVAILABLE, its reason and Retry-After', async () => {
    const server = build()
    server.get('/probe', async () => {
      throw new AppError('SERVICE_UNAVAILABLE', 'The event log is unavailable', {
        retry_after_seconds: 5,
        reason: 'kafka_unavailable',
      })
    })
    const response = await server.inject({ method: 'GET', url: '/probe' })
    expect(response.statusCode).toBe(503)
    expect(response.headers['retry-after']).toBe('5')
    expect(response.json()).toEqual({
      error: 'The event log is unavailable',
      code: 'SERVICE_UNAVAILABLE',
      details: { retry_after_seconds: 5, reason: 'kafka_unavailable' },
    })
  })

  it('hides an unexpected failure behind 500 INTERNAL_ERROR with the correlation id', async () => {
    const server = build()
    server.get('/probe', async () => {
      throw new Error('password=hunter2 leaked in a driver message')
    })
    const response = await server.inject({ method: 'GET', url: '/probe' })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({
      error: 'Internal server error',
      code: 'INTERNAL_ERROR',
      details: { correlation_id: response.headers['x-correlation-id'] },
    })
    expect(response.body).not.toContain('hunter2')
  })
})
