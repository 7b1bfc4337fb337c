import { contractSchemaPath } from '@memory-service/contracts/files'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { AppError, errorCatalog } from '@memory-service/domain'
import { type Readiness } from '@memory-service/contracts'
import { buildApp } from './app.js'
import { unwiredDependencies } from './testing/unwiredDependencies.js'

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
  app = buildApp(unwiredDependencies({ checkReadiness: async () => readiness }))
  return app
}

describe('dependencies', () => {
  it('refuses to build without a dependency a route needs, naming each missing one', () => {
    const { analytics, erasure, ...rest } = unwiredDependencies()
    expect(analytics).toBeDefined()
    expect(erasure).toBeDefined()
    // What a JavaScript caller (or a cast) could pass: a route that cannot be served is a start-up error.
    expect(() => buildApp(rest as Parameters<typeof buildApp>[0])).toThrow(
      /missing dependencies: analytics, erasure\b/,
    )
    expect(() => buildApp({ ...unwiredDependencies(), search: undefined } as never)).toThrow(
      /missing dependencies: search\b/,
    )
  })
})

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

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

interface OpenApiResponse {
  description: string
  headers?: Record<string, { schema: { type: string } }>
}
interface OpenApiOperation {
  security?: unknown[]
  responses: Record<string, OpenApiResponse>
}
type OpenApiPaths = Record<string, Partial<Record<(typeof httpMethods)[number], OpenApiOperation>>>

function operationsOf(paths: OpenApiPaths): { name: string; operation: OpenApiOperation }[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const operation = item[method]
      return operation ? [{ name: `${method.toUpperCase()} ${path}`, operation }] : []
    }),
  )
}

describe('API reference', () => {
  it('serves the committed OpenAPI document, with an operation for every route, and a rendered page', async () => {
    // The whole app, as `npm run gen` builds it: a route that went missing would be missing from both documents.
    app = buildApp(unwiredDependencies())
    const registered: string[] = []
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method]
      // HEAD is answered for every GET route without a document entry of its own; hidden routes are /openapi.json
      // and the pages under /docs.
      if (route.schema?.hide === true) return
      for (const method of methods.filter((name) => name !== 'HEAD')) {
        registered.push(`${method} ${route.url.replaceAll(/:(\w+)/g, '{$1}')}`)
      }
    })
    const document = await app.inject({ method: 'GET', url: '/openapi.json' })
    expect(document.statusCode).toBe(200)
    const committed = JSON.parse(readFileSync(contractSchemaPath('openapi.json'), 'utf8')) as {
      paths: OpenApiPaths
    }
    expect(document.json()).toEqual(committed)
    const documented = operationsOf(committed.paths).map(({ name }) => name)
    expect(documented.length).toBe(registered.length)
    expect(documented.sort()).toEqual(registered.sort())
    const page = await app.inject({ method: 'GET', url: '/docs/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/text\/html/)
  })

  it('documents the headers of every response and the conflicts of the routes that have them', () => {
    const committed = JSON.parse(readFileSync(contractSchemaPath('openapi.json'), 'utf8')) as {
      paths: OpenApiPaths
    }
    const operations = operationsOf(committed.paths)
    for (const { name, operation } of operations) {
      const isProtected = operation.security === undefined
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = Object.keys(response.headers ?? {})
        expect(headers, `${name} ${status}`).toContain('X-Correlation-Id')
        if (isProtected && !['401', '405', '414'].includes(status)) {
          expect(headers, `${name} ${status}`).toEqual(
            expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
          )
        }
        if (isProtected && status === '429') expect(headers, name).toContain('Retry-After')
        if (status === '405') expect(headers, name).toContain('Allow')
      }
      const statuses = Object.keys(operation.responses)
      expect(statuses, name).toContain('405')
      if (name.includes('{')) expect(statuses, name).toContain('414')
      if (isProtected) expect(statuses, name).toContain('429')
    }
    const conflicts = Object.fromEntries(
      operations
        .filter(({ operation }) => operation.responses['409'] !== undefined)
        .map(({ name, operation }) => [name, operation.responses['409']?.description.match(/[A-Z_]{6,}/g)]),
    )
    expect(conflicts).toEqual({
      'POST /v1/memories': ['DOCUMENT_ALREADY_INGESTED'],
      'POST /instances/{id}/memory-architecture/versions/{config_id}/review': ['CONFIG_CONFLICT'],
      'POST /instances/{id}/memory-architecture/versions/{config_id}/apply': [
        'CONFIG_ALREADY_ACTIVE',
        'CONFIG_CONFLICT',
      ],
      'POST /v1/conversations/{conversation_id}/transcript': ['TRANSCRIPT_CONFLICT'],
      'POST /v1/conversations/{conversation_id}/compact': ['COMPACTION_IN_PROGRESS'],
      'POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': ['WEBHOOK_DISABLED'],
      'POST /v1/memories/bulk-delete': ['BULK_COUNT_MISMATCH'],
      'POST /v1/memories/bulk-update': ['BULK_COUNT_MISMATCH'],
    })
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
    app = buildApp(unwiredDependencies({ bodyLimit: 64 }))
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

  it("hides an engine's refusal of a query behind 500 INTERNAL_ERROR: it is not the request's fault", async () => {
    const server = build()
    server.get('/probe', async () => {
      // As the Elasticsearch client throws it: a 4xx status, and the response (with the engine's words) as `meta`.
      throw Object.assign(new Error('search_phase_execution_exception: Result window is too large'), {
        statusCode: 400,
        meta: { statusCode: 400, body: { error: { type: 'search_phase_execution_exception' } } },
      })
    })
    const response = await server.inject({ method: 'GET', url: '/probe' })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toMatchObject({ code: 'INTERNAL_ERROR' })
    expect(response.body).not.toContain('search_phase_execution_exception')
  })
})

describe('methods a path does not have', () => {
  it('answers 405 METHOD_NOT_ALLOWED with Allow listing the methods the path has', async () => {
    const server = build()
    const response = await server.inject({ method: 'PUT', url: '/v1/memories/mem_0123?x=1' })
    expect(response.statusCode).toBe(405)
    expect(response.headers.allow).toBe('GET, HEAD, PATCH, DELETE')
    expect(response.json()).toEqual({
      error: 'PUT is not allowed on /v1/memories/mem_0123',
      code: 'METHOD_NOT_ALLOWED',
      details: { method: 'PUT', path: '/v1/memories/mem_0123', allowed: ['GET', 'HEAD', 'PATCH', 'DELETE'] },
    })
    const postOnly = await server.inject({ method: 'GET', url: '/v1/events/batch' })
    expect(postOnly.statusCode).toBe(405)
    expect(postOnly.headers.allow).toBe('POST')
  })

  it('lists only the methods of the route that names the path, not those of a parametric route matching it', async () => {
    // GET /v1/memories/:memory_id matches /v1/memories/batch, which is a route of its own taking POST.
    const server = build()
    for (const method of ['OPTIONS', 'PUT'] as const) {
      const response = await server.inject({ method, url: '/v1/memories/batch' })
      expect(response.statusCode, method).toBe(405)
      expect(response.headers.allow, method).toBe('POST')
      expect(response.json(), method).toMatchObject({
        code: 'METHOD_NOT_ALLOWED',
        details: { allowed: ['POST'] },
      })
    }
  })

  it('answers a method no route has (QUERY, with or without a body) 405, before reading its body', async () => {
    const server = build()
    for (const headers of [{}, { 'content-type': 'application/json' }, { 'content-type': 'not a type' }]) {
      const response = await server.inject({
        method: 'QUERY' as 'GET',
        url: '/v1/memories',
        headers,
        body: '{}',
      })
      expect(response.statusCode, JSON.stringify(headers)).toBe(405)
      expect(response.headers.allow).toBe('GET, HEAD, POST')
      expect(response.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', details: { method: 'QUERY' } })
    }
    const nowhere = await server.inject({ method: 'QUERY' as 'GET', url: '/v1/nothing' })
    expect(nowhere.statusCode).toBe(404)
    expect(nowhere.json()).toMatchObject({ code: 'NOT_FOUND' })
  })

  it('still answers a path no route has with 404 NOT_FOUND, whatever the method', async () => {
    const response = await build().inject({ method: 'PUT', url: '/v1/nothing' })
    expect(response.statusCode).toBe(404)
    expect(response.headers.allow).toBeUndefined()
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('errors raised by fastify itself', () => {
  /** Each answer fastify or its router gives on its own, before or around the handlers. */
  const cases: { name: string; request: InjectOptions; code: string }[] = [
    { name: 'an unknown path', request: { method: 'GET', url: '/v1/nothing' }, code: 'NOT_FOUND' },
    {
      name: 'malformed JSON',
      request: {
        method: 'POST',
        url: '/probe',
        headers: { 'content-type': 'application/json' },
        payload: '{"document": ',
      },
      code: 'INVALID_INPUT',
    },
    {
      name: 'an empty JSON body',
      request: {
        method: 'POST',
        url: '/probe',
        headers: { 'content-type': 'application/json' },
        payload: '',
      },
      code: 'INVALID_INPUT',
    },
    {
      name: 'a prototype-poisoning JSON body',
      request: {
        method: 'POST',
        url: '/probe',
        headers: { 'content-type': 'application/json' },
        payload: '{"__proto__": {"admin": true}}',
      },
      code: 'INVALID_INPUT',
    },
    {
      name: 'an unsupported media type (FST_ERR_CTP_INVALID_MEDIA_TYPE)',
      request: {
        method: 'POST',
        url: '/probe',
        headers: { 'content-type': 'application/xml' },
        payload: '<x/>',
      },
      code: 'INVALID_INPUT',
    },
    {
      name: 'a body over the route limit (FST_ERR_CTP_BODY_TOO_LARGE)',
      request: { method: 'POST', url: '/probe', payload: { document: 'x'.repeat(200) } },
      code: 'INVALID_INPUT',
    },
    {
      name: 'a schema violation (FST_ERR_VALIDATION)',
      request: { method: 'POST', url: '/probe/validated', payload: { mode: 'slow' } },
      code: 'INVALID_INPUT',
    },
    {
      name: 'a URL that does not decode (FST_ERR_BAD_URL)',
      request: { method: 'GET', url: '/v1/memories/%zz' },
      code: 'INVALID_INPUT',
    },
    {
      name: 'a path parameter over the length limit (FST_ERR_MAX_PARAM_LENGTH)',
      request: { method: 'GET', url: `/v1/memories/${'m'.repeat(401)}` },
      code: 'URI_TOO_LONG',
    },
    {
      name: 'a known path with a method it does not have',
      request: { method: 'PUT', url: '/v1/memories' },
      code: 'METHOD_NOT_ALLOWED',
    },
    {
      name: 'a protected route without a key',
      request: { method: 'GET', url: '/dashboard/instances' },
      code: 'UNAUTHORIZED',
    },
  ]

  it.each(cases)('answers $name with exactly {error, code, details} and a catalog code', async (case_) => {
    const server = build()
    server.post('/probe', { bodyLimit: 64 }, async () => ({ ok: true }))
    server.post(
      '/probe/validated',
      {
        schema: {
          body: { type: 'object', properties: { mode: { enum: ['fast', 'long-range'] } } },
        },
      },
      async () => ({ ok: true }),
    )
    const response = await server.inject(case_.request)
    const body = response.json<Record<string, unknown>>()
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'error'])
    expect(body.code).toBe(case_.code)
    expect(Object.keys(errorCatalog)).toContain(body.code)
    expect(response.statusCode).toBe(errorCatalog[case_.code as keyof typeof errorCatalog].httpStatus)
    expect(typeof body.error).toBe('string')
    expect(body.details).toEqual(expect.any(Object))
    expect(response.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
  })

  it('answers a path parameter over 400 code units with 414 URI_TOO_LONG before any route runs', async () => {
    const response = await build().inject({
      method: 'POST',
      url: `/v1/conversations/${'c'.repeat(401)}/compact`,
      payload: {},
    })
    expect(response.statusCode).toBe(414)
    expect(response.json()).toEqual({
      error: 'A path parameter is longer than 400 UTF-16 code units',
      code: 'URI_TOO_LONG',
      details: { max_length: 400 },
    })
    expect(response.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('accepts a path parameter up to the limit: an identifier of 200 emoji reaches its route', async () => {
    const response = await build().inject({
      method: 'POST',
      url: `/v1/conversations/${encodeURIComponent('🧵'.repeat(200))}/compact`,
      payload: {},
    })
    // The route ran its front door (no key), where a longer parameter would have been refused before routing.
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' })
  })
})

/** Writes raw bytes to the server and reads its whole answer (it closes the connection after a parser error). */
async function rawExchange(address: string, bytes: string): Promise<{ head: string[]; body: unknown }> {
  const { hostname, port } = new URL(address)
  const answer = await new Promise<string>((resolve) => {
    let received = ''
    const socket = connect(Number(port), hostname, () => socket.write(bytes))
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (received += chunk))
    // The server destroys the socket once it has answered; a reset after the answer is expected.
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(received))
  })
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  return { head: head.split('\r\n'), body: JSON.parse(body) }
}

describe('requests the HTTP parser rejects', () => {
  it.each([
    { name: 'not HTTP', bytes: 'HELLO\r\n\r\n', field: 'request' },
    {
      name: 'headers over the size limit',
      bytes: `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      field: 'headers',
    },
  ])('answers $name with 400 INVALID_INPUT in the spec body', async ({ bytes, field }) => {
    const address = await build().listen({ host: '127.0.0.1', port: 0 })
    const { head, body } = await rawExchange(address, bytes)
    expect(head[0]).toBe('HTTP/1.1 400 Bad Request')
    expect(head).toContainEqual(expect.stringMatching(/^X-Correlation-Id: [0-9a-f-]{36}$/))
    expect(body).toEqual({
      error: 'The request could not be read',
      code: 'INVALID_INPUT',
      details: { fields: { [field]: expect.any(String) } },
    })
  })
})

describe('the console', () => {
  it('serves the built page at /console/ with a strict CSP; a missing file is 404, not 405', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'console-'))
    writeFileSync(join(directory, 'index.html'), '<!doctype html><title>console</title>')
    writeFileSync(join(directory, 'console.js'), 'export {}')
    app = buildApp(unwiredDependencies({ consoleDirectory: directory }))
    const bare = await app.inject({ method: 'GET', url: '/console' })
    expect(bare.statusCode).toBe(301)
    expect(bare.headers.location).toBe('/console/')
    const page = await app.inject({ method: 'GET', url: '/console/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toContain('<title>console</title>')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(page.headers['x-correlation-id']).toBeTruthy()
    expect((await app.inject({ method: 'GET', url: '/console/console.js' })).headers['content-type']).toMatch(
      /javascript/,
    )
    const missing = await app.inject({ method: 'GET', url: '/console/nothing.js' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' })
    expect((await app.inject({ method: 'GET', url: '/console/../package.json' })).statusCode).toBe(404)
  })

  it('answers 404 NOT_FOUND saying how to build it when it was never built', async () => {
    app = buildApp(unwiredDependencies({ consoleDirectory: null }))
    const answer = await app.inject({ method: 'GET', url: '/console/' })
    expect(answer.statusCode).toBe(404)
    expect(answer.json()).toMatchObject({ code: 'NOT_FOUND', details: { path: '/console/' } })
    expect(answer.json<{ error: string }>().error).toContain('npm run build')
  })
})
