/**
 * The vector projection on a real index that never refreshes on its own: a batch formed by the interactive lane is
 * searchable when the projection returns, a bulk batch only after the index's next refresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import {
  createElasticsearchClient,
  createElasticsearchStore,
  loadEngineDeclarations,
  withVectorDimension,
  type ElasticsearchStore,
} from '@memory-service/engines'
import { MEMORY_LANE_HEADER, type MemoryDocument } from '@memory-service/domain'
import type { ConsumedEvent } from '@memory-service/log'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createVectorProjection } from './vectorProjection.js'

const client = createElasticsearchClient(testConfig().elasticsearch)
const index = uniqueName('test-vector-projection')
const declaration = loadEngineDeclarations().indices.find((entry) => entry.vectorField === 'embedding')
const instanceId = 'inst_0123456789abcdef'
let store: ElasticsearchStore<MemoryDocument>

function created(memoryId: string, headers: Record<string, string>): ConsumedEvent<MemoryChanged> {
  const at = '2026-12-07T10:00:00.000Z'
  return {
    topic: 'mem.memories.v1',
    partition: 0,
    offset: '0',
    key: memoryId,
    headers,
    correlationId: undefined,
    raw: { key: null, value: Buffer.alloc(0), headers: {} },
    payload: {
      type: 'memory_changed',
      change: 'created',
      event_id: `evt_${memoryId}`,
      memory_id: memoryId,
      instance_id: instanceId,
      version: 1,
      changed_at: at,
      memory: {
        id: memoryId,
        instance_id: instanceId,
        type: 'fact',
        content: `Memory ${memoryId}`,
        confidence: 0.8,
        entities: [],
        relations: [],
        scope: { user_id: 'u1', customer_id: null, client_id: 'client_a' },
        source: { ingestion_id: 'ing_1', document_type: 'text', document_created_at: at },
        metadata: {},
        created_at: at,
        updated_at: at,
        occurred_on: null,
        speaker: null,
        mode: 'fast',
        embedding: { model: 'test-model', vector: [1, 0, 0, 0] },
      },
    },
  }
}

const searchable = async (memoryId: string) =>
  (await client.count({ index, query: { term: { id: memoryId } } })).count === 1

beforeAll(async () => {
  if (!declaration) throw new Error('the memories index is not declared')
  store = createElasticsearchStore<MemoryDocument>(client, index)
  await store.ensureIndex(withVectorDimension(declaration, 4), { ...declaration.settings, refresh_interval: '-1' })
})
afterAll(async () => {
  await client.indices.delete({ index }, { ignore: [404] })
  await client.close()
})

describe('the vector projection', () => {
  it('makes memories of the interactive lane searchable at once, and leaves bulk ones to the next refresh', async () => {
    const project = createVectorProjection(store)
    await project([created('mem_b1', {})])
    expect(await searchable('mem_b1')).toBe(false)
    await project([created('mem_a1', { [MEMORY_LANE_HEADER]: 'interactive' }), created('mem_b2', {})])
    // One refresh for the batch: whatever it holds is searchable, the bulk memory written before it too.
    expect(await searchable('mem_a1')).toBe(true)
    expect(await searchable('mem_b1')).toBe(true)
  })
})
