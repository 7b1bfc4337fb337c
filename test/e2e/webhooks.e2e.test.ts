/**
 * Ingestion webhooks on the real stack: a local receiver (node:http on 127.0.0.1, allowed by the default
 * WEBHOOK_ALLOWED_HOSTS) gets a delivery for each event type, each verified with standardwebhooks; a receiver that
 * answers 500 gets retries with backoff, then its webhook is disabled with the reason (a fast schedule comes from
 * configuration, so nothing waits minutes); a dead receiver does not slow ingestion; private targets are refused.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { type MemoryClient } from '@memory-service/client'
import { allPermissions, createControlEventFactory } from '@memory-service/domain'
import type { CreatedWebhook, IngestionStatus } from '@memory-service/contracts'
import { faultMarkers } from '../support/faultInjection.js'
import { createTestClient, refusal } from '../support/http.js'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

/** One request a receiver got: its headers and raw body, when. */
interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  at: number
}

/** A local receiver: records every request; `answer` says the status per path (204 by default). */
async function startReceiver(answer: (path: string) => number = () => 204) {
  const received: Received[] = []
  const server: Server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body, at: Date.now() })
      response.writeHead(answer(request.url ?? '')).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const verify = (secret: string, request: Received) =>
  new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> }

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
let reviewer: MemoryClient
let instanceId: string
let receiver: Awaited<ReturnType<typeof startReceiver>>
const user = uniqueName('webhook-user')

async function ingest(api: MemoryClient, document: string): Promise<string> {
  const created = await api.memories.ingest({ document, document_type: 'note', mode: 'fast', user_id: user })
  return created.ingestion_id
}

async function finished(api: MemoryClient, ingestionId: string): Promise<IngestionStatus> {
  return eventually(async () => {
    const job = await api.memories.status(ingestionId)
    return ['completed', 'failed', 'partial_success'].includes(job.status) ? job : undefined
  }, 60_000)
}

/** The verified deliveries of one webhook's receiver path, by event type. */
function deliveriesTo(secret: string, path: string) {
  return receiver.received
    .filter((request) => request.path === path)
    .map((request) => verify(secret, request))
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('webhooks', {
    withWorkers: true,
    env: {
      WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,1200ms',
      WEBHOOK_RETRY_WINDOW: '5s',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '1000',
    },
  })
  instanceId = harness.instance.instance.instance_id
  const reviewerKey = await harness.tenancy.issueKey(instanceId, allPermissions, 'webhooks-e2e')
  await harness.untilUsable(reviewerKey.key)
  const baseUrl = harness.gateway.addresses.http ?? ''
  client = createTestClient({ baseUrl, apiKey: harness.instance.api_key.key })
  reviewer = createTestClient({ baseUrl, apiKey: reviewerKey.key })
  receiver = await startReceiver((path) => (path.startsWith('/failing') ? 500 : 204))
})

afterAll(async () => {
  if (created) await client.webhooks.delete(created.webhook_id)
  await receiver.close()
  await harness.close()
})

/** The webhook to the receiver's /ok, registered by the second test. */
let created: CreatedWebhook | undefined
function registered(): CreatedWebhook {
  if (!created) throw new Error('the webhook was not registered')
  return created
}

describe('webhooks', () => {
  it('refuses private, link-local and plain-http targets with the spec error body', async () => {
    for (const url of [
      'http://10.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/',
      'https://[fd00::1]/hook',
      'https://[::ffff:192.168.1.1]/hook',
      'http://hooks.example.com/hook',
    ]) {
      const refused = await refusal(client.webhooks.create({ url, events: ['ingestion.completed'] }))
      expect(refused, url).toMatchObject({
        status: 400,
        code: 'INVALID_INPUT',
        details: { fields: { url: expect.any(String) } },
      })
    }
    const missing = await refusal(client.webhooks.get('wh_0000000000000000'))
    expect(missing).toEqual({
      status: 404,
      code: 'WEBHOOK_NOT_FOUND',
      details: { webhook_id: 'wh_0000000000000000' },
    })
  })

  it('registers a webhook whose secret is shown once', async () => {
    const hook = await client.webhooks.create({
      url: `${receiver.url}/ok`,
      events: [
        'ingestion.completed',
        'ingestion.failed',
        'ingestion.partial_success',
        'configuration.applied',
        'rebuild.finished',
      ],
      description: 'e2e receiver',
    })
    expect(hook).toMatchObject({
      status: 'active',
      description: 'e2e receiver',
      secret: expect.stringMatching(/^whsec_/),
    })
    const read = await client.webhooks.get(hook.webhook_id)
    expect(read).not.toHaveProperty('secret')
    const listed = await client.webhooks.list()
    expect(listed.items.map((item) => item.webhook_id)).toContain(hook.webhook_id)
    expect(JSON.stringify(listed)).not.toContain(hook.secret)
    created = hook
  })

  it('delivers ingestion.completed, .failed and .partial_success, signed the Standard Webhooks way', async () => {
    const hook = registered()
    const completed = await ingest(client, 'My sister Clara works as a nurse in Berlin and loves hiking.')
    const failed = await ingest(
      client,
      `I adopted a puppy named Max last week. ${faultMarkers.extractionUnavailable}`,
    )
    const partial = await ingest(
      client,
      `Melanie: I ran the Boston marathon ${faultMarkers.embeddingUnavailable} in April.\nMelanie: My dog Rex loves the beach.`,
    )
    expect((await finished(client, completed)).status).toBe('completed')
    expect((await finished(client, failed)).status).toBe('failed')
    expect((await finished(client, partial)).status).toBe('partial_success')
    const byIngestion = await eventually(async () => {
      const found = new Map(
        deliveriesTo(hook.secret, '/ok')
          .filter((event) => event.type.startsWith('ingestion.'))
          .map((event) => [event.data.ingestion_id, event]),
      )
      return [completed, failed, partial].every((id) => found.has(id)) ? found : undefined
    })
    expect(byIngestion.get(completed)).toMatchObject({
      type: 'ingestion.completed',
      data: { instance_id: instanceId, ingestion_id: completed, status: 'completed', user_id: user },
    })
    expect(byIngestion.get(failed)).toMatchObject({ type: 'ingestion.failed', data: { status: 'failed' } })
    expect(byIngestion.get(partial)).toMatchObject({
      type: 'ingestion.partial_success',
      data: { status: 'partial_success', errors: [expect.objectContaining({ stage: expect.any(String) })] },
    })
    // A tampered body does not verify.
    const original = receiver.received.find((request) => request.path === '/ok')
    expect(original).toBeDefined()
    if (original) expect(() => verify(hook.secret, { ...original, body: `${original.body} ` })).toThrow()

    const deliveries = await eventually(async () => {
      const page = await client.webhooks.deliveries(hook.webhook_id)
      return page.items.filter((item) => item.status === 'succeeded').length >= 3 ? page : undefined
    })
    expect(deliveries.items[0]).toMatchObject({
      webhook_id: hook.webhook_id,
      status: 'succeeded',
      attempts: 1,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
    })
  })

  it('redelivers a delivery with the same webhook-id', async () => {
    const hook = registered()
    const [first] = (await client.webhooks.deliveries(hook.webhook_id)).items
    expect(first).toBeDefined()
    if (!first) return
    const before = receiver.received.filter(
      (request) => request.headers['webhook-id'] === first.delivery_id,
    ).length
    const again = await client.webhooks.redeliver(hook.webhook_id, first.delivery_id)
    expect(again).toMatchObject({ delivery_id: first.delivery_id, status: 'pending' })
    await eventually(async () => {
      const count = receiver.received.filter(
        (request) => request.headers['webhook-id'] === first.delivery_id,
      ).length
      return count > before ? true : undefined
    })
    const done = await eventually(async () => {
      const page = await client.webhooks.deliveries(hook.webhook_id, { page_size: 100 })
      const found = page.items.find((item) => item.delivery_id === first.delivery_id)
      return found?.status === 'succeeded' && found.attempts === 2 ? found : undefined
    })
    expect(done.last_status_code).toBe(204)
  })

  it('lists deliveries as deep as Elasticsearch pages, and refuses deeper pages naming page, nothing of the engine', async () => {
    const hook = registered()
    const deepest = await client.webhooks.deliveries(hook.webhook_id, { page: 500, page_size: 20 })
    expect(deepest).toMatchObject({ items: [], page: 500, page_size: 20 })
    for (const page of [501, 99_999_999_999]) {
      const refused = await client.webhooks
        .deliveries(hook.webhook_id, { page, page_size: 20 })
        .catch((error: unknown) => error)
      expect(refused, String(page)).toMatchObject({
        status: 400,
        code: 'INVALID_INPUT',
        details: { fields: { page: expect.stringContaining('10000') } },
      })
      expect(`${(refused as Error).message} ${JSON.stringify(refused)}`).not.toMatch(/exception|window/i)
    }
  })

  it('delivers configuration.applied and rebuild.finished', async () => {
    const hook = registered()
    const initial = await client.configs.init(instanceId)
    expect(initial.status).toBe('active')
    const proposed = await client.configs.propose(
      instanceId,
      // Turning the graph off rebuilds the graph projection alone.
      'storage:\n  graph:\n    enabled: false\nretrieval:\n  graph_queries: false\n',
    )
    await reviewer.configs.review(instanceId, proposed.config_id, {
      decision: 'approve',
      comment: 'webhooks e2e',
    })
    const applied = await reviewer.configs.apply(instanceId, proposed.config_id)
    expect(applied.rebuild).toMatchObject({ status: 'pending' })
    // The rebuild itself is configVersions.e2e.test.ts's subject (it replays the whole memories topic). Here a
    // runner of our own claims it and reports it finished on the control topic, as a projectors process does;
    // if this process's rebuild runner claimed it first, ours is refused and the webhook hears of the real one.
    const runner = uniqueName('webhooks-e2e-runner')
    const control = createControlEventFactory()
    const progress = { instanceId, configId: proposed.config_id, runner }
    await harness.control.append(
      [
        control.configRebuildChanged({ ...progress, status: 'running', projection: 'graph' }),
        control.configRebuildChanged({ ...progress, status: 'completed' }),
      ],
      'webhooks-e2e',
    )
    const events = await eventually(async () => {
      const found = deliveriesTo(hook.secret, '/ok').filter(
        (event) => event.data.config_id === proposed.config_id,
      )
      return found.some((event) => event.type === 'rebuild.finished') ? found : undefined
    }, 300_000)
    expect(events.find((event) => event.type === 'configuration.applied')).toMatchObject({
      data: { instance_id: instanceId, config_id: proposed.config_id },
    })
    expect(events.find((event) => event.type === 'rebuild.finished')).toMatchObject({
      data: { instance_id: instanceId, config_id: proposed.config_id, status: 'completed' },
    })
    expect(deliveriesTo(hook.secret, '/ok').some((event) => event.data.config_id === initial.config_id)).toBe(
      true,
    )
  }, 330_000)

  it('retries a receiver that answers 500 with backoff, then fails the delivery and disables the webhook', async () => {
    const other = await harness.createInstance(uniqueName('webhooks-failing'))
    await harness.untilUsable(other.api_key.key)
    const api = createTestClient({ baseUrl: harness.gateway.addresses.http ?? '', apiKey: other.api_key.key })
    const failing = await api.webhooks.create({
      url: `${receiver.url}/failing`,
      events: ['ingestion.completed'],
    })
    const ingestionId = await ingest(api, 'My brother Tom teaches chemistry in Leeds.')
    expect((await finished(api, ingestionId)).status).toBe('completed')
    const disabled = await eventually(async () => {
      const current = await api.webhooks.get(failing.webhook_id)
      return current.status === 'disabled' ? current : undefined
    }, 30_000)
    expect(disabled.disabled_reason).toMatch(/failed for the whole retry window/)
    const attempts = receiver.received.filter((request) => request.path === '/failing')
    // Due after 0.3 s, 0.6 s, then every 1.2 s, within the 5 s window (each write is seen by the sender within
    // the index's one-second refresh, so the gaps are at least the schedule's, not exactly it).
    expect(attempts.length).toBeGreaterThanOrEqual(3)
    expect(new Set(attempts.map((request) => request.headers['webhook-id'])).size).toBe(1)
    for (const request of attempts) expect(verify(failing.secret, request).type).toBe('ingestion.completed')
    const gaps = attempts.slice(1).map((request, index) => request.at - (attempts[index]?.at ?? 0))
    const schedule = [300, 600, 1200]
    gaps.forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(schedule[Math.min(index, 2)] ?? 0))
    expect((attempts.at(-1)?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeLessThanOrEqual(5_000)
    // The list reads the index, which shows the last attempt within its one-second refresh.
    const delivery = await eventually(async () => {
      const [found] = (await api.webhooks.deliveries(failing.webhook_id)).items
      return found?.status === 'failed' ? found : undefined
    })
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: attempts.length,
      last_status_code: 500,
      last_error: 'HTTP 500',
      next_attempt_at: null,
    })
    const refused = await refusal(api.webhooks.redeliver(failing.webhook_id, delivery.delivery_id))
    expect(refused).toMatchObject({ status: 409, code: 'WEBHOOK_DISABLED' })
  })

  it('a dead or hanging receiver does not slow ingestion', async () => {
    const other = await harness.createInstance(uniqueName('webhooks-dead'))
    await harness.untilUsable(other.api_key.key)
    const api = createTestClient({ baseUrl: harness.gateway.addresses.http ?? '', apiKey: other.api_key.key })
    const documents = (round: string) =>
      Array.from(
        { length: 6 },
        (_, index) => `Round ${round}: my colleague number ${String(index)} lives in Oslo.`,
      )
    const timeJobs = async (round: string) => {
      const started = Date.now()
      const ids = await Promise.all(documents(round).map((document) => ingest(api, document)))
      await Promise.all(ids.map((id) => finished(api, id)))
      return Date.now() - started
    }
    const baseline = await timeJobs('one')

    // A receiver that was killed (connection refused) and one that accepts and never answers.
    const dead = await startReceiver()
    await dead.close()
    const hanging = createServer(() => undefined)
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    const hangingUrl = `http://127.0.0.1:${String((hanging.address() as AddressInfo).port)}/hook`
    try {
      for (const url of [`${dead.url}/hook`, hangingUrl]) {
        for (let copy = 0; copy < 3; copy += 1)
          await api.webhooks.create({ url, events: ['ingestion.completed', 'ingestion.failed'] })
      }
      const withDeadReceivers = await timeJobs('two')
      expect(withDeadReceivers).toBeLessThan(baseline * 2 + 3_000)
      // The deliveries to them are being retried meanwhile.
      const hooks = await api.webhooks.list()
      const retried = await eventually(async () => {
        const pages = await Promise.all(hooks.items.map((item) => api.webhooks.deliveries(item.webhook_id)))
        const items = pages.flatMap((page) => page.items)
        return items.some((item) => item.attempts > 0 && item.last_error !== null) ? items : undefined
      })
      expect(retried.length).toBeGreaterThan(0)
    } finally {
      // Deleted webhooks get no more attempts: their deliveries stop at the next try.
      for (const item of (await api.webhooks.list()).items) await api.webhooks.delete(item.webhook_id)
      hanging.closeAllConnections()
      await new Promise((resolve) => hanging.close(resolve))
    }
  })
})
