/**
 * POST /v1/events/batch against the real stack: per-event acknowledgements, idempotency under retries,
 * concurrency, restarts and several gateway processes, counted in Kafka itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CONVERSATION_EVENTS_TOPIC,
  createControlEventFactory,
  permissionPresets,
} from '@memory-service/domain'
import { createControlPlane, type ControlPlane } from '@memory-service/log'
import { connectLog } from '@memory-service/engines'
import { createTenancyCommands } from '@memory-service/commands'
import {
  type ConversationEventRecorded,
  type CreatedInstance,
  type EventBatchResponse,
} from '@memory-service/contracts'
import { startServices, type RunningServices } from '@memory-service/cli'
import { eventually, readTopicToEnd, testConfig, testLogger, uniqueName } from '../support/testEngines.js'

const config = testConfig({ HTTP_PORT: '0', GRPC_PORT: '0', RATE_LIMIT_GROUP: uniqueName('gateways') })
const logger = testLogger()
// The log's clients as the services have them: the codec opens what they sealed.
const { kafka, schemaCodec: codec } = connectLog(config, logger, 'event-batch-e2e')
let gateway: RunningServices
let secondGateway: RunningServices
let control: ControlPlane
let instance: CreatedInstance

async function send(
  baseUrl: string | undefined,
  events: unknown,
  key = instance.api_key.key,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl ?? ''}/v1/events/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ events }),
  })
  return {
    status: response.status,
    correlationId: response.headers.get('x-correlation-id'),
    body: (await response.json()) as EventBatchResponse & { code?: string; details?: unknown },
  }
}

function turn(
  eventId: string | undefined,
  conversationId: string,
  content = `turn ${eventId ?? 'without id'}`,
) {
  return {
    ...(eventId ? { event_id: eventId } : {}),
    event_type: 'user_message',
    conversation_id: conversationId,
    user_id: 'user-1',
    role: 'user',
    content,
  }
}

/** The recorded events of this test's instance, from Kafka itself. */
async function recorded(): Promise<ConversationEventRecorded[]> {
  const records = await readTopicToEnd<ConversationEventRecorded>(kafka, codec, CONVERSATION_EVENTS_TOPIC)
  return records
    .map((record) => record.value)
    .filter((event) => event.instance_id === instance.instance.instance_id)
}

beforeAll(async () => {
  gateway = await startServices(config, ['gateway'], logger)
  secondGateway = await startServices(config, ['gateway'], logger)
  control = await createControlPlane({ kafka, codec, logger })
  const events = createControlEventFactory()
  instance = await createTenancyCommands(control, events).createInstance(
    {
      clientId: events.newClientId(),
      name: 'events',
      tier: 'enterprise',
      rateLimit: { requests_per_minute: 100_000, burst: 10_000 },
    },
    'e2e',
  )
  for (const running of [gateway, secondGateway]) {
    await eventually(async () =>
      (await send(running.addresses.http, [turn(undefined, 'warm-up')])).status === 200 ? true : undefined,
    )
  }
})

afterAll(async () => {
  await control.close()
  await Promise.all([gateway.close(), secondGateway.close()])
})

describe('POST /v1/events/batch', () => {
  it('answers each event in request order: accepted, duplicate or rejected, with counts', async () => {
    const id = uniqueName('evt')
    const response = await send(gateway.addresses.http, [
      turn(`${id}-a`, 'conv-order'),
      { ...turn(`${id}-b`, 'conv-order'), role: 'assistant' },
      turn(`${id}-a`, 'conv-order'),
      turn(undefined, 'conv-order'),
      'not an event',
    ])
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      accepted: 2,
      duplicate: 1,
      rejected: 2,
      results: [
        { event_id: `${id}-a`, status: 'accepted' },
        {
          event_id: `${id}-b`,
          status: 'rejected',
          code: 'INVALID_EVENT',
          message: 'role must be user for user_message',
        },
        { event_id: `${id}-a`, status: 'duplicate' },
        { event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/), status: 'accepted' },
        { event_id: null, status: 'rejected', code: 'INVALID_EVENT', message: 'must be object' },
      ],
    })
  })

  it('records each turn exactly once when a half-successful batch is retried as a whole', async () => {
    const id = uniqueName('half')
    const batch = [
      turn(`${id}-1`, 'conv-half'),
      { ...turn(`${id}-2`, 'conv-half'), content: 7 },
      turn(`${id}-3`, 'conv-half'),
    ]
    const first = await send(gateway.addresses.http, batch)
    expect(first.body).toMatchObject({ accepted: 2, duplicate: 0, rejected: 1 })
    const retry = await send(secondGateway.addresses.http, batch)
    expect(retry.body).toMatchObject({ accepted: 0, duplicate: 2, rejected: 1 })
    const fixed = await send(gateway.addresses.http, [{ ...batch[1], content: 'now valid' }, ...batch])
    // The corrected event is accepted; the invalid original is still rejected; the others stay recorded once.
    expect(fixed.body.results.map((result) => result.status)).toEqual([
      'accepted',
      'duplicate',
      'rejected',
      'duplicate',
    ])
    // As every reader of the log sees it: each event id once, its first record kept. The retry went to the other
    // gateway at once; when its dedupe window had not yet read the first records (CI load), it appended a second
    // copy, which the design allows and every reader skips (docs/api/events-and-stream.md, "Two gateways racing").
    const events = (await recorded()).filter((event) => event.event_id.startsWith(id))
    expect([...new Set(events.map((event) => event.event_id))].sort()).toEqual([
      `${id}-1`,
      `${id}-2`,
      `${id}-3`,
    ])
    // The corrected second event is the only copy of its id: it was first sent valid to one gateway.
    expect(events.filter((event) => event.event_id === `${id}-2`)).toHaveLength(1)
  })

  it('accepts an event_id sent concurrently over 20 connections to two gateways exactly once', async () => {
    const id = uniqueName('race')
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        send((index % 2 === 0 ? gateway : secondGateway).addresses.http, [
          turn(id, 'conv-race', 'same turn'),
        ]),
      ),
    )
    const statuses = responses.map((response) => response.body.results[0]?.status)
    expect(statuses.filter((status) => status === 'accepted')).toHaveLength(1)
    expect(statuses.filter((status) => status === 'duplicate')).toHaveLength(19)
    // Each gateway appends an event at most once; when both raced, the log holds both records, and the accepted
    // request's is the first of its partition: the one every reader keeps (docs/decisions: idempotency).
    const copies = (await readTopicToEnd<ConversationEventRecorded>(kafka, codec, CONVERSATION_EVENTS_TOPIC))
      .filter((record) => record.value.event_id === id)
      .sort((a, b) => Number(BigInt(a.offset) - BigInt(b.offset)))
    expect(copies.length).toBeGreaterThanOrEqual(1)
    expect(copies.length).toBeLessThanOrEqual(2)
    expect(new Set(copies.map((copy) => copy.partition)).size).toBe(1)
    const accepted = responses.find((response) => response.body.results[0]?.status === 'accepted')
    expect(copies[0]?.headers['x-correlation-id']).toBe(accepted?.correlationId)
  })

  it('remembers an event_id across a gateway restart', async () => {
    const id = uniqueName('restart')
    expect((await send(gateway.addresses.http, [turn(id, 'conv-restart')])).body.accepted).toBe(1)
    await gateway.close()
    gateway = await startServices(config, ['gateway'], logger)
    expect((await send(gateway.addresses.http, [turn(id, 'conv-restart')])).body.duplicate).toBe(1)
  })

  it('records events without an event_id every time they are sent', async () => {
    const content = uniqueName('no-id')
    await send(gateway.addresses.http, [turn(undefined, 'conv-no-id', content)])
    await send(gateway.addresses.http, [turn(undefined, 'conv-no-id', content)])
    expect((await recorded()).filter((event) => event.content === content)).toHaveLength(2)
  })

  it('records the event as sent, keyed by conversation, with the request correlation id', async () => {
    const id = uniqueName('shape')
    const correlationId = uniqueName('corr-events')
    await send(
      gateway.addresses.http,
      [
        {
          ...turn(id, 'conv-shape', 'I moved to Lisbon'),
          customer_id: 'acme',
          metadata: { channel: 'web' },
          occurred_at: '2026-11-01T10:00:00Z',
        },
      ],
      instance.api_key.key,
      { 'x-correlation-id': correlationId },
    )
    const records = await readTopicToEnd<ConversationEventRecorded>(kafka, codec, CONVERSATION_EVENTS_TOPIC)
    const record = records.find((entry) => entry.value.event_id === id)
    expect(record?.value).toEqual({
      type: 'conversation_event_recorded',
      event_id: id,
      client_event_id: id,
      instance_id: instance.instance.instance_id,
      client_id: instance.instance.client_id,
      conversation_id: 'conv-shape',
      user_id: 'user-1',
      customer_id: 'acme',
      event_type: 'user_message',
      role: 'user',
      content: 'I moved to Lisbon',
      metadata: { channel: 'web' },
      occurred_at: '2026-11-01T10:00:00Z',
      received_at: expect.any(String),
    })
    expect(record?.headers).toMatchObject({ 'x-correlation-id': correlationId, 'event-type': 'user_message' })
    // Same conversation, same partition: its turns stay in order.
    const sameConversation = records.filter(
      (entry) =>
        entry.value.conversation_id === 'conv-shape' &&
        entry.value.instance_id === instance.instance.instance_id,
    )
    expect(new Set(sameConversation.map((entry) => entry.partition)).size).toBe(1)
  })

  it('rejects each invalid event with INVALID_EVENT and a message naming the rule', async () => {
    const response = await send(gateway.addresses.http, [
      { event_type: 'user_message', conversation_id: 'c', user_id: 'u' },
      { event_type: 'shout', conversation_id: 'c', user_id: 'u', content: 'x' },
      { event_type: 'session_started', conversation_id: 'c', user_id: 'u', content: 'x' },
      { event_type: 'user_message', conversation_id: 'line\nbreak', user_id: 'u', content: 'x' },
      { event_type: 'user_message', conversation_id: 'c', user_id: 'u', content: 'x', extra: true },
      {
        event_type: 'user_message',
        conversation_id: 'c',
        user_id: 'u',
        content: 'x',
        occurred_at: 'yesterday',
      },
      { event_type: 'tool_message', conversation_id: 'c', user_id: 'u', content: 'x'.repeat(32769) },
      { event_id: 'bad id!', event_type: 'user_message', conversation_id: 'c', user_id: 'u', content: 'x' },
    ])
    expect(response.body.rejected).toBe(8)
    expect(response.body.results.map((result) => result.message)).toEqual([
      'content is required for user_message',
      'event_type must be one of: user_message, assistant_message, system_message, tool_message, session_started, session_ended',
      'content is not allowed on session_started',
      'conversation_id must not contain control characters',
      'extra is not a known field',
      'occurred_at must match format "date-time"',
      'content must NOT have more than 32768 characters',
      'event_id must match pattern "^[A-Za-z0-9._:-]+$"',
    ])
    expect(new Set(response.body.results.map((result) => result.code))).toEqual(new Set(['INVALID_EVENT']))
  })

  it('rejects a request that is not a batch with 400 INVALID_INPUT, and a key without events:write with 403', async () => {
    expect((await send(gateway.addresses.http, 'nope')).body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { events: 'must be array' } },
    })
    expect((await send(gateway.addresses.http, [])).body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { events: 'must NOT have fewer than 1 items' } },
    })
    const tooMany = Array.from({ length: 1001 }, () => turn(undefined, 'c'))
    expect((await send(gateway.addresses.http, tooMany)).body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { events: 'must NOT have more than 1000 items' } },
    })
    const tenancy = createTenancyCommands(control, createControlEventFactory())
    const reader = await tenancy.issueKey(
      instance.instance.instance_id,
      permissionPresets['read-only'],
      'e2e',
    )
    await eventually(async () =>
      (await send(gateway.addresses.http, [turn(undefined, 'c')], reader.key)).status === 403
        ? true
        : undefined,
    )
    expect((await send(gateway.addresses.http, [turn(undefined, 'c')], reader.key)).body).toMatchObject({
      code: 'FORBIDDEN',
      details: { required_permission: 'events:write' },
    })
  })
})
