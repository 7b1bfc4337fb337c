/**
 * The identifiers clients really have (`auth0|123`, `a+b@x.com`, `team/42`, non-Latin text, 200 characters of
 * emoji) as user, customer and conversation ids, through every path that keys, stores or looks them up: events on
 * Kafka, turns and summaries in Elasticsearch, memories and entities in Neo4j, path parameters, and erasure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryClient, InvalidInputError, type MemoryClient } from '@memory-service/client'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedErasure } from '../support/erasure.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
const suffix = uniqueName('ids').replace(/[^a-z0-9]/gi, '')

beforeAll(async () => {
  harness = await startGatewayWithInstance('external-ids', { withWorkers: true })
  client = createMemoryClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
})

afterAll(() => harness.close())

describe('external ids as clients have them', () => {
  it.each([
    ['a pipe and a slash', `auth0|${suffix}`, `team/42/${suffix}`],
    ['plus, at and a space', `a+b.${suffix}@x.com`, `support ticket #7 ${suffix}`],
    ['non-Latin text and percent signs', `用户-${suffix}`, `会话 100% ${suffix}`],
    [
      '200 characters of emoji',
      `${suffix}${'😀'.repeat(200 - suffix.length)}`,
      `${'🧵'.repeat(200 - suffix.length)}${suffix}`,
    ],
  ])('with %s: events, context, compaction, memories and erasure', async (_case, userId, conversationId) => {
    const sent = await client.events.send(
      ['I moved to Porto last spring.', 'My sister Clara lives in Lisbon.'].map((content, index) => ({
        event_id: `${suffix}-${String(index)}-${String(conversationId.length)}`,
        event_type: 'user_message' as const,
        conversation_id: conversationId,
        user_id: userId,
        role: 'user' as const,
        content,
      })),
    )
    expect(sent.results.map((result) => result.status)).toEqual(['accepted', 'accepted'])
    const context = await eventually(async () => {
      const reply = await client.conversations.context(conversationId, { user_id: userId })
      return reply.recent_turns.length === 2 ? reply : undefined
    })
    expect(context.conversation_id).toBe(conversationId)

    const compaction = await client.conversations.compact(conversationId, { user_id: userId, keep_recent: 0 })
    await eventually(async () => {
      const status = await client.memories.status(compaction.ingestion_id ?? '')
      return status.status === 'completed' || status.status === 'partial_success' ? true : undefined
    }, 60_000)
    const found = await eventually(async () => {
      const reply = await client.memories.search({ query: 'Where does the user live?', user_id: userId })
      return reply.results.length > 0 ? reply : undefined
    })
    expect(found.results.every((memory) => memory.scope.user_id === userId)).toBe(true)

    const customerId = `${Array.from(userId).slice(0, 100).join('')}/customer`
    const document = await client.memories.ingest({
      document: 'Clara works as a nurse in Lisbon.',
      document_type: 'note',
      mode: 'long-range',
      user_id: userId,
      customer_id: customerId,
    })
    await eventually(async () =>
      (await client.memories.status(document.ingestion_id)).status === 'completed' ? true : undefined,
    )
    // Lists are near real time (the index refreshes within a second).
    await eventually(async () => {
      const listed = await client.memories.list({ user_id: userId, customer_id: customerId })
      return listed.items.length > 0 ? true : undefined
    })

    const receipt = await completedErasure(client, userId)
    expect(receipt.user_id).toBe(userId)
    expect(receipt.removed.turns.elasticsearch).toBe(2)
    expect(receipt.removed.conversations.elasticsearch).toBe(1)
    await eventually(async () =>
      (await client.memories.list({ user_id: userId })).total === 0 ? true : undefined,
    )
  })

  it('refuses control characters and ids over 200 characters with INVALID_INPUT', async () => {
    for (const userId of ['tab\there', 'x'.repeat(201)]) {
      const refusal = await client.events
        .send([
          { event_type: 'user_message', conversation_id: 'c', user_id: userId, role: 'user', content: 'hi' },
        ])
        .then(
          (reply) => reply.results[0],
          (error: unknown) => error,
        )
      // A batch answers per event; a refused event carries the code.
      if (refusal instanceof InvalidInputError) expect(refusal.code).toBe('INVALID_INPUT')
      else expect(refusal).toMatchObject({ status: 'rejected', code: 'INVALID_EVENT' })
    }
  })
})
