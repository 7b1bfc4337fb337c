/**
 * Anticipated context on the real stack: after each user turn that arrives over the gRPC stream, the service pushes
 * on the same stream the memories the agent will likely need to answer it; other turns get nothing pushed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEventStream, createMemoryClient, type MemoryClient } from '@memory-service/client'
import type { AnticipatedContext__Output } from '@memory-service/shared/proto/memory/v1/AnticipatedContext'
import type { EventAck__Output } from '@memory-service/shared/proto/memory/v1/EventAck'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

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
  const job = await eventually(async () => {
    const status = await client.memories.status(accepted.ingestion_id)
    return status.status === 'completed' ? status : undefined
  }, 60_000)
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
})
