/**
 * Conversations on the real stack: turns persisted per conversation (from transcripts and event batches), the
 * transcript's immutability, context fetch within a budget and its 404s, compaction (summary, extraction of the
 * compacted turns, the 409 while one runs) and the usage both record.
 */
import type { Client } from '@elastic/elasticsearch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClaimStore, IDEMPOTENCY_INDEX, type ClaimStore } from '@memory-service/commands'
import { createElasticsearchClient } from '@memory-service/engines'
import { type CreatedInstance } from '@memory-service/contracts'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let other: CreatedInstance
let elasticsearch: Client
let claims: ClaimStore
/** Context fetches answered 200 for this instance, counted here for the analytics comparison. */
let contextFetches = 0
/** Every compaction's quality, as its answer (or the context after an automatic one) reported it. */
const compactionQuality: { ratio: number; score: number }[] = []
const noteQuality = (body: Record<string, unknown>) =>
  compactionQuality.push({ ratio: body.compression_ratio as number, score: body.validation_score as number })

interface Reply {
  status: number
  text: string
  body: Record<string, unknown>
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  key = instance.api_key.key,
): Promise<Reply> {
  const response = await fetch(`${harness.gateway.addresses.http ?? ''}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
}

async function context(conversationId: string, params: Record<string, string>, key = instance.api_key.key) {
  const reply = await call(
    'GET',
    `/v1/conversations/${encodeURIComponent(conversationId)}/context?${new URLSearchParams(params).toString()}`,
    undefined,
    key,
  )
  if (reply.status === 200 && key === instance.api_key.key) contextFetches += 1
  return reply
}

const user = uniqueName('conv-user')
const transcriptId = uniqueName('conv-transcript')
const messages = [
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
  await harness.untilUsable(other.api_key.key)
  elasticsearch = createElasticsearchClient(harness.config.elasticsearch)
  claims = createClaimStore(elasticsearch, { index: IDEMPOTENCY_INDEX, owner: 'conversations-e2e' })
})

afterAll(async () => {
  await elasticsearch.close()
  await harness.close()
})

describe('transcripts', () => {
  it('are accepted once, and the identical transcript again is a duplicate', async () => {
    const first = await call('POST', `/v1/conversations/${transcriptId}/transcript`, {
      user_id: user,
      messages,
    })
    expect(first.status, first.text).toBe(201)
    expect(first.body).toEqual({ conversation_id: transcriptId, status: 'accepted', messages: 12 })
    const again = await call('POST', `/v1/conversations/${transcriptId}/transcript`, {
      user_id: user,
      messages,
    })
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ conversation_id: transcriptId, status: 'duplicate', messages: 12 })
  })

  it('are immutable: a different transcript for the conversation → 409 TRANSCRIPT_CONFLICT', async () => {
    const changed = messages.map((message, index) =>
      index === 2 ? { ...message, content: 'Something else.' } : message,
    )
    const reply = await call('POST', `/v1/conversations/${transcriptId}/transcript`, {
      user_id: user,
      messages: changed,
    })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual({
      error: 'A different transcript was already ingested for this conversation; a transcript is immutable',
      code: 'TRANSCRIPT_CONFLICT',
      details: {
        code: 'transcript_conflict',
        message: 'conversation_id was ingested with a different transcript',
        conversation_id: transcriptId,
      },
    })
  })

  it('are persisted turn by turn, in order, once', async () => {
    const reply = await eventually(async () => {
      const fetched = await context(transcriptId, { user_id: user })
      return (fetched.body.recent_turns as unknown[] | undefined)?.length === 12 ? fetched : undefined
    })
    expect(reply.body).toMatchObject({
      conversation_id: transcriptId,
      summary: null,
      token_budget: 4096,
      omitted_turns: 0,
      recent_turns: messages.map((message) => ({ role: message.role, content: message.content })),
    })
  })

  it('refuse invalid bodies with INVALID_INPUT', async () => {
    const reply = await call('POST', `/v1/conversations/${uniqueName('conv')}/transcript`, {
      user_id: user,
      messages: [{ role: 'narrator', content: 'x' }],
    })
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('INVALID_INPUT')
  })
})

describe('context fetch', () => {
  it('a new conversation with no messages is an empty context', async () => {
    const fresh = uniqueName('conv-fresh')
    const reply = await context(fresh, { user_id: user })
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body).toEqual({
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
    const cases: [string, Record<string, string>, string][] = [
      ['not a valid id!', { user_id: user }, instance.api_key.key],
      [transcriptId, { user_id: user }, other.api_key.key],
      [transcriptId, { user_id: uniqueName('someone-else') }, instance.api_key.key],
    ]
    for (const [conversationId, params, key] of cases) {
      const reply = await context(conversationId, params, key)
      expect(reply.status, conversationId).toBe(404)
      expect(reply.body).toEqual({
        error: 'Conversation not found',
        code: 'CONVERSATION_NOT_FOUND',
        details: { conversation_id: conversationId },
      })
    }
  })

  it('fits the budget: the newest turns that fit, the rest omitted and then compacted automatically', async () => {
    const conversationId = uniqueName('conv-budget')
    await call('POST', `/v1/conversations/${conversationId}/transcript`, { user_id: user, messages })
    const reply = await eventually(async () => {
      const fetched = await context(conversationId, { user_id: user, max_tokens: '64' })
      return (fetched.body.omitted_turns as number) + (fetched.body.recent_turns as unknown[]).length === 12
        ? fetched
        : undefined
    })
    const turns = reply.body.recent_turns as { content: string }[]
    expect(reply.body.tokens_used as number).toBeLessThanOrEqual(64)
    expect(turns.length).toBeGreaterThan(0)
    expect(turns.length).toBeLessThan(12)
    expect(turns.at(-1)?.content).toBe(messages.at(-1)?.content)
    // The fetch found the conversation over its budget and compacted it, keeping the turns that fitted.
    const compacted = await eventually(async () => {
      const fetched = await context(conversationId, { user_id: user })
      return fetched.body.summary ? fetched : undefined
    })
    expect(compacted.body.summary).toMatchObject({ compacted_turns: 12 - turns.length })
    noteQuality(compacted.body.summary as Record<string, unknown>)
    expect(compacted.body.recent_turns).toEqual(
      messages.slice(12 - turns.length).map((message) => ({ ...message, occurred_at: expect.any(String) })),
    )
  })

  it('turns sent as events are persisted in order, a repeated event once', async () => {
    const conversationId = uniqueName('conv-events')
    const event = (index: number) => ({
      event_id: `${conversationId}-${String(index)}`,
      event_type: index % 2 === 0 ? 'user_message' : 'assistant_message',
      conversation_id: conversationId,
      user_id: user,
      content: `turn number ${String(index)}`,
    })
    const sent = await call('POST', '/v1/events/batch', { events: [0, 1, 2, 3].map(event) })
    expect(sent.body).toMatchObject({ accepted: 4 })
    await call('POST', '/v1/events/batch', { events: [event(2), event(4)] })
    const reply = await eventually(async () => {
      const fetched = await context(conversationId, { user_id: user })
      return (fetched.body.recent_turns as unknown[]).length === 5 ? fetched : undefined
    })
    expect((reply.body.recent_turns as { content: string }[]).map((turn) => turn.content)).toEqual(
      [0, 1, 2, 3, 4].map((index) => `turn number ${String(index)}`),
    )
  })
})

describe('compaction', () => {
  it('summarizes the older turns, keeps the recent ones, and hands the compacted ones to extraction', async () => {
    const reply = await call('POST', `/v1/conversations/${transcriptId}/compact`, {
      user_id: user,
      keep_recent: 4,
    })
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body).toMatchObject({
      conversation_id: transcriptId,
      status: 'compacted',
      compaction_id: expect.stringMatching(/^cmp_[0-9a-f]{32}$/),
      compacted_turns: 8,
      method: 'extractive',
      ingestion_id: expect.stringMatching(/^ing_/),
    })
    noteQuality(reply.body)
    const summary = String(reply.body.summary)
    for (const fact of ['Clara', 'Lisbon', 'Rocket', 'penicillin']) expect(summary).toContain(fact)
    expect(reply.body.compression_ratio as number).toBeGreaterThan(1)
    expect(reply.body.validation_score as number).toBeGreaterThan(0.5)
    expect(reply.body.validation_score as number).toBeLessThanOrEqual(1)

    const fetched = await context(transcriptId, { user_id: user, query: 'who is Clara' })
    expect(fetched.body.summary).toMatchObject({
      text: summary,
      compacted_turns: 8,
      compression_ratio: reply.body.compression_ratio,
      validation_score: reply.body.validation_score,
    })
    expect((fetched.body.recent_turns as { content: string }[]).map((turn) => turn.content)).toEqual(
      messages.slice(8).map((message) => message.content),
    )

    // Extraction happens after compaction: the compacted turns became memories of the user.
    const job = await eventually(async () => {
      const status = await call('GET', `/v1/memories/${String(reply.body.ingestion_id)}/status`)
      return status.body.status === 'completed' ? status.body : undefined
    }, 60_000)
    expect((job.memory_ids as string[]).length).toBeGreaterThan(0)
    const withMemories = await eventually(async () => {
      const found = await context(transcriptId, { user_id: user, query: 'where does Clara work' })
      return (found.body.memories as unknown[]).length > 0 ? found : undefined
    })
    expect(JSON.stringify(withMemories.body.memories)).toContain('Clara')
  })

  it('a conversation that outgrows its budget is compacted by the writer, with no fetch at all', async () => {
    const conversationId = uniqueName('conv-grown')
    // 40 turns of 200 tokens each: 8 000 tokens, over the default budget of 4 096.
    const events = Array.from({ length: 40 }, (_, index) => ({
      event_id: `${conversationId}-${String(index)}`,
      event_type: index % 2 === 0 ? 'user_message' : 'assistant_message',
      conversation_id: conversationId,
      user_id: user,
      content:
        `Turn ${String(index)}: my cousin number ${String(index)} visited Porto and Lisbon last spring. `
          .repeat(12)
          .slice(0, 800),
    }))
    expect((await call('POST', '/v1/events/batch', { events })).body).toMatchObject({ accepted: 40 })
    const stored = await eventually(async () => {
      const response = await elasticsearch.get<{
        compacted_turns: number
        summary: string
        compression_ratio: number
        validation_score: number
      }>(
        { index: 'mem-conversations-v1', id: `${instance.instance.instance_id}:${conversationId}` },
        { ignore: [404] },
      )
      return response.found ? response._source : undefined
    }, 60_000)
    // The newest turns that fit the turns' share of the budget (35 %: 7 of these) stay uncompacted.
    expect(stored.compacted_turns).toBeGreaterThanOrEqual(25)
    expect(stored.compacted_turns).toBeLessThan(40)
    expect(stored.summary).toMatch(/Porto/)
    noteQuality({ compression_ratio: stored.compression_ratio, validation_score: stored.validation_score })
  })

  it('with nothing older than the kept turns, there is nothing to compact', async () => {
    const reply = await call('POST', `/v1/conversations/${transcriptId}/compact`, {
      user_id: user,
      keep_recent: 4,
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
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
    const reply = await call('POST', `/v1/conversations/${transcriptId}/compact`, {
      user_id: user,
      keep_recent: 0,
    })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual({
      error: 'A compaction of this conversation is already running',
      code: 'COMPACTION_IN_PROGRESS',
      details: {
        conversation_id: transcriptId,
        compaction_id: 'cmp_00000000000000000000000000000001',
        started_at: held?.claim.claimed_at,
      },
    })
    if (held) await claims.release([held.claim])
    const after = await call('POST', `/v1/conversations/${transcriptId}/compact`, {
      user_id: user,
      keep_recent: 0,
    })
    expect(after.body).toMatchObject({ status: 'compacted', compacted_turns: 4 })
    noteQuality(after.body)
  })

  it('another user or instance cannot compact the conversation', async () => {
    const foreign = await call(
      'POST',
      `/v1/conversations/${transcriptId}/compact`,
      { user_id: user },
      other.api_key.key,
    )
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({
      code: 'CONVERSATION_NOT_FOUND',
      details: { conversation_id: transcriptId },
    })
  })
})

describe('usage', () => {
  it('every context fetch and compaction is a usage event with its latency', async () => {
    const summary = await eventually(async () => {
      const reply = await call('GET', `/v1/analytics/summary?instance_id=${instance.instance.instance_id}`)
      const fetches = reply.body.context_fetches as { total: number }
      const compactions = reply.body.compactions as { total: number }
      // Two compactions asked for, two automatic (one after a fetch, one by the writer).
      return fetches.total === contextFetches && compactions.total === 4 ? reply.body : undefined
    }, 60_000)
    expect(summary.context_fetches).toMatchObject({ total: contextFetches })
    expect((summary.context_fetches as { avg_latency_ms: number }).avg_latency_ms).toBeGreaterThan(0)
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
    expect(summary.compactions).toEqual({
      total: 4,
      avg_compression_ratio: expect.closeTo(mean(compactionQuality.map((quality) => quality.ratio)), 2),
      avg_validation_score: expect.closeTo(mean(compactionQuality.map((quality) => quality.score)), 3),
    })
  })
})
