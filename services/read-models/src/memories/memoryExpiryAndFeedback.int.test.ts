/**
 * Expiry and feedback as the memories index answers them, with the readers' clock injected: an expired memory
 * leaves lists, searches and the sweep's query at its instant (before any deletion is appended), and feedback
 * moves a memory in the ranking without touching the order of memories that hold none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import {
  createElasticsearchClient,
  createElasticsearchStore,
  loadEngineDeclarations,
  withVectorDimension,
} from '@memory-service/engines'
import { memoryDocumentOf, parseMemoryFilter, type MemoryDocument } from '@memory-service/domain'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createHashingEmbedder } from '../../../../test/support/hashingEmbedder.js'
import { createMemoryStore } from './memoryStore.js'
import { createMemorySearch } from './memorySearch.js'

const client = createElasticsearchClient(testConfig().elasticsearch)
const index = uniqueName('test-memory-expiry')
const declaration = loadEngineDeclarations().indices.find((entry) => entry.vectorField === 'embedding')
const instanceId = 'inst_expiry'
const dimension = 64
const embedder = createHashingEmbedder(dimension)
const memories = createElasticsearchStore<MemoryDocument>(client, index)

const expiresAt = '2026-12-01T10:00:00.000Z'
const justBefore = new Date(Date.parse(expiresAt) - 1)
const atExpiry = new Date(expiresAt)

type Feedback = NonNullable<MemoryChanged['memory']['feedback']>

async function stored(
  id: string,
  content: string,
  ordinal: number,
  extra: { expires_at?: string; feedback?: Feedback | null; version?: number } = {},
): Promise<void> {
  const [vector = []] = await embedder.embed([content])
  const created = '2026-11-01T10:00:00.000Z'
  const change: MemoryChanged = {
    type: 'memory_changed',
    change: 'created',
    event_id: `evt_${id}_${String(extra.version ?? 1)}`,
    memory_id: id,
    instance_id: instanceId,
    version: extra.version ?? 1,
    changed_at: created,
    memory: {
      id,
      instance_id: instanceId,
      type: 'fact',
      content,
      confidence: 0.8,
      entities: [],
      relations: [],
      scope: { user_id: 'sam', customer_id: null, client_id: 'client_a' },
      source: {
        ingestion_id: `ing_${String(ordinal).padStart(32, '0')}`,
        document_type: 'note',
        document_created_at: created,
      },
      metadata: {},
      created_at: created,
      updated_at: null,
      occurred_on: null,
      speaker: null,
      mode: 'fast',
      valid_from: created,
      ...(extra.expires_at ? { expires_at: extra.expires_at } : {}),
      ...(extra.feedback !== undefined ? { feedback: extra.feedback } : {}),
      embedding: { model: embedder.model, vector },
    },
  }
  await memories.upsert([{ id, version: change.version, document: memoryDocumentOf(change) }], {
    refresh: true,
  })
}

const listedAt = async (now: Date, filters?: unknown) => {
  const parsed = filters === undefined ? { filter: null } : parseMemoryFilter(filters)
  if ('fields' in parsed) throw new Error(JSON.stringify(parsed.fields))
  const { items } = await createMemoryStore(client, index, { now: () => now }).list(instanceId, {
    page: 1,
    page_size: 100,
    filter: parsed.filter,
  })
  return items.map((item) => item.id).sort()
}

const searchedAt = async (now: Date, query: string, mode: 'fast' | 'accurate') => {
  const search = createMemorySearch({ elasticsearch: client, embedder, index, now: () => now })
  const { hits } = await search.search(instanceId, { query, user_id: 'sam', limit: 5, mode })
  return hits.map(({ memory }) => memory.id)
}

beforeAll(async () => {
  if (!declaration) throw new Error('the memories index is not declared')
  await memories.ensureIndex(withVectorDimension(declaration, dimension), declaration.settings)
  await stored('mem_trial', 'Sam is on the Pro plan trial until Friday', 1, { expires_at: expiresAt })
  await stored('mem_plan', 'Sam pays for the Team plan every month', 2)
  await stored('mem_blue', 'Sam buys coffee at Blue Bottle on Fridays', 3)
  await stored('mem_ritual', 'Sam buys coffee at Ritual on Fridays', 4)
})

afterAll(async () => {
  await client.indices.delete({ index }, { ignore: [404] })
  await client.close()
})

describe('expiry on Elasticsearch', () => {
  it('lists a memory until its expiry and not from that instant on', async () => {
    expect(await listedAt(justBefore)).toContain('mem_trial')
    expect(await listedAt(atExpiry)).not.toContain('mem_trial')
    expect(await listedAt(atExpiry)).toEqual(['mem_blue', 'mem_plan', 'mem_ritual'])
  })

  it('leaves it out of both search modes from that instant on', async () => {
    for (const mode of ['fast', 'accurate'] as const) {
      expect(await searchedAt(justBefore, 'Which plan trial is Sam on?', mode)).toContain('mem_trial')
      expect(await searchedAt(atExpiry, 'Which plan trial is Sam on?', mode)).not.toContain('mem_trial')
    }
  })

  it('is what the sweep finds due, and expires_at filters like any date', async () => {
    const store = createMemoryStore(client, index)
    expect(await store.expiredBy(justBefore, 10)).toEqual([])
    expect(await store.expiredBy(atExpiry, 10)).toEqual([
      { id: 'mem_trial', instance_id: instanceId, expires_at: expiresAt },
    ])
    expect(await listedAt(justBefore, { expires_at: { exists: true } })).toEqual(['mem_trial'])
    expect(await listedAt(justBefore, { expires_at: { gt: '2026-12-01' } })).toEqual(['mem_trial'])
  })
})

describe('feedback on Elasticsearch', () => {
  const question = 'Where does Sam buy coffee at Blue Bottle?'
  const rated = (rating: Feedback['rating'] | null, version: number) =>
    stored('mem_blue', 'Sam buys coffee at Blue Bottle on Fridays', 3, {
      version,
      feedback: rating === null ? null : { rating, reason: null, given_at: '2026-11-30T09:00:00.000Z' },
    })

  it('ranks a memory rated down below one that is not, and back when the feedback is withdrawn', async () => {
    const now = new Date()
    for (const mode of ['fast', 'accurate'] as const) {
      const unrated = await searchedAt(now, question, mode)
      expect(unrated.indexOf('mem_blue')).toBeLessThan(unrated.indexOf('mem_ritual'))
    }
    await rated('negative', 2)
    for (const mode of ['fast', 'accurate'] as const) {
      const ranked = await searchedAt(now, question, mode)
      expect(ranked.indexOf('mem_ritual')).toBeLessThan(ranked.indexOf('mem_blue'))
      expect(ranked).toContain('mem_blue')
    }
    expect(await listedAt(now, { feedback: 'negative' })).toEqual(['mem_blue'])
    expect(await listedAt(now, { feedback: { exists: false } })).toEqual(['mem_plan', 'mem_ritual'])
    await rated(null, 3)
    for (const mode of ['fast', 'accurate'] as const) {
      const withdrawn = await searchedAt(now, question, mode)
      expect(withdrawn.indexOf('mem_blue')).toBeLessThan(withdrawn.indexOf('mem_ritual'))
    }
  })
})
