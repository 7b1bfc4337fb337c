/**
 * Conversations on the real stack: turns persisted per conversation (from transcripts and event batches), the
 * transcript's immutability, context fetch within a budget and its 404s, compaction (summary, extraction of the
 * compacted turns, the 409 while one runs) and the usage both record.
 */
import { CONVERSATIONS_INDEX, IDEMPOTENCY_INDEX } from '@memory-service/domain'
import type { Client } from '@elastic/elasticsearch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import { createClaimStore, type ClaimStore } from '@memory-service/commands'
import { createElasticsearchClient } from '@memory-service/engines'
import {
  type ConversationContextQuery,
  type ConversationEvent,
  type CreatedInstance,
  type ErrorBody,
  type TranscriptRequest,
} from '@memory-service/contracts'
import { createTestClient, refusal, request, type Exchange } from '../support/http.js'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let other: CreatedInstance
let client: MemoryClient
let otherClient: MemoryClient
let elasticsearch: Client
let claims: ClaimStore
/** Every response the clients of this file received, for the statuses the library does not return. */
const exchanges: Exchange[] = []
const lastStatus = () => exchanges.at(-1)?.status
/** Context fetches answered 200 for this instance, counted here for the analytics comparison. */
let contextFetches = 0
/** Every compaction's quality, as its answer (or the context after an automatic one) reported it. */
const compactionQuality: { ratio: number; score: number }[] = []
const noteQuality = (quality: { compression_ratio: number | null; validation_score: number | null }) =>
  compactionQuality.push({
    ratio: quality.compression_ratio ?? Number.NaN,
    score: quality.validation_score ?? Number.NaN,
  })

async function context(conversationId: string, query: ConversationContextQuery, api = client) {
  const fetched = await api.conversations.context(conversationId, query)
  if (api === client) contextFetches += 1
  return fetched
}

const user = uniqueName('conv-user')
const transcriptId = uniqueName('conv-transcript')
const messages: TranscriptRequest['messages'] = [
  { role: 'user', content: 'Hi! I need help planning a trip.' },
  { role: 'assistant', content: 'Happy to help. Where would you like to go?' },
  { role: 'user', content: 'My sister Clara lives in Lisbon and works as a nurse at Santa Maria hospital.' },
  { role: 'assistant', content: 'Lisbon is lovely in spring. Will you stay with Clara?' },
  { role: 'user', content: 'Yes, and I want to bring my beagle Rocket along on the flight.' },
  { role: 'assistant', content: 'Most airlines accept small dogs in the cabin with a carrier.' },
  { role: 'user', content: 'I am allergic to penicillin, so I will pack my own travel medicine kit.' },
  { role: 'assistant', content: 'Good idea. Keep it in your carry-on bag.' },
  { role: 'user', content: 'I prefer window seats and vegetarian meals on long flights.' },
  { role: 'assistant', content: 'Noted: a window seat and a vegetarian meal.' },
  { role: 'user', content: 'What time does the earliest flight leave?' },
  { role: 'assistant', content: 'The earliest one leaves at 6:40 in the morning.' },
]

beforeAll(async () => {
  harness = await startGatewayWithInstance('conversations', { withWorkers: true })
  instance = harness.instance
  other = await harness.createInstance('conversations-other')
  const baseUrl = harness.gateway.addresses.http ?? ''
  client = createTestClient({ baseUrl, apiKey: instance.api_key.key, exchanges })
  otherClient = createTestClient({ baseUrl, apiKey: other.api_key.key, exchanges })
  elasticsearch = createElasticsearchClient(harness.config.elasticsearch)
  claims = createClaimStore(elasticsearch, { index: IDEMPOTENCY_INDEX, owner: 'conversations-e2e' })
})

afterAll(async () => {
  await elasticsearch.close()
  await harness.close()
})

describe('transcripts', () => {
  it('are accepted once, and the identical transcript again is a duplicate', async () => {
    const first = await client.conversations.ingestTranscript(transcriptId, { user_id: user, messages })
    expect(lastStatus()).toBe(201)
    expect(first).toEqual({ conversation_id: transcriptId, status: 'accepted', messages: 12 })
    const again = await client.conversations.ingestTranscript(transcriptId, { user_id: user, messages })
    expect(lastStatus()).toBe(200)
    expect(again).toEqual({ conversation_id: transcriptId, status: 'duplicate', messages: 12 })
  })

  it('are immutable: a different transcript for the conversation → 409 TRANSCRIPT_CONFLICT', async () => {
    const changed = messages.map((message, index) =>
      index === 2 ? { ...message, content: 'Something else.' } : message,
    ) as TranscriptRequest['messages']
    expect(
      await refusal(
        client.conversations.ingestTranscript(transcriptId, { user_id: user, messages: changed }),
      ),
    ).toEqual({
      status: 409,
      code: 'TRANSCRIPT_CONFLICT',
      details: {
        code: 'transcript_conflict',
        message: expect.any(String),
        conversation_id: transcriptId,
      },
    })
  })

  it('are persisted turn by turn, in order, once', async () => {
    const fetched = await eventually(async () => {
      const reply = await context(transcriptId, { user_id: user })
      return reply.recent_turns.length === 12 ? reply : undefined
    })
    expect(fetched).toMatchObject({
      conversation_id: transcriptId,
      summary: null,
      token_budget: 4096,
      omitted_turns: 0,
      recent_turns: messages.map((message) => ({ role: message.role, content: message.content })),
    })
  })

  it('refuse invalid bodies with INVALID_INPUT', async () => {
    // A role the typed client cannot send.
    const reply = await request<ErrorBody>(
      harness.gateway.addresses.http ?? '',
      'POST',
      `/v1/conversations/${uniqueName('conv')}/transcript`,
      {
        apiKey: instance.api_key.key,
        json: { user_id: user, messages: [{ role: 'narrator', content: 'x' }] },
      },
    )
    expect(reply.status).toBe(400)
    expect(reply.body?.code).toBe('INVALID_INPUT')
  })
})

describe('context fetch', () => {
  it('a new conversation with no messages is an empty context', async () => {
    const fresh = uniqueName('conv-fresh')
    const fetched = await context(fresh, { user_id: user })
    expect(lastStatus()).toBe(200)
    expect(fetched).toEqual({
      conversation_id: fresh,
      summary: null,
      recent_turns: [],
      memories: [],
      token_budget: 4096,
      tokens_used: 0,
      omitted_turns: 0,
      took_ms: expect.any(Number),
    })
  })

  it('a malformed id, another instance’s or another user’s conversation → 404 CONVERSATION_NOT_FOUND', async () => {
    const cases: [string, ConversationContextQuery, MemoryClient][] = [
      // Any text of 1–200 characters is an id; one with a control character cannot be one.
      ['bad\u0001id', { user_id: user }, client],
      [transcriptId, { user_id: user }, otherClient],
      [transcriptId, { user_id: uniqueName('someone-else') }, client],
    ]
    for (const [conversationId, query, api] of cases) {
      expect(await refusal(context(conversationId, query, api)), conversationId).toEqual({
        status: 404,
        code: 'CONVERSATION_NOT_FOUND',
        details: { conversation_id: conversationId },
      })
    }
  })

  it('fits the budget: the newest turns that fit, the rest omitted and then compacted automatically', async () => {
    const conversationId = uniqueName('conv-budget')
    await client.conversations.ingestTranscript(conversationId, { user_id: user, messages })
    const fetched = await eventually(async () => {
      const reply = await context(conversationId, { user_id: user, max_tokens: 64 })
      return reply.omitted_turns + reply.recent_turns.length === 12 ? reply : undefined
    })
    const turns = fetched.recent_turns
    expect(fetched.tokens_used).toBeLessThanOrEqual(64)
    expect(turns.length).toBeGreaterThan(0)
    expect(turns.length).toBeLessThan(12)
    expect(turns.at(-1)?.content).toBe(messages.at(-1)?.content)
    // The fetch found the conversation over its budget and compacted it, keeping the turns that fitted.
    const compacted = await eventually(async () => {
      const reply = await context(conversationId, { user_id: user })
      return reply.summary ? reply : undefined
    })
    expect(compacted.summary).toMatchObject({ compacted_turns: 12 - turns.length })
    if (compacted.summary) noteQuality(compacted.summary)
    expect(compacted.recent_turns).toEqual(
      messages.slice(12 - turns.length).map((message) => ({ ...message, occurred_at: expect.any(String) })),
    )
  })

  it('takes a max_tokens budget from 64 to 32 768 and refuses one outside it with INVALID_INPUT', async () => {
    const conversationId = uniqueName('conv-budget-range')
    await client.conversations.ingestTranscript(conversationId, { user_id: user, messages })
    const widest = await eventually(async () => {
      const reply = await context(conversationId, { user_id: user, max_tokens: 32_768 })
      return reply.recent_turns.length === 12 ? reply : undefined
    })
    expect(widest.token_budget).toBe(32_768)
    for (const max_tokens of [63, 32_769]) {
      const refused = await refusal(
        client.conversations.context(conversationId, { user_id: user, max_tokens }),
      )
      expect(refused).toMatchObject({ status: 400, code: 'INVALID_INPUT' })
      expect(Object.keys((refused.details as { fields: Record<string, string> }).fields)).toEqual([
        'max_tokens',
      ])
    }
  })

  it('turns sent as events are persisted in order, a repeated event once', async () => {
    const conversationId = uniqueName('conv-events')
    const event = (index: number): ConversationEvent => ({
      event_id: `${conversationId}-${String(index)}`,
      event_type: index % 2 === 0 ? 'user_message' : 'assistant_message',
      conversation_id: conversationId,
      user_id: user,
      content: `turn number ${String(index)}`,
    })
    const sent = await client.events.send([0, 1, 2, 3].map(event))
    expect(sent).toMatchObject({ accepted: 4 })
    await client.events.send([event(2), event(4)])
    const fetched = await eventually(async () => {
      const reply = await context(conversationId, { user_id: user })
      return reply.recent_turns.length === 5 ? reply : undefined
    })
    expect(fetched.recent_turns.map((turn) => turn.content)).toEqual(
      [0, 1, 2, 3, 4].map((index) => `turn number ${String(index)}`),
    )
  })
})

describe('compaction', () => {
  it('summarizes the older turns, keeps the recent ones, and hands the compacted ones to extraction', async () => {
    const compacted = await client.conversations.compact(transcriptId, { user_id: user, keep_recent: 4 })
    expect(lastStatus()).toBe(200)
    expect(compacted).toMatchObject({
      conversation_id: transcriptId,
      status: 'compacted',
      compaction_id: expect.stringMatching(/^cmp_[0-9a-f]{32}$/),
      compacted_turns: 8,
      method: 'extractive',
      ingestion_id: expect.stringMatching(/^ing_/),
    })
    noteQuality(compacted)
    const summary = String(compacted.summary)
    for (const fact of ['Clara', 'Lisbon', 'Rocket', 'penicillin']) expect(summary).toContain(fact)
    expect(compacted.compression_ratio).toBeGreaterThan(1)
    expect(compacted.validation_score).toBeGreaterThan(0.5)
    expect(compacted.validation_score).toBeLessThanOrEqual(1)

    const fetched = await context(transcriptId, { user_id: user, query: 'who is Clara' })
    expect(fetched.summary).toMatchObject({
      text: summary,
      compacted_turns: 8,
      compression_ratio: compacted.compression_ratio,
      validation_score: compacted.validation_score,
    })
    expect(fetched.recent_turns.map((turn) => turn.content)).toEqual(
      messages.slice(8).map((message) => message.content),
    )

    // Extraction happens after compaction: the compacted turns became memories of the user.
    const job = await completedJob(client, String(compacted.ingestion_id))
    expect(job.memory_ids?.length).toBeGreaterThan(0)
    const withMemories = await eventually(async () => {
      const found = await context(transcriptId, { user_id: user, query: 'where does Clara work' })
      return found.memories.length > 0 ? found : undefined
    })
    expect(JSON.stringify(withMemories.memories)).toContain('Clara')
  })

  it('a conversation that outgrows its budget is compacted by the writer, with no fetch at all', async () => {
    const conversationId = uniqueName('conv-grown')
    // 40 turns of 200 tokens each: 8 000 tokens, over the default budget of 4 096.
    const events = Array.from({ length: 40 }, (_, index): ConversationEvent => ({
      event_id: `${conversationId}-${String(index)}`,
      event_type: index % 2 === 0 ? 'user_message' : 'assistant_message',
      conversation_id: conversationId,
      user_id: user,
      content:
        `Turn ${String(index)}: my cousin number ${String(index)} visited Porto and Lisbon last spring. `
          .repeat(12)
          .slice(0, 800),
    }))
    expect(await client.events.send(events)).toMatchObject({ accepted: 40 })
    const stored = await eventually(async () => {
      const response = await elasticsearch.get<{
        compacted_turns: number
        summary: string
        compression_ratio: number
        validation_score: number
      }>(
        { index: CONVERSATIONS_INDEX, id: `${instance.instance.instance_id}:${conversationId}` },
        { ignore: [404] },
      )
      return response.found ? response._source : undefined
    }, 60_000)
    // The newest turns that fit the turns' share of the budget (35 %: 7 of these) stay uncompacted.
    expect(stored.compacted_turns).toBeGreaterThanOrEqual(25)
    expect(stored.compacted_turns).toBeLessThan(40)
    expect(stored.summary).toMatch(/Porto/)
    noteQuality(stored)
  })

  it('with nothing older than the kept turns, there is nothing to compact', async () => {
    const compacted = await client.conversations.compact(transcriptId, { user_id: user, keep_recent: 4 })
    expect(lastStatus()).toBe(200)
    expect(compacted).toMatchObject({
      status: 'nothing_to_compact',
      compacted_turns: 0,
      compaction_id: null,
    })
  })

  it('while a compaction of the conversation runs, another → 409 COMPACTION_IN_PROGRESS', async () => {
    // Another gateway holding the conversation's compaction lock, as a running compaction does.
    const [held] = await claims.claim([
      {
        instance_id: instance.instance.instance_id,
        kind: 'compaction',
        client_id: transcriptId,
        record_id: 'cmp_00000000000000000000000000000001',
      },
    ])
    expect(held?.outcome).toBe('claimed')
    expect(
      await refusal(client.conversations.compact(transcriptId, { user_id: user, keep_recent: 0 })),
    ).toEqual({
      status: 409,
      code: 'COMPACTION_IN_PROGRESS',
      details: {
        conversation_id: transcriptId,
        compaction_id: 'cmp_00000000000000000000000000000001',
        started_at: held?.claim.claimed_at,
      },
    })
    if (held) await claims.release([held.claim])
    const after = await client.conversations.compact(transcriptId, { user_id: user, keep_recent: 0 })
    expect(after).toMatchObject({ status: 'compacted', compacted_turns: 4 })
    noteQuality(after)
  })

  it('another user or instance cannot compact the conversation', async () => {
    expect(await refusal(otherClient.conversations.compact(transcriptId, { user_id: user }))).toMatchObject({
      status: 404,
      code: 'CONVERSATION_NOT_FOUND',
      details: { conversation_id: transcriptId },
    })
  })
})

describe('usage', () => {
  it('every context fetch and compaction is a usage event with its latency', async () => {
    const summary = await eventually(async () => {
      const reply = await client.analytics.summary({ instance_id: instance.instance.instance_id })
      // Two compactions asked for, two automatic (one after a fetch, one by the writer).
      return reply.context_fetches.total === contextFetches && reply.compactions.total === 4
        ? reply
        : undefined
    }, 60_000)
    expect(summary.context_fetches).toMatchObject({ total: contextFetches })
    expect(summary.context_fetches.avg_latency_ms).toBeGreaterThan(0)
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
    expect(summary.compactions).toEqual({
      total: 4,
      avg_compression_ratio: expect.closeTo(mean(compactionQuality.map((quality) => quality.ratio)), 2),
      avg_validation_score: expect.closeTo(mean(compactionQuality.map((quality) => quality.score)), 3),
    })
  })
})
