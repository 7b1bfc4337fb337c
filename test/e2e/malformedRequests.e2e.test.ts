/**
 * Property-based robustness: thousands of malformed requests (methods, paths, query strings, headers, bodies,
 * content types, sizes) against the running gateway. Whatever they are, none may get a 5xx, and every error
 * body has the spec's shape.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { permissionPresets } from '@memory-service/domain'
import { eventually, startGatewayWithInstance } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let baseUrl = ''
const keys: string[] = []

beforeAll(async () => {
  // A generous enterprise limit, so requests reach validation instead of stopping at 429.
  harness = await startGatewayWithInstance('fuzz')
  baseUrl = harness.gateway.addresses.http ?? ''
  const reader = await harness.tenancy.issueKey(
    harness.instance.instance.instance_id,
    permissionPresets['read-only'],
    'fuzz-setup',
  )
  keys.push(harness.instance.api_key.key, reader.key)
  await eventually(async () => {
    const response = await fetch(`${baseUrl}/dashboard/instances`, {
      headers: { authorization: `Bearer ${reader.key}` },
    })
    return response.status === 200 ? true : undefined
  })
})

afterAll(() => harness.close())

const knownPaths = [
  '/dashboard/instances',
  '/dashboard/instances/inst_0123456789abcdef',
  '/healthz',
  '/readyz',
  '/openapi.json',
  '/v1/memories',
  '/v1/memories/batch',
  '/v1/memories/ing_00000000000000000000000000000000/status',
  '/v1/events/batch',
  // {instance} is the harness's own instance, so requests get past the instance check to the validation.
  '/instances/{instance}/memory-architecture/init',
  '/instances/{instance}/memory-architecture/versions',
  '/instances/{instance}/memory-architecture/versions/maca_cfg_0000000000000000/review',
  '/dashboard/configs/{instance}',
]

const path = fc.oneof(
  { arbitrary: fc.constantFrom(...knownPaths), weight: 4 },
  fc
    .tuple(fc.constantFrom(...knownPaths), fc.string({ maxLength: 40 }))
    .map(([base, tail]) => `${base}/${encodeURIComponent(tail)}`),
  fc.string({ maxLength: 60 }).map((text) => `/dashboard/instances/${encodeURIComponent(text)}`),
)
const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom('page', 'page_size', 'x', 'page[]', ''),
      fc.oneof(
        fc.integer({ min: -5, max: 500 }).map(String),
        fc.string({ maxLength: 20 }),
        fc.constant('1e99'),
        fc.constant('NaN'),
      ),
      { maxKeys: 3 },
    )
    .map((params) => `?${new URLSearchParams(params).toString()}`),
  fc.string({ maxLength: 30 }).map((raw) => `?${raw.replace(/[#\s]/g, '')}`),
)
const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(0, 1).map((index) => `Bearer ${keys[index] ?? ''}`),
  fc.string({ maxLength: 80 }).map((text) => `Bearer ${text.replace(/[\r\n]/g, '')}`),
  fc.string({ maxLength: 80 }).map((text) => text.replace(/[\r\n]/g, '')),
)
const contentType = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/xml',
    'multipart/form-data',
    'application/x-www-form-urlencoded',
    '',
  ),
)
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc
    .record(
      {
        name: fc.oneof(fc.string({ maxLength: 300 }), fc.integer(), fc.constant(null)),
        tier: fc.oneof(fc.constantFrom('free', 'pro', 'enterprise', 'gold'), fc.integer()),
        rate_limit: fc.anything({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.constant('x'.repeat(6 * 1024 * 1024)),
  fc
    .record(
      {
        document: fc.oneof(fc.string({ maxLength: 100 }), fc.anything({ maxDepth: 1 })),
        document_type: fc.oneof(fc.constantFrom('email', 'note', 'fax'), fc.string({ maxLength: 10 })),
        mode: fc.oneof(fc.constantFrom('fast', 'long-range', 'slow'), fc.integer()),
        document_id: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
        document_created_at: fc.oneof(
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          fc.string(),
        ),
        metadata: fc.anything({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        documents: fc.oneof(
          fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
          fc.anything({ maxDepth: 1 }),
        ),
        fail_fast: fc.anything({ maxDepth: 0 }),
        events: fc.oneof(
          fc.array(
            fc.record(
              {
                event_id: fc.oneof(fc.string({ maxLength: 140 }), fc.integer()),
                event_type: fc.oneof(
                  fc.constantFrom('user_message', 'session_started', 'shout'),
                  fc.string({ maxLength: 8 }),
                ),
                conversation_id: fc.string({ maxLength: 20 }),
                user_id: fc.string({ maxLength: 20 }),
                role: fc.string({ maxLength: 10 }),
                content: fc.anything({ maxDepth: 1 }),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 5 },
          ),
          fc.anything({ maxDepth: 1 }),
        ),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
)

describe('malformed requests', () => {
  it('never get a 5xx and always get the spec error body when they fail (1200 requests)', async () => {
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(
        // Mostly the methods the routes have, so that most requests reach authentication and validation.
        fc.oneof(
          { arbitrary: fc.constantFrom('GET', 'POST'), weight: 5 },
          { arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE'), weight: 1 },
        ),
        path,
        query,
        authorization,
        contentType,
        body,
        async (method, requestPath, search, auth, type, payload) => {
          const headers: Record<string, string> = {}
          if (auth !== undefined) headers.authorization = auth
          if (type !== undefined) headers['content-type'] = type
          let response: Response
          try {
            response = await fetch(
              `${baseUrl}${requestPath.replace('{instance}', harness.instance.instance.instance_id)}${search}`,
              {
                method,
                headers,
                ...(payload !== undefined && method !== 'GET' ? { body: payload } : {}),
              },
            )
          } catch (error) {
            // The client refused to send it (an illegal header byte): nothing reached the server.
            if (error instanceof TypeError) return
            throw error
          }
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          expect(response.status, `${method} ${requestPath}${search}`).toBeLessThan(500)
          expect(response.headers.get('x-correlation-id')).toBeTruthy()
          if (response.status >= 400) {
            const errorBody = (await response.json()) as Record<string, unknown>
            expect(Object.keys(errorBody).sort()).toEqual(['code', 'details', 'error'])
            expect(typeof errorBody.code).toBe('string')
          } else {
            await response.arrayBuffer()
          }
        },
      ),
      { numRuns: 1200 },
    )
    const total = [...statuses.values()].reduce((sum, count) => sum + count, 0)
    console.log(
      `malformed requests sent: ${total}; statuses: ${JSON.stringify(Object.fromEntries(statuses))}`,
    )
    expect(total).toBeGreaterThanOrEqual(1000)
  })
})
