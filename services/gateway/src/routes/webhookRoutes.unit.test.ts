/**
 * The webhook routes without engines: the real commands over a control plane that folds its events at once and an
 * in-memory deliveries store; every answer checked for its status and body, every refusal for the spec's body.
 */
import { describe, expect, it } from 'vitest'
import {
  applyControlEvent,
  createControlEventFactory,
  createSecretBox,
  createWebhookEventFactory,
  emptyControlState,
  newDelivery,
  noticeOfJobChange,
  type ControlEvent,
  type DeliveryRecord,
  type Permission,
} from '@memory-service/domain'
import { createWebhookCommands } from '@memory-service/commands'
import type { ControlPlane } from '@memory-service/log'
import type { DeliveryStore } from '@memory-service/read-models'
import { buildApp } from '../app.js'
import { unwiredDependencies } from '../testing/unwiredDependencies.js'

/** The value, which the test expects to be there. */
function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value')
  return value
}

function setup() {
  const state = emptyControlState()
  const control = {
    state,
    async append(events: ControlEvent[]) {
      return events.map((event) => applyControlEvent(state, event).applied)
    },
    outcomeOf: () => undefined,
    async close() {},
  } as ControlPlane
  const factory = createControlEventFactory()
  const instance = factory.instanceCreated({
    clientId: factory.newClientId(),
    name: 'webhooks',
    tier: 'enterprise',
    rateLimit: { requests_per_minute: 100_000, burst: 10_000 },
  })
  applyControlEvent(state, instance)
  const issue = (permissions: readonly Permission[], instanceId = instance.instance_id) => {
    const { event, key } = factory.apiKeyIssued(instanceId, permissions)
    applyControlEvent(state, event)
    return key.key
  }
  const other = factory.instanceCreated({
    clientId: factory.newClientId(),
    name: 'other',
    tier: 'pro',
    rateLimit: { requests_per_minute: 100_000, burst: 10_000 },
  })
  applyControlEvent(state, other)
  const rows = new Map<string, { delivery: DeliveryRecord; seqNo: number }>()
  const deliveries: DeliveryStore = {
    async createMany(items) {
      for (const delivery of items) rows.set(delivery.delivery_id, { delivery, seqNo: 0 })
      return items.length
    },
    async get(id) {
      const row = rows.get(id)
      return row ? { ...row, primaryTerm: 1 } : undefined
    },
    async listOfWebhook(webhookId, page, pageSize) {
      const all = [...rows.values()].map((row) => row.delivery).filter((d) => d.webhook_id === webhookId)
      return { items: all.slice((page - 1) * pageSize, page * pageSize), total: all.length }
    },
    async due() {
      return []
    },
    async replace(stored, delivery) {
      const seqNo = stored.seqNo + 1
      rows.set(delivery.delivery_id, { delivery, seqNo })
      return { delivery, seqNo, primaryTerm: 1 }
    },
  }
  const webhooks = createWebhookCommands({
    control,
    events: createWebhookEventFactory(),
    secrets: createSecretBox(Buffer.alloc(32, 3)),
    urlPolicy: { allowedHosts: ['localhost', '127.0.0.1', '::1'] },
    deliveries,
  })
  const app = buildApp(unwiredDependencies({ control, webhooks }))
  const admin = issue(['webhooks:read', 'webhooks:write'])
  const reader = issue(['webhooks:read'])
  const outsider = issue(['webhooks:read', 'webhooks:write'], other.instance_id)
  const call = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  return { app, state, rows, admin, reader, outsider, call, instanceId: instance.instance_id }
}

describe('webhook routes', () => {
  it('register a webhook and show its secret once, sealed in the log', async () => {
    const { call, admin, state } = setup()
    const created = await call(admin, 'POST', '/v1/webhooks', {
      url: 'https://hooks.example.com/memory',
      events: ['ingestion.completed', 'rebuild.finished'],
      description: 'indexer',
    })
    expect(created.statusCode).toBe(201)
    const body = created.json<{ webhook_id: string; secret: string }>()
    expect(body).toMatchObject({
      url: 'https://hooks.example.com/memory',
      events: ['ingestion.completed', 'rebuild.finished'],
      description: 'indexer',
      status: 'active',
      disabled_reason: null,
    })
    expect(body.webhook_id).toMatch(/^wh_[0-9a-f]{16}$/)
    expect(body.secret).toMatch(/^whsec_/)
    const record = must(state.webhooks.get(body.webhook_id))
    expect(JSON.stringify(record)).not.toContain(body.secret.slice(6))

    const read = await call(admin, 'GET', `/v1/webhooks/${body.webhook_id}`)
    expect(read.statusCode).toBe(200)
    expect(read.json()).not.toHaveProperty('secret')
    const list = await call(admin, 'GET', '/v1/webhooks?page=1&page_size=10')
    expect(list.json()).toMatchObject({ page: 1, page_size: 10, total: 1, has_more: false })
    expect(list.body).not.toContain(body.secret)
  })

  it.each([
    ['http://10.0.0.1/hook', /https/],
    ['https://10.0.0.1/hook', /private/],
    ['https://169.254.169.254/', /link-local/],
    ['https://[fd12::1]/hook', /unique-local/],
    ['not a url', /absolute/],
  ])('refuse %s with 400 INVALID_INPUT naming the url', async (url, reason) => {
    const { call, admin } = setup()
    const refused = await call(admin, 'POST', '/v1/webhooks', { url, events: ['ingestion.completed'] })
    expect(refused.statusCode).toBe(400)
    const body = refused.json<{ code: string; details: { fields: { url: string } } }>()
    expect(body.code).toBe('INVALID_INPUT')
    expect(body.details.fields.url).toMatch(reason)
  })

  it('validate every body with the spec error body', async () => {
    const { call, admin } = setup()
    for (const payload of [
      { url: 'https://hooks.example.com/' },
      { url: 'https://hooks.example.com/', events: [] },
      { url: 'https://hooks.example.com/', events: ['memory.deleted'] },
      { url: 'https://hooks.example.com/', events: ['ingestion.failed'], extra: 1 },
      { url: 42, events: ['ingestion.failed'] },
    ]) {
      const refused = await call(admin, 'POST', '/v1/webhooks', payload)
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400)
      expect(refused.json()).toMatchObject({ code: 'INVALID_INPUT', details: { fields: expect.any(Object) } })
    }
  })

  it('need webhooks:write to change and webhooks:read to read', async () => {
    const { call, reader } = setup()
    const refused = await call(reader, 'POST', '/v1/webhooks', {
      url: 'https://hooks.example.com/',
      events: ['ingestion.failed'],
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      details: { required_permission: 'webhooks:write' },
    })
    expect((await call(reader, 'GET', '/v1/webhooks')).statusCode).toBe(200)
  })

  it('change, disable, enable and delete a webhook; another instance sees none of it', async () => {
    const { call, admin, outsider } = setup()
    const { webhook_id: id } = (
      await call(admin, 'POST', '/v1/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: ['ingestion.failed'],
      })
    ).json<{ webhook_id: string }>()
    const missing = await call(outsider, 'GET', `/v1/webhooks/${id}`)
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({
      error: 'Webhook not found',
      code: 'WEBHOOK_NOT_FOUND',
      details: { webhook_id: id },
    })
    expect((await call(outsider, 'DELETE', `/v1/webhooks/${id}`)).statusCode).toBe(404)

    const changed = await call(admin, 'PATCH', `/v1/webhooks/${id}`, {
      events: ['ingestion.completed'],
      description: null,
      status: 'disabled',
    })
    expect(changed.statusCode).toBe(200)
    expect(changed.json()).toMatchObject({ events: ['ingestion.completed'], status: 'disabled' })
    expect((await call(admin, 'PATCH', `/v1/webhooks/${id}`, {})).statusCode).toBe(400)
    const badUrl = await call(admin, 'PATCH', `/v1/webhooks/${id}`, { url: 'https://192.168.0.1/' })
    expect(badUrl.json()).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { url: expect.any(String) } },
    })
    const enabled = await call(admin, 'PATCH', `/v1/webhooks/${id}`, { status: 'active' })
    expect(enabled.json()).toMatchObject({ status: 'active', disabled_reason: null })

    expect((await call(admin, 'DELETE', `/v1/webhooks/${id}`)).statusCode).toBe(204)
    expect((await call(admin, 'GET', `/v1/webhooks/${id}`)).statusCode).toBe(404)
  })

  it('list deliveries and redeliver one, refusing while the webhook is disabled', async () => {
    const { call, admin, rows, state, instanceId } = setup()
    const { webhook_id: id } = (
      await call(admin, 'POST', '/v1/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: ['ingestion.failed'],
      })
    ).json<{ webhook_id: string }>()
    const notice = must(
      noticeOfJobChange({
        type: 'ingestion_job_changed',
        ingestion_id: `ing_${'1'.repeat(32)}`,
        instance_id: instanceId,
        version: 3,
        status: 'failed',
        progress: { extraction: 1, categorization: 0, entity_resolution: 0, storage: 0 },
        errors: [{ stage: 'categorization', code: 'X', message: 'x' }],
        memory_ids: [],
        document_type: 'text',
        mode: 'fast',
        user_id: null,
        customer_id: null,
        changed_at: new Date().toISOString(),
      }),
    )
    const delivery = {
      ...newDelivery(must(state.webhooks.get(id)), notice, new Date()),
      status: 'failed' as const,
      attempts: 7,
      last_status_code: 500,
      last_error: 'HTTP 500',
      next_attempt_at: null,
    }
    rows.set(delivery.delivery_id, { delivery, seqNo: 0 })

    const page = await call(admin, 'GET', `/v1/webhooks/${id}/deliveries`)
    expect(page.statusCode).toBe(200)
    expect(page.json()).toMatchObject({
      total: 1,
      items: [{ delivery_id: delivery.delivery_id, status: 'failed', attempts: 7, last_status_code: 500 }],
    })
    const again = await call(admin, 'POST', `/v1/webhooks/${id}/deliveries/${delivery.delivery_id}/redeliver`)
    expect(again.statusCode).toBe(202)
    expect(again.json()).toMatchObject({
      status: 'pending',
      attempts: 7,
      next_attempt_at: expect.any(String),
    })

    const unknown = await call(admin, 'POST', `/v1/webhooks/${id}/deliveries/whd_${'0'.repeat(32)}/redeliver`)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ code: 'WEBHOOK_DELIVERY_NOT_FOUND' })

    await call(admin, 'PATCH', `/v1/webhooks/${id}`, { status: 'disabled' })
    const disabled = await call(
      admin,
      'POST',
      `/v1/webhooks/${id}/deliveries/${delivery.delivery_id}/redeliver`,
    )
    expect(disabled.statusCode).toBe(409)
    expect(disabled.json()).toMatchObject({ code: 'WEBHOOK_DISABLED', details: { webhook_id: id } })
  })
})
