import { describe, expect, it } from 'vitest'
import type { IngestionJobChanged } from '@memory-service/contracts'
import { applyControlEvent, emptyControlState } from '../tenancy/controlState.js'
import { createControlEventFactory } from '../tenancy/controlEvents.js'
import { checkWebhookUrl, pickResolvedAddress, refusedAddress } from './urlPolicy.js'
import {
  defaultWebhookRetryPolicy,
  nextAttemptAt,
  parseDuration,
  retryDelayMs,
  retryPolicyOf,
} from './retrySchedule.js'
import { createSecretBox, generateWebhookSecret, webhookSecretKeyFrom } from './secrets.js'
import {
  abandoned,
  afterAttempt,
  deliveryIdOf,
  newDelivery,
  noticeOfControlEvent,
  noticeOfJobChange,
  publicDelivery,
  redelivery,
  subscribersOf,
} from './webhookDeliveries.js'
import { createWebhookEventFactory } from './webhookEventFactory.js'
import { listWebhooks, publicWebhook, type WebhookRecord } from './webhookRegistry.js'

/** The value, which the test expects to be there. */
function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value')
  return value
}

const policy = { allowedHosts: ['localhost', '127.0.0.1', '::1'] }

describe('webhook URL policy', () => {
  it.each([
    'https://hooks.example.com/memory',
    'https://93.184.216.34/hook',
    'https://[2606:4700::1111]/hook',
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]:9000/hook',
  ])('accepts %s', (url) => {
    expect(checkWebhookUrl(url, policy).ok).toBe(true)
  })

  it.each([
    ['http://hooks.example.com/hook', /https/],
    ['http://10.0.0.1/hook', /https/],
    ['https://10.0.0.1/hook', /private/],
    ['https://192.168.1.20/hook', /private/],
    ['https://172.16.0.1/hook', /private/],
    ['https://169.254.169.254/', /link-local/],
    ['https://100.64.0.1/', /carrier-grade NAT/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://127.0.0.2/', /loopback/],
    ['https://[fd00::1]/', /unique-local/],
    ['https://[fe80::1]/', /link-local/],
    ['https://[::ffff:10.0.0.1]/', /private/],
    ['https://[::]/', /unspecified/],
    ['https://localhost.example.localhost/', /localhost/],
    ['https://intranet/', /fully qualified/],
    ['https://user:pass@hooks.example.com/', /credentials/],
    ['ftp://hooks.example.com/', /http or https/],
    ['not a url', /absolute/],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, /2048/],
  ])('refuses %s', (url, reason) => {
    const check = checkWebhookUrl(url, policy)
    expect(check.ok).toBe(false)
    if (!check.ok) expect(check.reason).toMatch(reason)
  })

  it('lets an allow-listed host use http and any address, and nothing else', () => {
    expect(checkWebhookUrl('http://10.0.0.1/hook', { allowedHosts: ['10.0.0.1'] }).ok).toBe(true)
    expect(checkWebhookUrl('http://127.0.0.1/hook', { allowedHosts: [] }).ok).toBe(false)
    const check = checkWebhookUrl('http://LOCALHOST:3000/x', policy)
    expect(check.ok && check.allowListed).toBe(true)
  })

  it('checks every resolved address and connects to a checked one', () => {
    expect(pickResolvedAddress('a.example', ['93.184.216.34', '2606:4700::1111'])).toEqual({
      ok: true,
      address: '93.184.216.34',
    })
    const mixed = pickResolvedAddress('a.example', ['93.184.216.34', '10.1.2.3'])
    expect(mixed.ok).toBe(false)
    expect(!mixed.ok && mixed.reason).toMatch(/a.example resolves to 10.1.2.3 is a private address/)
    expect(pickResolvedAddress('a.example', []).ok).toBe(false)
    expect(refusedAddress('8.8.8.8')).toBeUndefined()
    expect(refusedAddress('224.0.0.1')).toMatch(/multicast/)
    expect(refusedAddress('nonsense')).toMatch(/not an IP address/)
  })
})

describe('webhook retry schedule', () => {
  it('reads durations', () => {
    expect(parseDuration('250ms')).toBe(250)
    expect(parseDuration('5s')).toBe(5000)
    expect(parseDuration('30m')).toBe(1_800_000)
    expect(parseDuration('5h')).toBe(18_000_000)
    expect(parseDuration('1d')).toBe(86_400_000)
    expect(() => parseDuration('5 minutes')).toThrow(/not a duration/)
  })

  it('waits 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, then every 5 h', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((failures) =>
      retryDelayMs(defaultWebhookRetryPolicy, failures),
    )
    expect(delays).toEqual([5_000, 60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 18_000_000, 18_000_000])
  })

  it('gives up when the next attempt would be past the 24 h window', () => {
    const start = new Date('2026-01-01T00:00:00Z')
    let now = start
    const attempts: Date[] = [now]
    for (let failures = 1; ; failures += 1) {
      const next = nextAttemptAt(defaultWebhookRetryPolicy, failures, start, now)
      if (!next) break
      attempts.push(next)
      now = next
    }
    // 0 s, 5 s, 1 min 5 s, 6 min 5 s, 36 min 5 s, 2 h 36 min, 7 h 36 min, 12 h 36 min, 17 h 36 min, 22 h 36 min
    expect(attempts).toHaveLength(10)
    expect(must(attempts.at(-1)).getTime() - start.getTime()).toBeLessThanOrEqual(24 * 3_600_000)
  })

  it('takes a schedule from configuration', () => {
    expect(retryPolicyOf({ retrySchedule: ['100ms', '200ms'], retryWindow: '2s' })).toEqual({
      delaysMs: [100, 200],
      windowMs: 2000,
    })
    expect(() => retryPolicyOf({ retrySchedule: [], retryWindow: '1h' })).toThrow()
  })
})

describe('webhook secrets', () => {
  it('are Standard Webhooks secrets, sealed for one webhook under the configured key', () => {
    const secret = generateWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/)
    const box = createSecretBox(Buffer.alloc(32, 7))
    const sealed = box.seal('wh_0000000000000001', secret)
    expect(sealed).not.toContain(secret.slice(6))
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(box.open('wh_0000000000000001', sealed)).toBe(secret)
    expect(() => box.open('wh_0000000000000002', sealed)).toThrow()
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open('wh_0000000000000001', sealed)).toThrow()
  })

  it('read the key as hex or base64, and fall back to the development key when none is set', () => {
    expect(webhookSecretKeyFrom(undefined).development).toBe(true)
    expect(webhookSecretKeyFrom('ab'.repeat(32))).toEqual({ key: Buffer.alloc(32, 0xab), development: false })
    expect(webhookSecretKeyFrom(Buffer.alloc(32, 1).toString('base64')).key).toEqual(Buffer.alloc(32, 1))
    expect(() => webhookSecretKeyFrom('c2hvcnQ=')).toThrow(/32 bytes/)
  })
})

const t0 = '2026-01-01T00:00:00.000Z'

function job(status: IngestionJobChanged['status'], version = 3): IngestionJobChanged {
  return {
    type: 'ingestion_job_changed',
    ingestion_id: `ing_${'a'.repeat(32)}`,
    instance_id: 'inst_0000000000000001',
    version,
    status,
    progress: { extraction: 1, categorization: 1, entity_resolution: 1, storage: 1 },
    errors: [],
    memory_ids: ['mem_01'],
    document_type: 'text',
    mode: 'fast',
    user_id: 'u1',
    customer_id: null,
    changed_at: '2026-01-01T00:10:00.000Z',
  }
}

function webhook(overrides: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    webhook_id: 'wh_0000000000000001',
    instance_id: 'inst_0000000000000001',
    url: 'https://hooks.example.com/x',
    events: ['ingestion.completed', 'ingestion.failed'],
    description: null,
    status: 'active',
    disabled_reason: null,
    secret_ciphertext: 'v1.a.b.c',
    created_at: t0,
    updated_at: t0,
    ...overrides,
  }
}

describe('webhook notices and deliveries', () => {
  it('turn terminal job transitions into ingestion events and ignore the others', () => {
    expect(noticeOfJobChange(job('queued', 1))).toBeUndefined()
    expect(noticeOfJobChange(job('processing', 2))).toBeUndefined()
    expect(noticeOfJobChange(job('completed'))?.type).toBe('ingestion.completed')
    expect(noticeOfJobChange(job('failed'))?.type).toBe('ingestion.failed')
    const partial = noticeOfJobChange(job('partial_success'))
    expect(partial).toMatchObject({
      type: 'ingestion.partial_success',
      source_id: `job:ing_${'a'.repeat(32)}:3`,
      data: { ingestion_id: `ing_${'a'.repeat(32)}`, status: 'partial_success', memory_ids: ['mem_01'] },
    })
  })

  it('turn an applied configuration and a finished rebuild into their events', () => {
    const events = createControlEventFactory({ now: () => new Date(t0) })
    const applied = events.configVersionApplied({
      instanceId: 'inst_0000000000000001',
      configId: 'maca_cfg_0000000000000001',
      appliedBy: 'system',
    })
    expect(noticeOfControlEvent(applied)).toMatchObject({
      type: 'configuration.applied',
      data: { config_id: 'maca_cfg_0000000000000001' },
    })
    const progress = {
      instanceId: 'inst_0000000000000001',
      configId: 'maca_cfg_0000000000000001',
      runner: 'p1',
    }
    expect(
      noticeOfControlEvent(events.configRebuildChanged({ ...progress, status: 'running' })),
    ).toBeUndefined()
    const oneProjection = events.configRebuildChanged({
      ...progress,
      status: 'completed',
      projection: 'vector',
    })
    expect(noticeOfControlEvent(oneProjection)).toBeUndefined()
    const failed = events.configRebuildChanged({ ...progress, status: 'failed', error: 'out of disk' })
    expect(noticeOfControlEvent(failed)).toMatchObject({ data: { status: 'failed', error: 'out of disk' } })
    const done = noticeOfControlEvent(events.configRebuildChanged({ ...progress, status: 'completed' }))
    const again = noticeOfControlEvent(events.configRebuildChanged({ ...progress, status: 'completed' }))
    expect(done).toMatchObject({ type: 'rebuild.finished', data: { status: 'completed' } })
    // Two runners reporting the same finish make one delivery.
    expect(done?.source_id).toBe(again?.source_id)
    expect(noticeOfControlEvent({ type: 'api_key_revoked' })).toBeUndefined()
  })

  it('go to the active webhooks of the instance that subscribe and existed when it happened', () => {
    const notice = must(noticeOfJobChange(job('completed')))
    const hooks = [
      webhook(),
      webhook({ webhook_id: 'wh_0000000000000002', status: 'disabled' }),
      webhook({ webhook_id: 'wh_0000000000000003', events: ['ingestion.failed'] }),
      webhook({ webhook_id: 'wh_0000000000000004', instance_id: 'inst_0000000000000002' }),
      webhook({ webhook_id: 'wh_0000000000000005', created_at: '2026-01-01T00:20:00.000Z' }),
    ]
    expect(subscribersOf(hooks, notice).map((hook) => hook.webhook_id)).toEqual(['wh_0000000000000001'])
  })

  it('have an id derived from webhook and source event, and a Standard Webhooks body', () => {
    const notice = must(noticeOfJobChange(job('completed')))
    const delivery = newDelivery(webhook(), notice, new Date(t0))
    expect(delivery.delivery_id).toBe(deliveryIdOf('wh_0000000000000001', notice.source_id))
    expect(delivery.delivery_id).toMatch(/^whd_[0-9a-f]{32}$/)
    expect(deliveryIdOf('wh_0000000000000002', notice.source_id)).not.toBe(delivery.delivery_id)
    expect(JSON.parse(delivery.payload)).toEqual({
      type: 'ingestion.completed',
      timestamp: '2026-01-01T00:10:00.000Z',
      data: expect.objectContaining({ ingestion_id: `ing_${'a'.repeat(32)}`, status: 'completed' }),
    })
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: t0 })
  })

  it('succeed on 2xx, retry on anything else, and fail past the window with a reason', () => {
    const retry = { delaysMs: [1000, 5000], windowMs: 10_000 }
    const start = new Date(t0)
    const delivery = newDelivery(webhook(), must(noticeOfJobChange(job('completed'))), start)
    const ok = afterAttempt(delivery, { statusCode: 204 }, retry, start)
    expect(ok.delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 204 })
    expect(ok.giveUp).toBeUndefined()

    const first = afterAttempt(delivery, { statusCode: 500 }, retry, start)
    expect(first.delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: 'HTTP 500',
      next_attempt_at: '2026-01-01T00:00:01.000Z',
    })
    const redirected = afterAttempt(
      first.delivery,
      { statusCode: 302 },
      retry,
      new Date(start.getTime() + 1000),
    )
    expect(redirected.delivery).toMatchObject({
      attempts: 2,
      last_error: 'HTTP 302: redirects are not followed',
      next_attempt_at: '2026-01-01T00:00:06.000Z',
    })
    const timedOut = afterAttempt(
      redirected.delivery,
      { error: 'timeout' },
      retry,
      new Date(start.getTime() + 6000),
    )
    expect(timedOut.delivery).toMatchObject({ status: 'failed', attempts: 3, last_status_code: null })
    expect(timedOut.giveUp?.reason).toMatch(
      /failed for the whole retry window \(3 attempts\); last error: timeout/,
    )
    expect(publicDelivery(timedOut.delivery).next_attempt_at).toBeNull()

    const again = redelivery(timedOut.delivery, new Date(start.getTime() + 60_000))
    expect(again).toMatchObject({ status: 'pending', attempts: 3, cycle_attempts: 0 })
    expect(
      afterAttempt(again, { statusCode: 503 }, retry, new Date(start.getTime() + 60_000)).delivery.status,
    ).toBe('pending')
    expect(abandoned(again, 'webhook deleted', start)).toMatchObject({
      status: 'failed',
      last_error: 'webhook deleted',
    })
  })
})

describe('the webhook registry in the control read model', () => {
  it('registers, changes, disables and deletes webhooks in log order', () => {
    const control = createControlEventFactory({ now: () => new Date(t0) })
    const hooks = createWebhookEventFactory({ now: () => new Date(t0) })
    const state = emptyControlState()
    const instance = control.instanceCreated({
      clientId: 'cli_0000000000000001',
      name: 'a',
      tier: 'pro',
      rateLimit: { requests_per_minute: 100, burst: 10 },
    })
    applyControlEvent(state, instance)
    const id = hooks.newWebhookId()
    const base = { instance_id: instance.instance_id, webhook_id: id }
    expect(
      applyControlEvent(
        state,
        hooks.registered({
          ...base,
          url: 'https://hooks.example.com/a',
          events: ['ingestion.completed'],
          description: 'first',
          secret_ciphertext: 'v1.a.b.c',
          created_by: 'key_0000000000000001',
        }),
      ),
    ).toEqual({ applied: true })
    applyControlEvent(state, hooks.changed({ ...base, events: ['ingestion.failed'], changed_by: 'system' }))
    applyControlEvent(
      state,
      hooks.changed({ ...base, status: 'disabled', disabled_reason: 'kept failing', changed_by: 'system' }),
    )
    const record = must(state.webhooks.get(id))
    expect(publicWebhook(record)).toMatchObject({
      url: 'https://hooks.example.com/a',
      events: ['ingestion.failed'],
      description: 'first',
      status: 'disabled',
      disabled_reason: 'kept failing',
    })
    expect(publicWebhook(record)).not.toHaveProperty('secret_ciphertext')
    expect(listWebhooks(state.webhooks, instance.instance_id, 1, 20)).toMatchObject({
      total: 1,
      has_more: false,
    })
    applyControlEvent(state, hooks.changed({ ...base, status: 'active', changed_by: 'key_0000000000000001' }))
    expect(state.webhooks.get(id)?.disabled_reason).toBeNull()
    // Another instance cannot touch it.
    const foreign = hooks.deleted({
      instance_id: 'inst_0000000000000009',
      webhook_id: id,
      deleted_by: 'system',
    })
    expect(applyControlEvent(state, foreign).applied).toBe(false)
    applyControlEvent(state, hooks.deleted({ ...base, deleted_by: 'key_0000000000000001' }))
    expect(state.webhooks.size).toBe(0)
  })
})
