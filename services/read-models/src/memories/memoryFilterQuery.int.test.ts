import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import {
  createElasticsearchClient,
  createElasticsearchStore,
  loadEngineDeclarations,
  withVectorDimension,
} from '@memory-service/engines'
import { memoryDocumentOf, parseMemoryFilter } from '@memory-service/domain'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createMemoryStore } from './memoryStore.js'

const client = createElasticsearchClient(testConfig().elasticsearch)
const index = uniqueName('test-memory-filters')
const declaration = loadEngineDeclarations().indices.find((entry) => entry.vectorField === 'embedding')
const store = createMemoryStore(client, index)
const instanceId = 'inst_filters'
const dimension = 4

interface Sample {
  id: string
  type?: MemoryChanged['memory']['type']
  entities?: string[]
  metadata?: Record<string, unknown>
  created_at?: string
  valid_to?: string | null
  confidence?: number
  content?: string
  document_type?: string
  user_id?: string
}

function event(sample: Sample, ordinal: number): MemoryChanged {
  const created = sample.created_at ?? '2026-03-01T10:00:00.000Z'
  return {
    type: 'memory_changed',
    change: 'created',
    event_id: `evt_${sample.id}`,
    memory_id: sample.id,
    instance_id: instanceId,
    version: 1,
    changed_at: created,
    memory: {
      id: sample.id,
      instance_id: instanceId,
      type: sample.type ?? 'fact',
      content: sample.content ?? `Memory number ${String(ordinal)}`,
      confidence: sample.confidence ?? 0.8,
      entities: (sample.entities ?? []).map((name, position) => ({
        entity_id: `ent_${(ordinal * 10 + position).toString(16).padStart(4, '0')}`,
        canonical_name: name,
        type: 'organization',
      })),
      relations: [],
      scope: { user_id: sample.user_id ?? 'u1', customer_id: null, client_id: 'client_a' },
      source: {
        ingestion_id: `ing_${String(ordinal).padStart(32, '0')}`,
        document_type: sample.document_type ?? 'text',
        document_created_at: created,
      },
      metadata: sample.metadata ?? {},
      created_at: created,
      updated_at: created,
      occurred_on: null,
      speaker: null,
      mode: 'fast',
      valid_from: created,
      ...(sample.valid_to !== undefined ? { valid_to: sample.valid_to } : {}),
      embedding: { model: 'test-model', vector: [1, ordinal, 0, 0] },
    },
  }
}

const samples: Sample[] = [
  {
    id: 'm_cheap',
    type: 'preference',
    metadata: { channel: 'web', order: { total: 9.5 }, tags: ['VIP', 'early'] },
    entities: ['Acme Corp'],
    created_at: '2026-01-05T08:00:00.000Z',
  },
  {
    id: 'm_big',
    type: 'preference',
    metadata: { channel: 'mobile', order: { total: 120 }, renewal: '2026-09-01' },
    entities: ['Globex'],
    created_at: '2026-02-10T08:00:00.000Z',
    confidence: 0.4,
  },
  {
    id: 'm_mid',
    type: 'fact',
    metadata: { channel: 'web', order: { total: 42 }, renewal: '2027-01-15', note: 'Prefers a window seat' },
    entities: ['acme  corp', 'Initech'],
    created_at: '2026-03-20T08:00:00.000Z',
    content: 'Drinks a double espresso every morning',
  },
  {
    id: 'm_old',
    type: 'temporal_event',
    metadata: { channel: 'email', priority: 3 },
    created_at: '2025-11-30T08:00:00.000Z',
    valid_to: '2026-01-01T00:00:00.000Z',
    document_type: 'ai-chat-conversation',
  },
  { id: 'm_bare', type: 'emotion', created_at: '2026-04-01T08:00:00.000Z', user_id: 'u2' },
]

async function matching(raw: unknown): Promise<string[]> {
  const parsed = parseMemoryFilter(raw)
  if ('fields' in parsed) throw new Error(`invalid filter: ${JSON.stringify(parsed.fields)}`)
  const { items } = await store.list(instanceId, { page: 1, page_size: 100, filter: parsed.filter })
  return items.map((item) => item.id).sort()
}

beforeAll(async () => {
  if (!declaration) throw new Error('the memories index is not declared')
  await createElasticsearchStore(client, index).ensureIndex(
    withVectorDimension(declaration, dimension),
    declaration.settings,
  )
  await createElasticsearchStore(client, index).upsert(
    samples.map((sample, ordinal) => {
      const change = event(sample, ordinal + 1)
      return { id: sample.id, version: 1, document: memoryDocumentOf(change) }
    }),
    { refresh: true },
  )
})
afterAll(async () => {
  await client.indices.delete({ index }, { ignore: [404] })
  await client.close()
})

describe('memory filters on Elasticsearch', () => {
  it('compares keyword fields, dates and numbers by their type', async () => {
    expect(await matching({ type: 'preference' })).toEqual(['m_big', 'm_cheap'])
    expect(await matching({ type: { ne: 'preference' } })).toEqual(['m_bare', 'm_mid', 'm_old'])
    expect(await matching({ type: { in: ['fact', 'emotion'] } })).toEqual(['m_bare', 'm_mid'])
    expect(await matching({ created_at: { gte: '2026-02-10', lt: '2026-04-01T08:00:00Z' } })).toEqual([
      'm_big',
      'm_mid',
    ])
    expect(await matching({ confidence: { lt: 0.5 } })).toEqual(['m_big'])
    expect(await matching({ valid_to: { exists: true } })).toEqual(['m_old'])
    expect(await matching({ document_type: 'ai-chat-conversation', user_id: 'u1' })).toEqual(['m_old'])
    expect(await matching({ user_id: { ne: 'u1' } })).toEqual(['m_bare'])
  })

  it('compares metadata numbers as numbers and date strings as instants, at any depth', async () => {
    // As keywords "9.5" > "120" > "42"; as numbers they are not.
    expect(await matching({ 'metadata.order.total': { gt: 10 } })).toEqual(['m_big', 'm_mid'])
    expect(await matching({ metadata: { order: { total: { gte: 9.5, lte: 42 } } } })).toEqual([
      'm_cheap',
      'm_mid',
    ])
    expect(await matching({ 'metadata.renewal': { lt: '2026-12-31' } })).toEqual(['m_big'])
    expect(await matching({ 'metadata.priority': 3 })).toEqual(['m_old'])
    expect(await matching({ 'metadata.priority': '3' })).toEqual(['m_old'])
    expect(await matching({ 'metadata.channel': { in: ['web', 'email'] } })).toEqual([
      'm_cheap',
      'm_mid',
      'm_old',
    ])
    expect(await matching({ 'metadata.channel': { ne: 'web' } })).toEqual(['m_bare', 'm_big', 'm_old'])
    expect(await matching({ 'metadata.priority': { exists: false } })).toEqual([
      'm_bare',
      'm_big',
      'm_cheap',
      'm_mid',
    ])
  })

  it('finds text inside metadata strings and lists, any case, wildcards taken literally', async () => {
    expect(await matching({ 'metadata.tags': { contains: 'vip' } })).toEqual(['m_cheap'])
    expect(await matching({ 'metadata.note': { icontains: 'WINDOW' } })).toEqual(['m_mid'])
    expect(await matching({ 'metadata.note': { contains: 'win*' } })).toEqual([])
    expect(await matching({ 'metadata.channel': 'web', 'metadata.tags': 'VIP' })).toEqual(['m_cheap'])
  })

  it('matches entity names whole in any case and spacing, or a phrase within them', async () => {
    expect(await matching({ entity_name: 'ACME corp' })).toEqual(['m_cheap', 'm_mid'])
    expect(await matching({ entity_name: { in: ['globex', 'initech'] } })).toEqual(['m_big', 'm_mid'])
    expect(await matching({ entity_name: 'Acme' })).toEqual([])
    expect(await matching({ entity_name: { contains: 'acme' } })).toEqual(['m_cheap', 'm_mid'])
    expect(await matching({ content: { contains: 'double espresso' } })).toEqual(['m_mid'])
  })

  it('combines with and, or and not, in our spelling and mem0s', async () => {
    expect(
      await matching({
        or: [
          { 'metadata.order.total': { gt: 100 } },
          { and: [{ type: 'fact' }, { entity_name: 'Initech' }] },
        ],
      }),
    ).toEqual(['m_big', 'm_mid'])
    expect(await matching({ not: { 'metadata.channel': 'web' }, type: { ne: 'emotion' } })).toEqual([
      'm_big',
      'm_old',
    ])
    expect(
      await matching({
        AND: [{ type: 'preference' }],
        NOT: [{ 'metadata.channel': 'mobile' }, { confidence: 0 }],
      }),
    ).toEqual(['m_cheap'])
    expect(await matching({ not: { type: 'preference', 'metadata.channel': 'web' } })).toEqual([
      'm_bare',
      'm_big',
      'm_mid',
      'm_old',
    ])
  })

  it('keeps the first version of filters meaning what it meant', async () => {
    expect(
      await matching({
        types: ['preference', 'fact'],
        created_after: '2026-02-01T00:00:00Z',
        metadata: { channel: 'web' },
      }),
    ).toEqual(['m_mid'])
  })
})
