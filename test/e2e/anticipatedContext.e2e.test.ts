/**
 * Anticipated context on the real stack: after each user turn that arrives over the gRPC stream, the service pushes
 * on the same stream the memories the agent will likely need to answer it; other turns get nothing pushed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEventStream, createMemoryClient, type MemoryClient } from '@memory-service/client'
import type { AnticipatedContext__Output } from '@memory-service/contracts/proto/memory/v1/AnticipatedContext'
import type { EventAck__Output } from '@memory-service/contracts/proto/memory/v1/EventAck'
import { embeddingDuration } from '@memory-service/engines'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

/** Model calls made for a purpose so far in this process. */
const modelCalls = async (purpose: string) =>
  (await embeddingDuration.get()).values.find(
    (value) => value.metricName?.endsWith('_count') && value.labels.purpose === purpose,
  )?.value ?? 0

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
const user = uniqueName('anticipation-user')
let memoryId = ''

beforeAll(async () => {
  harness = await startGatewayWithInstance('anticipation', { withWorkers: true })
  client = createMemoryClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
  const accepted = await client.memories.ingest({
    document: 'My daughter Lena plays the cello in the Lisbon youth orchestra.',
    document_type: 'note',
    mode: 'fast',
    user_id: user,
  })
  const job = await completedJob(client, accepted.ingestion_id)
  memoryId = job.memory_ids?.[0] ?? ''
  // Searches read the index as of its last refresh.
  await eventually(async () => {
    const found = await client.memories.search({ query: 'Lena cello', user_id: user, mode: 'fast' })
    return found.results.some((hit) => hit.id === memoryId) ? true : undefined
  })
})

afterAll(async () => {
  await harness.close()
})

describe('anticipated context', () => {
  it('follows a user turn on the same stream, in reply to its event, with the relevant memories', async () => {
    const conversationId = uniqueName('anticipation-conv')
    const pushed: AnticipatedContext__Output[] = []
    const acks: EventAck__Output[] = []
    const [anticipationCalls, queryCalls] = [await modelCalls('anticipation'), await modelCalls('queries')]
    const stream = createEventStream({
      address: harness.gateway.addresses.grpc ?? '',
      apiKey: harness.instance.api_key.key,
      onAck: (ack) => acks.push(ack),
      onAnticipatedContext: (context) => pushed.push(context),
    })
    stream.start()
    const assistantTurn = stream.send({
      event_type: 'assistant_message',
      conversation_id: conversationId,
      user_id: user,
      content: 'How is Lena doing with her cello?',
    })
    const userTurn = stream.send({
      event_type: 'user_message',
      conversation_id: conversationId,
      user_id: user,
      content: 'When is Lena playing the cello next with her orchestra?',
    })
    await eventually(async () => (pushed.length > 0 ? true : undefined))
    await stream.stop(5000)

    expect(acks.map((ack) => [ack.eventId, ack.status])).toEqual([
      [assistantTurn, 'ACCEPTED'],
      [userTurn, 'ACCEPTED'],
    ])
    // Only the user turn is answered with context.
    expect(pushed).toHaveLength(1)
    expect(pushed[0]).toMatchObject({ conversationId, inReplyToEventId: userTurn })
    expect(pushed[0]?.items.map((item) => item.memoryId)).toContain(memoryId)
    expect(pushed[0]?.items[0]?.content).toMatch(/cello/)
    // Its question was embedded by anticipation's own background model session, not by the searches' one.
    expect(await modelCalls('anticipation')).toBeGreaterThan(anticipationCalls)
    expect(await modelCalls('queries')).toBe(queryCalls)
  })

  it('a user with nothing remembered gets no push', async () => {
    const pushed: AnticipatedContext__Output[] = []
    const stream = createEventStream({
      address: harness.gateway.addresses.grpc ?? '',
      apiKey: harness.instance.api_key.key,
      onAnticipatedContext: (context) => pushed.push(context),
    })
    stream.start()
    const unknownUserTurn = stream.send({
      event_type: 'user_message',
      conversation_id: uniqueName('anticipation-empty'),
      user_id: uniqueName('nobody'),
      content: 'Anything about the cello?',
    })
    // A turn sent after it that does get context: once that arrives, the first one's lookup has long finished.
    const knownUserTurn = stream.send({
      event_type: 'user_message',
      conversation_id: uniqueName('anticipation-known'),
      user_id: user,
      content: 'Is Lena still in the youth orchestra?',
    })
    await eventually(async () => (pushed.length > 0 ? true : undefined))
    await new Promise((resolve) => setTimeout(resolve, 500))
    await stream.stop(5000)
    expect(pushed.map((context) => context.inReplyToEventId)).toEqual([knownUserTurn])
    expect(pushed.map((context) => context.inReplyToEventId)).not.toContain(unknownUserTurn)
  })

  it('pushes nothing and does no anticipation work for a stream that did not subscribe', async () => {
    const before = harness.gateway.anticipationStats()?.offered ?? 0
    const acks: EventAck__Output[] = []
    const stream = createEventStream({
      address: harness.gateway.addresses.grpc ?? '',
      apiKey: harness.instance.api_key.key,
      onAck: (ack) => acks.push(ack),
    })
    stream.start()
    stream.send({
      event_type: 'user_message',
      conversation_id: uniqueName('anticipation-unsubscribed'),
      user_id: user,
      content: 'When is Lena playing the cello next?',
    })
    await stream.stop(5000)
    expect(acks.map((ack) => ack.status)).toEqual(['ACCEPTED'])
    expect(harness.gateway.anticipationStats()?.offered ?? 0).toBe(before)
  })

  it('acknowledges each of 10 000 user turns once while anticipation stays bounded', async () => {
    const conversations = Array.from({ length: 20 }, () => uniqueName('anticipation-load'))
    const before = harness.gateway.anticipationStats()
    const acks = new Map<string, number>()
    const statuses = new Set<string>()
    let pushed = 0
    const stream = createEventStream({
      address: harness.gateway.addresses.grpc ?? '',
      apiKey: harness.instance.api_key.key,
      onAck: (ack) => {
        acks.set(ack.eventId, (acks.get(ack.eventId) ?? 0) + 1)
        statuses.add(ack.status)
      },
      onAnticipatedContext: () => {
        pushed += 1
      },
    })
    stream.start()
    const started = Date.now()
    const ids: string[] = []
    for (let index = 0; index < 10_000; index += 1) {
      ids.push(
        stream.send({
          event_type: 'user_message',
          conversation_id: conversations[index % conversations.length] ?? '',
          user_id: user,
          content: `Turn ${index}: how is Lena doing with the cello and the orchestra?`,
        }),
      )
      if (index % 200 === 199) await new Promise((resolve) => setImmediate(resolve))
    }
    const { unacknowledged } = await stream.stop(60_000)
    const seconds = (Date.now() - started) / 1000
    // The turns still waiting when the last ack arrived run (or expire) after it.
    const settled = (stats: ReturnType<typeof harness.gateway.anticipationStats>) =>
      (stats?.started ?? 0) + (stats?.coalesced ?? 0) + (stats?.expired ?? 0) + (stats?.overflowed ?? 0)
    await eventually(async () => {
      const now = harness.gateway.anticipationStats()
      return settled(now) - settled(before) === 10_000 &&
        (now?.completed ?? 0) + (now?.failed ?? 0) === now?.started
        ? true
        : undefined
    })
    const after = harness.gateway.anticipationStats()
    expect(unacknowledged).toEqual([])
    expect(acks.size).toBe(10_000)
    expect([...acks.values()].every((count) => count === 1)).toBe(true)
    expect(ids.every((id) => acks.has(id))).toBe(true)
    expect(statuses).toEqual(new Set(['ACCEPTED']))

    const offered = (after?.offered ?? 0) - (before?.offered ?? 0)
    const started_ = (after?.started ?? 0) - (before?.started ?? 0)
    const coalesced = (after?.coalesced ?? 0) - (before?.coalesced ?? 0)
    const expired = (after?.expired ?? 0) - (before?.expired ?? 0)
    const overflowed = (after?.overflowed ?? 0) - (before?.overflowed ?? 0)
    console.log(
      `10 000 user turns in ${seconds.toFixed(1)} s: anticipation offered ${offered}, run ${started_}, coalesced ${coalesced}, expired ${expired}, overflowed ${overflowed}, pushed ${pushed}, peak at once ${after?.peakRunning}`,
    )
    // Every turn is offered once and either runs or is dropped for a newer one (or for waiting too long).
    expect(offered).toBe(10_000)
    expect(started_ + coalesced + expired + overflowed).toBe(offered)
    // The global limit (ANTICIPATION_CONCURRENCY, 1 by default) held, and coalescing did its work.
    expect(after?.peakRunning).toBe(1)
    expect(started_).toBeLessThan(offered / 2)
    expect(pushed).toBeGreaterThan(0)
    expect(pushed).toBeLessThanOrEqual(started_)
  })
})
