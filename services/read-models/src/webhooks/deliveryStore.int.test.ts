import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createElasticsearchClient,
  createElasticsearchStore,
  loadEngineDeclarations,
} from '@memory-service/engines'
import {
  newDelivery,
  noticeOfJobChange,
  redelivery,
  WEBHOOK_DELIVERIES_INDEX,
  type WebhookRecord,
} from '@memory-service/domain'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createDeliveryStore } from './deliveryStore.js'

const client = createElasticsearchClient(testConfig().elasticsearch)
const index = uniqueName('test-webhook-deliveries')
const declaration = loadEngineDeclarations().indices.find((entry) => entry.name === WEBHOOK_DELIVERIES_INDEX)
const store = createDeliveryStore(client, index)
const t0 = new Date('2026-01-01T00:00:00.000Z')

function webhook(id: string): WebhookRecord {
  return {
    webhook_id: id,
    instance_id: 'inst_0123456789abcdef',
    url: 'https://hooks.example.com/',
    events: ['ingestion.completed'],
    description: null,
    status: 'active',
    disabled_reason: null,
    secret_ciphertext: 'v1.a.b.c',
    created_at: t0.toISOString(),
    updated_at: t0.toISOString(),
  }
}

function notice(ingestion: string) {
  const found = noticeOfJobChange({
    type: 'ingestion_job_changed',
    ingestion_id: `ing_${ingestion.padStart(32, '0')}`,
    instance_id: 'inst_0123456789abcdef',
    version: 3,
    status: 'completed',
    progress: { extraction: 1, categorization: 1, entity_resolution: 1, storage: 1 },
    errors: [],
    memory_ids: [],
    document_type: 'text',
    mode: 'fast',
    user_id: null,
    customer_id: null,
    changed_at: t0.toISOString(),
  })
  if (!found) throw new Error('no notice')
  return found
}

beforeAll(async () => {
  if (!declaration) throw new Error('the deliveries index is not declared')
  await createElasticsearchStore(client, index).ensureIndex(declaration.mappings, declaration.settings)
})
afterAll(async () => {
  await client.indices.delete({ index }, { ignore: [404] })
  await client.close()
})

describe('webhook deliveries on Elasticsearch', () => {
  it('creates a delivery once, whoever creates it first', async () => {
    const deliveries = [newDelivery(webhook('wh_0000000000000001'), notice('1'), t0)]
    const created = await Promise.all([store.createMany(deliveries), store.createMany(deliveries)])
    expect(created.sort()).toEqual([0, 1])
    expect(await store.createMany(deliveries)).toBe(0)
  })

  it('finds due deliveries, lets one writer claim each, and lists a webhook newest first', async () => {
    const hook = webhook('wh_0000000000000002')
    await store.createMany([
      newDelivery(hook, notice('2'), t0),
      newDelivery(hook, notice('3'), new Date(t0.getTime() + 1000)),
      { ...newDelivery(hook, notice('4'), t0), next_attempt_at: '2026-01-02T00:00:00.000Z' },
    ])
    await client.indices.refresh({ index })
    const due = await store.due(new Date(t0.getTime() + 5000), 10)
    const mine = due.filter((entry) => entry.delivery.webhook_id === hook.webhook_id)
    expect(mine.map((entry) => entry.delivery.source_id)).toEqual([
      notice('2').source_id,
      notice('3').source_id,
    ])
    const [first] = mine
    if (!first) throw new Error('nothing due')
    const lease = { ...first.delivery, next_attempt_at: '2026-01-01T00:01:00.000Z' }
    const [one, two] = await Promise.all([store.replace(first, lease), store.replace(first, lease)])
    expect([one, two].filter(Boolean)).toHaveLength(1)
    const claimed = one ?? two
    if (!claimed) throw new Error('no claim')
    const again = await store.replace(claimed, redelivery(claimed.delivery, t0), { refresh: true })
    expect(again?.delivery.status).toBe('pending')
    expect((await store.get(first.delivery.delivery_id))?.delivery.next_attempt_at).toBe(t0.toISOString())

    const page = await store.listOfWebhook(hook.webhook_id, 1, 2)
    expect(page.total).toBe(3)
    expect(page.items).toHaveLength(2)
    expect(page.items[0]?.source_id).toBe(notice('3').source_id)
    expect(await store.get('whd_00000000000000000000000000000000')).toBeUndefined()
  })
})
