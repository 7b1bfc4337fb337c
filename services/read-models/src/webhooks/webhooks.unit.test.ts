/**
 * The webhook dispatcher and sender without engines: an in-memory deliveries store with Elasticsearch's
 * conditional writes, a fake transport and a clock the tests move; and the HTTP transport against local servers.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import type { IngestionJobChanged } from '@memory-service/contracts'
import {
  createControlEventFactory,
  generateWebhookSecret,
  type AttemptResult,
  type DeliveryRecord,
  type WebhookRecord,
} from '@memory-service/domain'
import type { DeliveryStore, StoredDelivery } from './deliveryStore.js'
import { createWebhookDispatch } from './webhookDispatch.js'
import { createWebhookSender, type WebhookRequest } from './webhookSender.js'
import { createHttpTransport } from './httpTransport.js'

/** The value, which the test expects to be there. */
function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value')
  return value
}

function memoryStore(): DeliveryStore & { rows: Map<string, { delivery: DeliveryRecord; seqNo: number }> } {
  const rows = new Map<string, { delivery: DeliveryRecord; seqNo: number }>()
  let seq = 0
  const stored = (id: string): StoredDelivery | undefined => {
    const row = rows.get(id)
    return row ? { delivery: structuredClone(row.delivery), seqNo: row.seqNo, primaryTerm: 1 } : undefined
  }
  return {
    rows,
    async createMany(deliveries) {
      let created = 0
      for (const delivery of deliveries) {
        if (rows.has(delivery.delivery_id)) continue
        rows.set(delivery.delivery_id, { delivery: structuredClone(delivery), seqNo: seq++ })
        created += 1
      }
      return created
    },
    async get(id) {
      return stored(id)
    },
    async listOfWebhook(webhookId, page, pageSize) {
      const all = [...rows.values()]
        .map((row) => row.delivery)
        .filter((delivery) => delivery.webhook_id === webhookId)
      return { items: all.slice((page - 1) * pageSize, page * pageSize), total: all.length }
    },
    async due(now, limit) {
      return [...rows.values()]
        .filter(
          (row) =>
            row.delivery.status === 'pending' &&
            row.delivery.next_attempt_at !== null &&
            row.delivery.next_attempt_at <= now.toISOString(),
        )
        .sort((a, b) => (a.delivery.next_attempt_at ?? '').localeCompare(b.delivery.next_attempt_at ?? ''))
        .slice(0, limit)
        .map((row) => must(stored(row.delivery.delivery_id)))
    },
    async replace(previous, delivery) {
      const row = rows.get(delivery.delivery_id)
      if (row?.seqNo !== previous.seqNo) return undefined
      const next = { delivery: structuredClone(delivery), seqNo: seq++ }
      rows.set(delivery.delivery_id, next)
      return { delivery, seqNo: next.seqNo, primaryTerm: 1 }
    },
  }
}

const secret = generateWebhookSecret()
// Near the real time: receivers (and standardwebhooks' verify) refuse timestamps over five minutes off.
const t0 = new Date(Math.floor(Date.now() / 1000) * 1000)

function webhook(overrides: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    webhook_id: 'wh_0000000000000001',
    instance_id: 'inst_0000000000000001',
    url: 'https://hooks.example.com/x',
    events: ['ingestion.completed', 'ingestion.failed', 'ingestion.partial_success'],
    description: null,
    status: 'active',
    disabled_reason: null,
    secret_ciphertext: 'sealed',
    created_at: t0.toISOString(),
    updated_at: t0.toISOString(),
    ...overrides,
  }
}

function job(
  ingestion: string,
  status: IngestionJobChanged['status'],
): { payload: IngestionJobChanged; offset: string } {
  return {
    payload: {
      type: 'ingestion_job_changed',
      ingestion_id: `ing_${ingestion.padStart(32, '0')}`,
      instance_id: 'inst_0000000000000001',
      version: 3,
      status,
      progress: { extraction: 1, categorization: 1, entity_resolution: 1, storage: 1 },
      errors: [],
      memory_ids: [],
      document_type: 'text',
      mode: 'fast',
      user_id: null,
      customer_id: null,
      changed_at: new Date(t0.getTime() + 1000).toISOString(),
    },
    offset: ingestion,
  }
}

function harness(
  options: { answer?: (request: WebhookRequest) => Promise<AttemptResult>; concurrency?: number } = {},
) {
  let now = t0
  const store = memoryStore()
  const hooks = new Map([[webhook().webhook_id, webhook()]])
  const requests: { at: Date; request: WebhookRequest }[] = []
  const disabled: string[] = []
  const sender = createWebhookSender({
    store,
    transport: {
      async send(request) {
        requests.push({ at: now, request })
        return options.answer ? options.answer(request) : { statusCode: 200 }
      },
    },
    webhookOf: (id) => hooks.get(id),
    secretOf: () => secret,
    async disable(hook, reason) {
      disabled.push(reason)
      hooks.set(hook.webhook_id, { ...hook, status: 'disabled', disabled_reason: reason })
    },
    policy: { delaysMs: [5_000, 60_000], windowMs: 120_000 },
    timeoutMs: 10_000,
    concurrency: options.concurrency ?? 4,
    now: () => now,
  })
  const dispatch = createWebhookDispatch({ webhooks: () => hooks.values(), store, now: () => now })
  return {
    store,
    hooks,
    requests,
    disabled,
    sender,
    dispatch,
    advance(ms: number) {
      now = new Date(now.getTime() + ms)
    },
    async run() {
      await sender.tick()
      await sender.drain()
    },
  }
}

describe('webhook dispatch', () => {
  it('creates one delivery per subscribed webhook and terminal job, and none again on a replay', async () => {
    const h = harness()
    const events = [job('1', 'processing'), job('1', 'completed'), job('2', 'failed')]
    expect(await h.dispatch(events)).toEqual({ notices: 2, created: 2 })
    expect(await h.dispatch(events)).toEqual({ notices: 2, created: 0 })
    expect([...h.store.rows.values()].map((row) => row.delivery.event_type).sort()).toEqual([
      'ingestion.completed',
      'ingestion.failed',
    ])
  })
})

describe('webhook dispatch of control events', () => {
  it('tells webhooks only of what the control read model accepted', async () => {
    const store = memoryStore()
    const hook = webhook({ events: ['rebuild.finished', 'configuration.applied'] })
    const factory = createControlEventFactory({ now: () => new Date(t0.getTime() + 1000) })
    const progress = { instanceId: hook.instance_id, configId: 'maca_cfg_0000000000000001' }
    const owner = factory.configRebuildChanged({ ...progress, status: 'completed', runner: 'owner' })
    const stranger = factory.configRebuildChanged({ ...progress, status: 'failed', runner: 'stranger' })
    const dispatch = createWebhookDispatch({
      webhooks: () => [hook],
      store,
      accepted: async (event) => event.event_id === owner.event_id,
    })
    expect(
      await dispatch([
        { payload: stranger, offset: '7' },
        { payload: owner, offset: '8' },
      ]),
    ).toEqual({ notices: 1, created: 1 })
    const [row] = store.rows.values()
    expect(JSON.parse(row?.delivery.payload ?? '{}')).toMatchObject({
      type: 'rebuild.finished',
      data: { status: 'completed' },
    })
  })
})

describe('webhook sender', () => {
  it('signs each delivery the Standard Webhooks way and records the success', async () => {
    const h = harness()
    await h.dispatch([job('1', 'completed')])
    await h.run()
    expect(h.requests).toHaveLength(1)
    const { request } = must(h.requests[0])
    const verified = new Webhook(secret).verify(request.body, request.headers) as { type: string }
    expect(verified.type).toBe('ingestion.completed')
    expect(request.headers['webhook-id']).toMatch(/^whd_[0-9a-f]{32}$/)
    expect(request.timeoutMs).toBe(10_000)
    const [row] = h.store.rows.values()
    expect(row?.delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 200 })
    await h.run()
    expect(h.requests).toHaveLength(1)
  })

  it('retries a failing receiver on the schedule, then fails the delivery and disables the webhook', async () => {
    const h = harness({ answer: async () => ({ statusCode: 500 }) })
    await h.dispatch([job('1', 'completed')])
    await h.run()
    h.advance(4_999)
    await h.run()
    expect(h.requests).toHaveLength(1) // not due yet
    h.advance(1)
    await h.run()
    for (let step = 0; step < 3; step += 1) {
      h.advance(60_000)
      await h.run()
    }
    // 0 s, 5 s, 65 s; the next (125 s) would be past the 120 s window.
    expect(h.requests.map(({ at }) => (at.getTime() - t0.getTime()) / 1000)).toEqual([0, 5, 65])
    const [row] = h.store.rows.values()
    expect(row?.delivery).toMatchObject({ status: 'failed', attempts: 3, last_error: 'HTTP 500' })
    expect(h.disabled).toHaveLength(1)
    expect(h.disabled[0]).toMatch(/failed for the whole retry window/)
    // All attempts carry the same webhook-id, so a receiver can deduplicate.
    expect(new Set(h.requests.map(({ request }) => request.headers['webhook-id'])).size).toBe(1)
  })

  it('never has more than the configured deliveries in flight, and a slow receiver does not block the others', async () => {
    const releases: (() => void)[] = []
    const h = harness({
      concurrency: 2,
      answer: (request) =>
        request.url.includes('slow')
          ? new Promise((resolve) => releases.push(() => resolve({ error: 'no answer within 10000 ms' })))
          : Promise.resolve({ statusCode: 204 }),
    })
    h.hooks.set(
      'wh_0000000000000002',
      webhook({ webhook_id: 'wh_0000000000000002', url: 'https://slow.example.com/' }),
    )
    await h.dispatch([job('1', 'completed'), job('2', 'completed'), job('3', 'completed')])
    await h.sender.tick()
    expect(h.sender.inFlight()).toBeLessThanOrEqual(2)
    // Ticks go on while the slow receiver holds its slot; the fast deliveries all complete.
    for (let step = 0; step < 5; step += 1) {
      await h.sender.tick()
      await new Promise((resolve) => setImmediate(resolve))
    }
    const fast = [...h.store.rows.values()].filter((row) => row.delivery.webhook_id === 'wh_0000000000000001')
    expect(fast).toHaveLength(3)
    expect(fast.every((row) => row.delivery.status === 'succeeded')).toBe(true)
    // One slot per webhook at concurrency 2: the slow receiver holds one, never both.
    expect(h.sender.inFlight()).toBe(1)
    for (const release of releases) release()
    await h.sender.drain()
    expect(h.sender.inFlight()).toBe(0)
  })

  it('sends nothing to a deleted or disabled webhook', async () => {
    const h = harness()
    await h.dispatch([job('1', 'completed')])
    h.hooks.clear()
    await h.run()
    expect(h.requests).toHaveLength(0)
    const [row] = h.store.rows.values()
    expect(row?.delivery).toMatchObject({ status: 'failed', last_error: 'webhook deleted' })
  })

  it('lets only one of two senders claim a delivery', async () => {
    const h = harness()
    await h.dispatch([job('1', 'completed')])
    const due = must((await h.store.due(t0, 10))[0])
    const first = await h.store.replace(due, { ...due.delivery, next_attempt_at: 'lease' })
    const second = await h.store.replace(due, { ...due.delivery, next_attempt_at: 'lease' })
    expect(first).toBeDefined()
    expect(second).toBeUndefined()
  })
})

describe('HTTP transport', () => {
  const servers: Server[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
  })

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler)
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  const allowLoopback = createHttpTransport({ allowedHosts: ['127.0.0.1'] })
  const request = (url: string, timeoutMs = 2000): WebhookRequest => ({
    url,
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
    timeoutMs,
  })

  it('posts the body and reports the status, without following redirects', async () => {
    let received = ''
    const base = await serve((incoming, response) => {
      incoming.setEncoding('utf8')
      incoming.on('data', (chunk: string) => (received += chunk))
      incoming.on('end', () => {
        if (incoming.url === '/moved') response.writeHead(302, { location: '/elsewhere' }).end()
        else response.writeHead(202).end('ok')
      })
    })
    expect(await allowLoopback.send(request(`${base}/hook`))).toEqual({ statusCode: 202 })
    expect(received).toBe('{"a":1}')
    expect(await allowLoopback.send(request(`${base}/moved`))).toEqual({ statusCode: 302 })
  })

  it('gives up on a receiver that does not answer in time', async () => {
    const base = await serve(() => undefined)
    const result = await allowLoopback.send(request(`${base}/slow`, 200))
    expect(result).toEqual({ error: 'no answer within 200 ms' })
  })

  it('refuses loopback unless allow-listed, and names that resolve to a private address', async () => {
    const base = await serve((_incoming, response) => response.end())
    const strict = createHttpTransport({ allowedHosts: [] }, async () => ['10.0.0.7'])
    expect(await strict.send(request(`${base}/hook`))).toMatchObject({
      error: expect.stringMatching(/https/),
    })
    expect(await strict.send(request('https://hooks.example.com/hook'))).toEqual({
      error: 'target refused: refused: hooks.example.com resolves to 10.0.0.7 is a private address',
    })
    const rebinding = createHttpTransport({ allowedHosts: [] }, async () => ['93.184.216.34', '127.0.0.1'])
    expect(await rebinding.send(request('https://hooks.example.com/hook'))).toMatchObject({
      error: expect.stringMatching(/loopback/),
    })
  })
})
