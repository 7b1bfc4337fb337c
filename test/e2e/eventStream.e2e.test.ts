/**
 * The bidirectional gRPC stream with the client library, against the real stack: every event acknowledged
 * once, in order; nothing lost or doubled when the gateway dies mid-stream and the client reconnects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONVERSATION_EVENTS_TOPIC } from '@memory-service/domain'
import { type ConversationEventRecorded, type CreatedInstance } from '@memory-service/contracts'
import { AuthenticationError, createEventStream, type MemoryServiceClientError } from '@memory-service/client'
import type { EventAck__Output } from '@memory-service/contracts/proto/memory/v1/EventAck'
import { startServices, type RunningServices } from '@memory-service/cli'
import {
  eventually,
  readTopicToEnd,
  startGatewayWithInstance,
  testConfig,
  uniqueName,
} from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
/** The gateway under test; the kill test replaces it. */
let gateway: RunningServices
let instance: CreatedInstance

const turn = (conversationId: string, index: number) => ({
  event_type: 'user_message' as const,
  conversation_id: conversationId,
  user_id: 'user-1',
  content: `turn ${index}`,
})

async function recordedIn(conversationId: string): Promise<ConversationEventRecorded[]> {
  const records = await readTopicToEnd<ConversationEventRecorded>(
    harness.kafka,
    harness.codec,
    CONVERSATION_EVENTS_TOPIC,
  )
  return records
    .map((record) => record.value)
    .filter(
      (event) =>
        event.instance_id === instance.instance.instance_id && event.conversation_id === conversationId,
    )
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('stream')
  gateway = harness.gateway
  instance = harness.instance
})

afterAll(async () => {
  await harness.control.close()
  await gateway.close()
})

describe('event stream', () => {
  it('acknowledges events sent right after opening the stream, each once and in order', async () => {
    const conversationId = uniqueName('conv-open')
    const acks: EventAck__Output[] = []
    const stream = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: instance.api_key.key,
      onAck: (ack) => acks.push(ack),
    })
    stream.start()
    const ids = Array.from({ length: 30 }, (_, index) => stream.send(turn(conversationId, index)))
    await stream.stop(10_000)
    expect(acks.map((ack) => ack.eventId)).toEqual(ids)
    expect(new Set(acks.map((ack) => ack.status))).toEqual(new Set(['ACCEPTED']))
    const recorded = await recordedIn(conversationId)
    expect(recorded.map((event) => event.event_id)).toEqual(ids)
  })

  it('loses nothing and duplicates nothing when the gateway dies mid-stream and the client reconnects', async () => {
    const conversationId = uniqueName('conv-kill')
    const grpcPort = (gateway.addresses.grpc ?? '').split(':')[1] ?? ''
    const acked = new Map<string, string>()
    const stream = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: instance.api_key.key,
      backoff: { initialMs: 100, maxMs: 1000 },
      onAck: (ack) => acked.set(ack.eventId, ack.status),
      warn: () => undefined,
    })
    stream.start()
    const ids: string[] = []
    for (let index = 0; index < 60; index += 1) {
      ids.push(stream.send(turn(conversationId, index)))
      if (index === 29) {
        // The gateway goes away with events in flight, and comes back on the same port.
        await gateway.close()
        gateway = await startServices(
          testConfig({ HTTP_PORT: '0', GRPC_PORT: grpcPort, RATE_LIMIT_GROUP: harness.rateLimitGroup }),
          ['gateway'],
          harness.logger,
        )
      }
      if (index % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await eventually(async () => (stream.pending() === 0 ? true : undefined), 60_000)
    await stream.stop()
    expect([...acked.keys()].sort()).toEqual([...ids].sort())
    expect([...acked.values()].every((status) => status === 'ACCEPTED' || status === 'DUPLICATE')).toBe(true)
    const recorded = await recordedIn(conversationId)
    expect(recorded.map((event) => event.event_id).sort()).toEqual([...ids].sort())
  })

  it('acknowledges an invalid event as rejected and goes on with the next one', async () => {
    const acks: EventAck__Output[] = []
    const stream = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: instance.api_key.key,
      onAck: (ack) => acks.push(ack),
    })
    stream.start()
    stream.send({ event_type: 'session_started', conversation_id: 'c', user_id: 'u', content: 'not allowed' })
    stream.send(turn(uniqueName('conv'), 1))
    await stream.stop(10_000)
    expect(acks.map((ack) => [ack.status, ack.code, ack.message])).toEqual([
      ['REJECTED', 'INVALID_EVENT', 'content is not allowed on session_started'],
      ['ACCEPTED', '', ''],
    ])
  })

  it('ends with an authentication error for an unknown key instead of reconnecting', async () => {
    const errors: MemoryServiceClientError[] = []
    const stream = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: `msk_0123456789abcdef_${'A'.repeat(43)}`,
      onError: (error) => errors.push(error),
    })
    stream.start()
    stream.send(turn('c', 1))
    await eventually(async () => (errors.length > 0 ? true : undefined))
    expect(errors[0]).toBeInstanceOf(AuthenticationError)
    expect(errors[0]).toMatchObject({ code: 'UNAUTHORIZED', message: 'Unknown API key' })
    expect(() => stream.send(turn('c', 2))).toThrow(/stopped/)
    await stream.stop()
  })

  it('acknowledges a burst of 300 events on a connected stream without dropping or warning', async () => {
    const conversationId = uniqueName('conv-burst')
    const warnings: string[] = []
    const acks = new Map<string, number>()
    const stream = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: instance.api_key.key,
      onAck: (ack) => acks.set(ack.eventId, (acks.get(ack.eventId) ?? 0) + 1),
      warn: (message) => warnings.push(message),
    })
    stream.start()
    // Connected first: the burst is in flight, not buffered.
    stream.send(turn(conversationId, -1))
    await eventually(async () => (stream.pending() === 0 ? true : undefined))
    const ids = Array.from({ length: 300 }, (_, index) => stream.send(turn(conversationId, index)))
    const { unacknowledged } = await stream.stop()
    expect(warnings).toEqual([])
    expect(unacknowledged).toEqual([])
    expect(ids.every((id) => acks.get(id) === 1)).toBe(true)
  })

  it('waits on stop() with the default deadline until a burst of 1 000 is acknowledged', async () => {
    const conversationId = uniqueName('conv-stop')
    const acked = new Set<string>()
    const stream = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: instance.api_key.key,
      onAck: (ack) => acked.add(ack.eventId),
    })
    stream.start()
    const ids = Array.from({ length: 1000 }, (_, index) => stream.send(turn(conversationId, index)))
    const { unacknowledged } = await stream.stop()
    expect(unacknowledged).toEqual([])
    expect(ids.filter((id) => !acked.has(id))).toEqual([])
  })

  it('while the gateway is away, holds at most maxEvents, reports what it drops, and delivers the rest', async () => {
    const conversationId = uniqueName('conv-offline')
    const grpcPort = (gateway.addresses.grpc ?? '').split(':')[1] ?? ''
    const acked = new Set<string>()
    const dropped: string[] = []
    const stream = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: instance.api_key.key,
      maxEvents: 100,
      backoff: { initialMs: 100, maxMs: 500 },
      onAck: (ack) => acked.add(ack.eventId),
      onDropped: (held, reason) => dropped.push(`${held.id}:${reason}`),
      warn: () => undefined,
    })
    stream.start()
    stream.send(turn(conversationId, -1))
    await eventually(async () => (stream.pending() === 0 ? true : undefined))
    await gateway.close()
    const ids = Array.from({ length: 150 }, (_, index) => stream.send(turn(conversationId, index)))
    expect(stream.pending()).toBe(100)
    expect(dropped).toEqual(ids.slice(0, 50).map((id) => `${id}:buffer_full`))
    gateway = await startServices(
      testConfig({ HTTP_PORT: '0', GRPC_PORT: grpcPort, RATE_LIMIT_GROUP: harness.rateLimitGroup }),
      ['gateway'],
      harness.logger,
    )
    await eventually(async () => (stream.pending() === 0 ? true : undefined), 60_000)
    const { unacknowledged } = await stream.stop()
    expect(unacknowledged).toEqual([])
    expect(ids.slice(50).filter((id) => !acked.has(id))).toEqual([])
    expect(ids.slice(0, 50).filter((id) => acked.has(id))).toEqual([])
  })

  it('returns from stop() what was never acknowledged, and resending it records each event once', async () => {
    const conversationId = uniqueName('conv-unacked')
    const grpcPort = (gateway.addresses.grpc ?? '').split(':')[1] ?? ''
    const warnings: string[] = []
    const stream = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: instance.api_key.key,
      backoff: { initialMs: 100, maxMs: 500 },
      warn: (message) => warnings.push(message),
    })
    stream.start()
    stream.send(turn(conversationId, -1))
    await eventually(async () => (stream.pending() === 0 ? true : undefined))
    await gateway.close()
    const ids = Array.from({ length: 5 }, (_, index) => stream.send(turn(conversationId, index)))
    const { unacknowledged } = await stream.stop(200)
    expect(unacknowledged.map((held) => held.id)).toEqual(ids)
    expect(warnings).toEqual([
      'stopped with 5 event(s) not acknowledged within 200 ms; they may or may not have been recorded (resend them with the same ids)',
    ])
    gateway = await startServices(
      testConfig({ HTTP_PORT: '0', GRPC_PORT: grpcPort, RATE_LIMIT_GROUP: harness.rateLimitGroup }),
      ['gateway'],
      harness.logger,
    )
    const acks: EventAck__Output[] = []
    const again = createEventStream({
      address: gateway.addresses.grpc ?? '',
      apiKey: instance.api_key.key,
      onAck: (ack) => acks.push(ack),
    })
    again.start()
    for (const held of unacknowledged) again.send({ ...held.event, event_id: held.id })
    await again.stop()
    expect(acks.map((ack) => [ack.eventId, ack.status])).toEqual(ids.map((id) => [id, 'ACCEPTED']))
    const recorded = await recordedIn(conversationId)
    expect(
      recorded
        .map((event) => event.event_id)
        .filter((id) => ids.includes(id))
        .sort(),
    ).toEqual([...ids].sort())
  })
})
