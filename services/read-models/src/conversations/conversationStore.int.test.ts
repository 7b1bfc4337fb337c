import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createElasticsearchClient,
  createElasticsearchStore,
  loadEngineDeclarations,
} from '@memory-service/engines'
import {
  CONVERSATION_TURNS_INDEX,
  CONVERSATIONS_INDEX,
  ERASURES_INDEX,
  storeIdOf,
} from '@memory-service/domain'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createConversationStore } from './conversationStore.js'

const client = createElasticsearchClient(testConfig().elasticsearch)
beforeAll(async () => {
  // The store works on the declared indices; a stack nothing was started on yet has not provisioned them.
  for (const name of [CONVERSATION_TURNS_INDEX, CONVERSATIONS_INDEX, ERASURES_INDEX]) {
    const declaration = loadEngineDeclarations().indices.find((entry) => entry.name === name)
    if (!declaration) throw new Error(`${name} is not declared`)
    await createElasticsearchStore(client, name).ensureIndex(declaration.mappings, declaration.settings)
  }
})
afterAll(() => client.close())

async function seedTurns(instanceId: string, userId: string, conversations: number): Promise<void> {
  const operations = Array.from({ length: conversations }, (_, n) => [
    { index: { _index: CONVERSATION_TURNS_INDEX, _id: `${instanceId}-turn-${String(n)}` } },
    {
      event_id: `evt-${String(n)}`,
      instance_id: instanceId,
      conversation_id: `conv-${String(n).padStart(5, '0')}`,
      user_id: userId,
      customer_id: null,
      event_type: 'user_message',
      role: 'user',
      content: 'hello',
      occurred_at: '2026-11-23T10:00:00Z',
      received_at: '2026-11-23T10:00:00Z',
      position: 1,
    },
  ]).flat()
  const response = await client.bulk({ operations, refresh: true })
  expect(response.errors).toBe(false)
}

describe('erasing a user from the conversation store', () => {
  it('remembers every conversation of the user, past the 10 000 a terms aggregation returns', async () => {
    const instanceId = uniqueName('inst_erase')
    await seedTurns(instanceId, 'user-many', 10_050)
    const removed = await createConversationStore(client).eraseUser({
      type: 'user_data_erased',
      event_id: 'evt_erase',
      instance_id: instanceId,
      user_id: 'user-many',
      erased_at: '2026-11-23T11:00:00Z',
    })
    expect(removed.turns).toBe(10_050)
    const erasure = await client.get<{ conversation_ids: string[] }>({
      index: ERASURES_INDEX,
      id: storeIdOf(instanceId, 'user-many'),
    })
    expect(new Set(erasure._source?.conversation_ids).size).toBe(10_050)
  })

  it('stops on deletions Elasticsearch refuses instead of looping on them', async () => {
    const instanceId = uniqueName('inst_erase_fault')
    await seedTurns(instanceId, 'user-fault', 3)
    let bulks = 0
    // Fault injection: every deletion comes back refused, as under a read-only index block.
    const refusing = new Proxy(client, {
      get(target, property, receiver) {
        if (property !== 'bulk') return Reflect.get(target, property, receiver) as unknown
        return async () => {
          bulks += 1
          return {
            errors: true,
            items: [
              { delete: { status: 403, error: { type: 'cluster_block_exception', reason: 'read-only' } } },
            ],
          }
        }
      },
    })
    await expect(
      createConversationStore(refusing).eraseUser({
        type: 'user_data_erased',
        event_id: 'evt_erase',
        instance_id: instanceId,
        user_id: 'user-fault',
        erased_at: '2026-11-23T11:00:00Z',
      }),
    ).rejects.toThrow(/deletions from .* failed: cluster_block_exception/)
    expect(bulks).toBe(1)
  })
})
