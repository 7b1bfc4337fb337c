/**
 * Authentication, permissions, tenancy isolation and rate limits through the public REST API, with instances and
 * keys created as control events on the real Kafka topic (as the CLI does) and the gateway reading them back.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createControlPlane, type ControlPlane } from '@memory-service/log'
import { createKafka, createSchemaCodec } from '@memory-service/engines'
import { createControlEventFactory, permissionPresets, CONTROL_TOPIC } from '@memory-service/domain'
import { createTenancyCommands, type TenancyCommands } from '@memory-service/commands'
import { type CreatedInstance } from '@memory-service/contracts'
import { startServices, type RunningServices } from '@memory-service/cli'
import { eventually, testConfig, testLogger, uniqueName } from '../support/testEngines.js'

// A rate-limit group of its own: no other gateway of this test run takes a share of the limits.
const config = testConfig({ HTTP_PORT: '0', GRPC_PORT: '0', RATE_LIMIT_GROUP: uniqueName('gateways') })
const logger = testLogger()
const events = createControlEventFactory()
let services: RunningServices
let control: ControlPlane
let tenancy: TenancyCommands
let baseUrl = ''
let clientA: CreatedInstance
let clientB: CreatedInstance

async function call(
  path: string,
  init: { key?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  }
}

/** The gateway's rate-limit clock: real time, unless a test holds it at a moment (then no token refills). */
let heldAt: number | undefined

/** The gateway follows the control topic; a key written a moment ago authenticates once it has read it. */
async function untilUsable(key: string): Promise<void> {
  await eventually(async () =>
    (await call('/dashboard/instances', { key })).status !== 401 ? true : undefined,
  )
}

beforeAll(async () => {
  services = await startServices(config, ['gateway'], logger, { clock: () => heldAt ?? Date.now() })
  baseUrl = services.addresses.http ?? ''
  const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'front-door-e2e', logger })
  control = await createControlPlane({ kafka, codec: createSchemaCodec(config.schemaRegistry.url), logger })
  tenancy = createTenancyCommands(control, events)
  clientA = await tenancy.createInstance(
    { clientId: events.newClientId(), name: 'client A', tier: 'pro' },
    'e2e-setup',
  )
  clientB = await tenancy.createInstance(
    { clientId: events.newClientId(), name: 'client B', tier: 'pro' },
    'e2e-setup',
  )
  await untilUsable(clientA.api_key.key)
  await untilUsable(clientB.api_key.key)
})

afterAll(async () => {
  await control.close()
  await services.close()
})

describe('authentication', () => {
  it('answers 401 UNAUTHORIZED with an empty details object for a missing, malformed or unknown key', async () => {
    const unknownKey = `msk_0123456789abcdef_${'A'.repeat(43)}`
    const cases: [Record<string, string>, string][] = [
      [{}, 'Authorization header is missing'],
      [{ authorization: clientA.api_key.key }, 'Authorization header must be "Bearer <API key>"'],
      [{ authorization: 'Bearer not-a-key' }, 'The bearer value is not an API key'],
      [{ authorization: `Bearer ${unknownKey}` }, 'Unknown API key'],
    ]
    for (const [headers, message] of cases) {
      const response = await call('/dashboard/instances', { headers })
      expect(response.status, message).toBe(401)
      expect(response.body).toEqual({ error: message, code: 'UNAUTHORIZED', details: {} })
      expect(response.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
  })

  it('rotates a key: the old one answers 401 CREDENTIAL_INVALID, the new one works with the same permissions', async () => {
    const reader = await tenancy.issueKey(clientA.instance.instance_id, permissionPresets['read-only'], 'e2e')
    await untilUsable(reader.key)
    const rotated = await tenancy.rotateKey(reader.key_id, 'e2e')
    await eventually(async () =>
      (await call('/dashboard/instances', { key: reader.key })).status === 401 ? true : undefined,
    )
    expect(await call('/dashboard/instances', { key: reader.key })).toMatchObject({
      status: 401,
      body: { error: 'API key was rotated', code: 'CREDENTIAL_INVALID', details: {} },
    })
    await untilUsable(rotated.key)
    expect(rotated.permissions).toEqual(permissionPresets['read-only'])
    expect(
      tenancy.listKeys(clientA.instance.instance_id).find((key) => key.key_id === reader.key_id),
    ).toMatchObject({
      status: 'rotated',
      replaced_by: rotated.key_id,
    })
  })

  it('revokes a key: it answers 401 CREDENTIAL_INVALID from then on', async () => {
    const agent = await tenancy.issueKey(clientA.instance.instance_id, permissionPresets.ingest, 'e2e')
    await untilUsable(agent.key)
    await tenancy.revokeKey(agent.key_id, 'e2e')
    await eventually(async () =>
      (await call('/dashboard/instances', { key: agent.key })).status === 401 ? true : undefined,
    )
    expect((await call('/dashboard/instances', { key: agent.key })).body).toEqual({
      error: 'API key was revoked',
      code: 'CREDENTIAL_INVALID',
      details: {},
    })
  })

  it('keeps every key across a gateway restart, because the read model is rebuilt from the topic', async () => {
    await services.close()
    services = await startServices(config, ['gateway'], logger, { clock: () => heldAt ?? Date.now() })
    baseUrl = services.addresses.http ?? ''
    expect((await call('/dashboard/instances', { key: clientA.api_key.key })).status).toBe(200)
  })
})

describe('permissions and tenancy', () => {
  it('denies a read-only key an admin operation with 403 FORBIDDEN naming the permissions', async () => {
    const reader = await tenancy.issueKey(clientA.instance.instance_id, permissionPresets['read-only'], 'e2e')
    await untilUsable(reader.key)
    const response = await call('/dashboard/instances', {
      key: reader.key,
      method: 'POST',
      body: { name: 'x', tier: 'free' },
    })
    expect(response).toMatchObject({ status: 403 })
    expect(response.body).toEqual({
      error: 'This API key lacks the permission instances:write',
      code: 'FORBIDDEN',
      details: {
        required_permission: 'instances:write',
        current_permissions: permissionPresets['read-only'],
      },
    })
  })

  it('tells any valid key about itself (instance, permissions), never the key or its hash; no key is 401', async () => {
    const ingest = await tenancy.issueKey(clientA.instance.instance_id, permissionPresets.ingest, 'e2e')
    await untilUsable(ingest.key)
    const answer = await call('/v1/keys/current', { key: ingest.key })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      key_id: ingest.key_id,
      key_prefix: expect.stringMatching(/^msk_/),
      instance_id: clientA.instance.instance_id,
      client_id: clientA.instance.client_id,
      permissions: permissionPresets.ingest,
      issued_at: expect.any(String),
    })
    expect(JSON.stringify(answer.body)).not.toContain(ingest.key)
    expect(answer.headers.get('x-ratelimit-limit')).toBe('600')
    expect((await call('/v1/keys/current')).body).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it("answers another client's instance exactly like a missing one: 404 INSTANCE_NOT_FOUND", async () => {
    const other = await call(`/dashboard/instances/${clientB.instance.instance_id}`, {
      key: clientA.api_key.key,
    })
    const missing = await call('/dashboard/instances/inst_ffffffffffffffff', { key: clientA.api_key.key })
    expect(other).toMatchObject({
      status: 404,
      body: {
        error: 'Instance not found',
        code: 'INSTANCE_NOT_FOUND',
        details: { instance_id: clientB.instance.instance_id },
      },
    })
    expect(missing).toMatchObject({
      status: 404,
      body: {
        error: 'Instance not found',
        code: 'INSTANCE_NOT_FOUND',
        details: { instance_id: 'inst_ffffffffffffffff' },
      },
    })
    const own = await call(`/dashboard/instances/${clientA.instance.instance_id}`, {
      key: clientA.api_key.key,
    })
    expect(own).toEqual(expect.objectContaining({ status: 200, body: clientA.instance }))
  })

  it('creates an instance for the caller client only and lists just that client, page by page', async () => {
    const created = await call('/dashboard/instances', {
      key: clientB.api_key.key,
      method: 'POST',
      body: { name: 'client B second', tier: 'free' },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      instance: {
        client_id: clientB.instance.client_id,
        name: 'client B second',
        tier: 'free',
        rate_limit: { requests_per_minute: 60, burst: 10 },
      },
      api_key: {
        key_id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
        key: expect.stringMatching(/^msk_/),
        permissions: permissionPresets.admin,
      },
    })
    const first = await call('/dashboard/instances?page=1&page_size=1', { key: clientB.api_key.key })
    expect(first.body).toMatchObject({
      page: 1,
      page_size: 1,
      total: 2,
      has_more: true,
      items: [clientB.instance],
    })
    const second = await call('/dashboard/instances?page=2&page_size=1', { key: clientB.api_key.key })
    expect(second.body).toMatchObject({ page: 2, page_size: 1, total: 2, has_more: false })
    expect((second.body?.items as { client_id: string }[])[0]?.client_id).toBe(clientB.instance.client_id)
    const defaults = await call('/dashboard/instances', { key: clientB.api_key.key })
    expect(defaults.body).toMatchObject({ page: 1, page_size: 20, total: 2, has_more: false })
  })

  it('rejects out-of-range pagination and a bad body with 400 INVALID_INPUT naming each field', async () => {
    const page = await call('/dashboard/instances?page=0&page_size=101', { key: clientA.api_key.key })
    expect(page).toMatchObject({
      status: 400,
      body: {
        code: 'INVALID_INPUT',
        details: { fields: { page: 'must be >= 1', page_size: 'must be <= 100' } },
      },
    })
    const body = await call('/dashboard/instances', {
      key: clientA.api_key.key,
      method: 'POST',
      body: { name: '', tier: 'gold' },
    })
    expect(body.body).toEqual({
      error: 'Request validation failed',
      code: 'INVALID_INPUT',
      details: {
        fields: {
          name: 'must NOT have fewer than 1 characters',
          tier: 'must be one of: free, pro, enterprise',
        },
      },
    })
    const enterprise = await call('/dashboard/instances', {
      key: clientA.api_key.key,
      method: 'POST',
      body: { name: 'big', tier: 'enterprise' },
    })
    expect(enterprise.body).toEqual({
      error: 'Request validation failed',
      code: 'INVALID_INPUT',
      details: { fields: { rate_limit: 'rate_limit is required for the enterprise tier' } },
    })
  })
})

describe('rate limits', () => {
  it('sends the limit headers on every response and 429 RATE_LIMITED with Retry-After past the burst', async () => {
    const free = await tenancy.createInstance(
      { clientId: events.newClientId(), name: 'free', tier: 'free' },
      'e2e',
    )
    await eventually(async () =>
      (await call('/dashboard/instances', { key: free.api_key.key })).status === 200 ? true : undefined,
    )
    // The probe above took tokens; 11 s later the bucket is full again (10 tokens at 1 per second). The clock
    // stays there, so the counts below do not depend on how fast the requests go.
    heldAt = Date.now() + 11_000
    const remaining: string[] = []
    for (let index = 0; index < 10; index += 1) {
      const response = await call('/dashboard/instances', { key: free.api_key.key })
      expect(response.status).toBe(200)
      expect(response.headers.get('x-ratelimit-limit')).toBe('60')
      remaining.push(response.headers.get('x-ratelimit-remaining') ?? '')
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0'])
    const limited = await call('/dashboard/instances', { key: free.api_key.key })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    const reset = Number(limited.headers.get('x-ratelimit-reset'))
    expect(reset).toBeGreaterThan(heldAt / 1000)
    expect(reset).toBeLessThanOrEqual(Math.ceil(heldAt / 1000) + 11)
    expect(limited.body).toEqual({
      error: 'Rate limit exceeded for this API key',
      code: 'RATE_LIMITED',
      details: {
        limit: 60,
        remaining: 0,
        reset_at: new Date(reset * 1000).toISOString(),
        retry_after_seconds: 1,
      },
    })
    // Another key of another instance is not affected.
    expect((await call('/dashboard/instances', { key: clientA.api_key.key })).status).toBe(200)
    heldAt = undefined
  })
})

describe('correlation ids', () => {
  it("carries the caller's X-Correlation-Id into the Kafka header of the event the request caused", async () => {
    const correlationId = `e2e-${randomUUID()}`
    const created = await call('/dashboard/instances', {
      key: clientA.api_key.key,
      method: 'POST',
      body: { name: 'traced', tier: 'free' },
      headers: { 'x-correlation-id': correlationId },
    })
    expect(created.headers.get('x-correlation-id')).toBe(correlationId)
    const instanceId = (created.body?.instance as { instance_id: string }).instance_id
    const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'correlation-e2e', logger })
    const codec = createSchemaCodec(config.schemaRegistry.url)
    const consumer = kafka.consumer({ groupId: `correlation-e2e-${randomUUID()}` })
    await consumer.connect()
    await consumer.subscribe({ topics: [CONTROL_TOPIC], fromBeginning: true })
    const headers = await new Promise<Record<string, string>>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          if (!message.value) return
          const event = await codec.decode<{ type: string; instance_id: string }>(message.value)
          if (event.type === 'instance_created' && event.instance_id === instanceId) {
            resolve(
              Object.fromEntries(
                Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
              ),
            )
          }
        },
      })
    })
    await consumer.disconnect()
    expect(headers).toMatchObject({ 'x-correlation-id': correlationId, 'event-type': 'instance_created' })
  })
})
