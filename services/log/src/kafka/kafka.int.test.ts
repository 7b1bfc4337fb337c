import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { testConfig, testLogger, uniqueName, eventually } from '../../../../test/support/testEngines.js'
import { createSchemaCodec } from '@memory-service/engines'
import { createKafka } from '@memory-service/engines'
import { createEventConsumer, type ConsumedEvent, type EventConsumer } from './eventConsumer.js'
import { createEventProducer, type EventProducer } from './eventProducer.js'
import { createTopicAdmin, type TopicAdmin } from '@memory-service/engines'

const config = testConfig()
const logger = testLogger()
const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'kafka-int-test', logger })
const codec = createSchemaCodec(config.schemaRegistry.url)
const topic = uniqueName('mem.test-turns.v1')
const subject = `${topic}-value`
const turnSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'TestTurn',
  type: 'object',
  additionalProperties: false,
  required: ['event_id', 'content'],
  properties: { event_id: { type: 'string' }, content: { type: 'string' } },
}

let admin: TopicAdmin
let producer: EventProducer
const consumers: EventConsumer[] = []

beforeAll(async () => {
  admin = await createTopicAdmin(kafka)
  await codec.register([{ subject, schema: turnSchema }])
  producer = await createEventProducer(kafka, codec)
})

afterAll(async () => {
  await Promise.all(consumers.map((consumer) => consumer.close()))
  await producer.close()
  await admin.deleteTopics([topic])
  await admin.close()
})

/** What a new member of a consumer's group is handed within 4 s: nothing, once everything handled was committed. */
async function redeliveredToANewMember(
  options: Omit<
    Parameters<typeof createEventConsumer<{ event_id: string; content: string }>>[0],
    'handleBatch'
  >,
): Promise<string[]> {
  const again: string[] = []
  const second = await createEventConsumer<{ event_id: string; content: string }>({
    ...options,
    handle: async (event) => void again.push(event.payload.event_id),
  })
  await new Promise((resolve) => setTimeout(resolve, 4000))
  await second.close()
  return again
}

describe('topic admin', () => {
  it('creates a declared topic with its partitions and configs, and a second run changes nothing', async () => {
    const declaration = {
      name: topic,
      partitions: 3,
      config: { 'retention.ms': '-1', 'cleanup.policy': 'delete' },
    }
    expect(await admin.ensureTopics([declaration])).toEqual({ created: [topic], updated: [] })
    expect(await admin.ensureTopics([declaration])).toEqual({ created: [], updated: [] })
    const described = (await admin.describeTopics([topic])).get(topic)
    expect(described?.partitions).toBe(3)
    expect(described?.config['retention.ms']).toBe('-1')
  })

  it('repairs a topic whose configs drifted from the declaration', async () => {
    const declaration = {
      name: topic,
      partitions: 3,
      config: { 'retention.ms': '-1', 'cleanup.policy': 'delete' },
    }
    await admin.ensureTopics([{ ...declaration, config: { ...declaration.config, 'retention.ms': '60000' } }])
    expect((await admin.describeTopics([topic])).get(topic)?.config['retention.ms']).toBe('60000')
    expect(await admin.ensureTopics([declaration])).toEqual({ created: [], updated: [topic] })
    expect((await admin.describeTopics([topic])).get(topic)?.config['retention.ms']).toBe('-1')
  })
})

describe('event producer and consumer', () => {
  it('round-trips schema-encoded events with key, headers and correlation id, in order per key', async () => {
    const received: ConsumedEvent<{ event_id: string; content: string }>[] = []
    consumers.push(
      await createEventConsumer<{ event_id: string; content: string }>({
        kafka,
        codec,
        logger,
        groupId: uniqueName('kafka-int-roundtrip'),
        topics: [topic],
        fromBeginning: true,
        handle: async (event) => {
          received.push(event)
        },
      }),
    )
    const events = ['one', 'two', 'three'].map((content, index) => ({
      key: 'conversation-1',
      subject,
      payload: { event_id: `evt_${index}`, content },
      correlationId: 'corr-roundtrip-1',
      headers: { 'event-type': 'user_message' },
    }))
    const appended = await producer.append(topic, events)
    expect(appended).toHaveLength(1)
    await eventually(async () => (received.length >= 3 ? true : undefined))
    expect(received.map((event) => event.payload)).toEqual(events.map((event) => event.payload))
    expect(received[0]).toMatchObject({
      topic,
      key: 'conversation-1',
      correlationId: 'corr-roundtrip-1',
      headers: { 'event-type': 'user_message', 'x-correlation-id': 'corr-roundtrip-1' },
    })
  })

  it('refuses to append a payload that does not match its schema, naming the failing path', async () => {
    await expect(
      producer.append(topic, [
        { key: 'k', subject, payload: { event_id: 7 }, correlationId: 'corr-bad-payload' },
      ]),
    ).rejects.toMatchObject({
      name: 'SchemaValidationError',
      paths: expect.arrayContaining(['/event_id must be string']),
    })
  })

  it('redelivers an event whose handler failed, because the offset is resolved only after the write', async () => {
    const otherTopic = uniqueName('mem.test-retry.v1')
    await admin.ensureTopics([{ name: otherTopic, partitions: 1, config: {} }])
    await codec.register([{ subject: `${otherTopic}-value`, schema: turnSchema }])
    let attempts = 0
    const handled: string[] = []
    const retryConsumer = await createEventConsumer<{ event_id: string; content: string }>({
      kafka,
      codec,
      logger,
      groupId: uniqueName('kafka-int-retry'),
      topics: [otherTopic],
      fromBeginning: true,
      handle: async (event) => {
        attempts += 1
        if (attempts === 1) throw new Error('projection store briefly unavailable')
        handled.push(event.payload.event_id)
      },
    })
    // A producer of its own: the shared one may still hold deleted topics of earlier tests in its metadata, and its
    // refresh then waits out the test (a CI run timed out here at 60 s).
    const retryProducer = await createEventProducer(kafka, codec)
    await retryProducer.append(otherTopic, [
      {
        key: 'k',
        subject: `${otherTopic}-value`,
        payload: { event_id: 'evt_retry', content: 'x' },
        correlationId: 'corr-retry',
      },
    ])
    await eventually(async () => (handled.length > 0 ? true : undefined), 30_000)
    expect(handled).toEqual(['evt_retry'])
    expect(attempts).toBe(2)
    await retryConsumer.close()
    await retryProducer.close()
    await admin.deleteTopics([otherTopic])
  })
  it('fetches a batch again after its handler failed with an error kafkajs would stop the consumer for', async () => {
    const otherTopic = uniqueName('mem.test-batch-retry.v1')
    await admin.ensureTopics([{ name: otherTopic, partitions: 1, config: {} }])
    await codec.register([{ subject: `${otherTopic}-value`, schema: turnSchema }])
    let attempts = 0
    const handled: string[] = []
    const retryConsumer = await createEventConsumer<{ event_id: string; content: string }>({
      kafka,
      codec,
      logger,
      groupId: uniqueName('kafka-int-batch-retry'),
      topics: [otherTopic],
      fromBeginning: true,
      handleBatch: async (events) => {
        attempts += 1
        // What fetch throws when an engine is down: kafkajs calls a TypeError unrecoverable and never restarts.
        if (attempts <= 2) throw new TypeError('fetch failed')
        handled.push(...events.map((event) => event.payload.event_id))
      },
    })
    // A producer of its own: the shared one still has the deleted topics of earlier tests in its metadata.
    const retryProducer = await createEventProducer(kafka, codec)
    await retryProducer.append(otherTopic, [
      {
        key: 'k',
        subject: `${otherTopic}-value`,
        payload: { event_id: 'evt_batch_retry', content: 'x' },
        correlationId: 'corr-batch-retry',
      },
    ])
    await eventually(async () => (handled.length > 0 ? true : undefined), 30_000)
    expect(handled).toEqual(['evt_batch_retry'])
    expect(attempts).toBe(3)
    await retryConsumer.close()
    await retryProducer.close()
    await admin.deleteTopics([otherTopic])
  })
  it('goes on fetching other partitions while a record of one is still being handled', async () => {
    const otherTopic = uniqueName('mem.test-slow.v1')
    await admin.ensureTopics([{ name: otherTopic, partitions: 2, config: {} }])
    await codec.register([{ subject: `${otherTopic}-value`, schema: turnSchema }])
    const groupId = uniqueName('kafka-int-slow')
    let releaseSlow: () => void = () => undefined
    const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve))
    const handled: { id: string; partition: number; whileSlowHeld: boolean }[] = []
    let slowHeld = false
    const options = {
      kafka,
      codec,
      logger,
      groupId,
      topics: [otherTopic],
      fromBeginning: true,
      partitionsConsumedConcurrently: 2,
      handle: async (event: ConsumedEvent<{ event_id: string; content: string }>) => {
        if (event.payload.event_id === 'evt_slow') {
          slowHeld = true
          await slowReleased
          slowHeld = false
        }
        handled.push({ id: event.payload.event_id, partition: event.partition, whileSlowHeld: slowHeld })
      },
    }
    const slowConsumer = await createEventConsumer(options)
    const slowProducer = await createEventProducer(kafka, codec)
    const record = (key: string, eventId: string) => ({
      key,
      subject: `${otherTopic}-value`,
      payload: { event_id: eventId, content: 'x' },
      correlationId: 'corr-slow',
    })
    const [slow] = await slowProducer.append(otherTopic, [record('slow', 'evt_slow')])
    await eventually(async () => (slowHeld ? true : undefined), 30_000)
    // Appended after the slow record was fetched: keys spread over both partitions (the partitioner is fixed).
    const later = await slowProducer.append(
      otherTopic,
      Array.from({ length: 8 }, (_, index) => record(`later-${String(index)}`, `evt_later_${String(index)}`)),
    )
    const otherPartition = later.find((batch) => batch.partition !== slow?.partition)?.partition
    expect(otherPartition).toBeDefined()
    await eventually(
      async () => (handled.some((entry) => entry.partition === otherPartition) ? true : undefined),
      15_000,
    )
    expect(
      handled.filter((entry) => entry.partition === otherPartition).every((entry) => entry.whileSlowHeld),
    ).toBe(true)
    releaseSlow()
    await eventually(async () => (handled.length === 9 ? true : undefined), 30_000)
    await slowConsumer.close()
    // Everything handled was committed, the slow record and the ones after it on its partition too.
    expect(await redeliveredToANewMember(options)).toEqual([])
    await slowProducer.close()
    await admin.deleteTopics([otherTopic])
  })

  it('handles records of a partition concurrently when asked, and after a failure commits no record past it', async () => {
    const otherTopic = uniqueName('mem.test-window.v1')
    await admin.ensureTopics([{ name: otherTopic, partitions: 1, config: {} }])
    await codec.register([{ subject: `${otherTopic}-value`, schema: turnSchema }])
    const groupId = uniqueName('kafka-int-window')
    let running = 0
    let mostAtOnce = 0
    let failedOnce = false
    const handled: string[] = []
    const options = {
      kafka,
      codec,
      logger,
      groupId,
      topics: [otherTopic],
      fromBeginning: true,
      handleConcurrency: 4,
      handle: async (event: ConsumedEvent<{ event_id: string; content: string }>) => {
        running += 1
        mostAtOnce = Math.max(mostAtOnce, running)
        // Later records finish first, so completion order differs from log order.
        await new Promise((resolve) => setTimeout(resolve, 60 - Number(event.offset) * 5))
        running -= 1
        if (event.payload.event_id === 'evt_5' && !failedOnce) {
          failedOnce = true
          throw new Error('store briefly unavailable')
        }
        handled.push(event.payload.event_id)
      },
    }
    const windowConsumer = await createEventConsumer(options)
    // A producer of its own: the shared one still tracks topics earlier tests deleted.
    const windowProducer = await createEventProducer(kafka, codec)
    await windowProducer.append(
      otherTopic,
      Array.from({ length: 10 }, (_, index) => ({
        key: 'k',
        subject: `${otherTopic}-value`,
        payload: { event_id: `evt_${String(index)}`, content: 'x' },
        correlationId: 'corr-window',
      })),
    )
    await eventually(async () => (new Set(handled).size === 10 ? true : undefined), 30_000)
    expect(mostAtOnce).toBeGreaterThan(1)
    expect(mostAtOnce).toBeLessThanOrEqual(4)
    await windowConsumer.close()
    // Everything was committed once handled: a new member of the group gets nothing again.
    expect(await redeliveredToANewMember(options)).toEqual([])
    await windowProducer.close()
    await admin.deleteTopics([otherTopic])
  })

  it('joins in the background when asked: returns while its group waits on a busy member, and misses nothing', async () => {
    // A run that times out says where it was waiting.
    let step = 'topic'
    onTestFailed(() => console.log(`background-join test stopped at: ${step}`))
    const otherTopic = uniqueName('mem.test-background-join.v1')
    await admin.ensureTopics([{ name: otherTopic, partitions: 1, config: {} }])
    await codec.register([{ subject: `${otherTopic}-value`, schema: turnSchema }])
    const joinProducer = await createEventProducer(kafka, codec)
    const append = (eventId: string) =>
      joinProducer.append(otherTopic, [
        {
          key: 'k',
          subject: `${otherTopic}-value`,
          payload: { event_id: eventId, content: 'x' },
          correlationId: eventId,
        },
      ])
    const groupId = uniqueName('kafka-int-background-join')
    const kafkaAdmin = kafka.admin()
    await kafkaAdmin.connect()
    const group = async () => (await kafkaAdmin.describeGroups([groupId])).groups[0]
    // A member busy with a batch that does not heartbeat: a rebalance waits for it to join again, up to its
    // rebalance timeout, so a consumer that waited for its own join would return only once the group gave up on it.
    // (Not longer: every rebalance of this group may wait that long for a member that is gone.)
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => (release = resolve))
    let busy = false
    step = 'busy member'
    const busyMember = kafka.consumer({ groupId, sessionTimeout: 60_000, rebalanceTimeout: 60_000 })
    await busyMember.connect()
    await busyMember.subscribe({ topics: [otherTopic], fromBeginning: true })
    await busyMember.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async () => {
        busy = true
        await released
      },
    })
    await append('evt_before')
    await eventually(async () => (busy ? true : undefined), 30_000)

    const handled: string[] = []
    const joiningInBackground = {
      kafka,
      codec,
      logger,
      groupId,
      topics: [otherTopic],
      fromBeginning: true,
      joinInBackground: true,
    }
    step = 'consumers joining in the background'
    const joining = await createEventConsumer<{ event_id: string; content: string }>({
      ...joiningInBackground,
      handle: async (event) => void handled.push(event.payload.event_id),
    })
    // Closed while its join still waits: it leaves the group once it has joined, instead of staying in it unheard
    // until its session expires with a partition assigned.
    const closedWhileJoining = await createEventConsumer<{ event_id: string; content: string }>({
      ...joiningInBackground,
      handle: async () => undefined,
    })
    const closing = closedWhileJoining.close()
    // Both returned, and the rebalance their joins started still waits on the busy member.
    step = 'rebalance pending'
    await eventually(async () => ((await group())?.state === 'PreparingRebalance' ? true : undefined), 30_000)
    expect(busy).toBe(true)
    await append('evt_while_joining')
    release()
    step = 'busy member leaving'
    await busyMember.disconnect()
    step = 'closed consumer leaving'
    await closing
    // A join that fails while its consumer closes leaves through kafkajs's crash path, which sends no LeaveGroup: the
    // group then waits for that member's session (30 s) before the other takes the partition.
    step = 'records handled'
    await eventually(async () => (handled.length >= 2 ? true : undefined), 90_000)
    expect(handled).toEqual(['evt_before', 'evt_while_joining'])
    step = 'one member left'
    await eventually(async () => ((await group())?.members.length === 1 ? true : undefined), 60_000)
    await kafkaAdmin.disconnect()
    step = 'close'
    await joining.close()
    await joinProducer.close()
    await admin.deleteTopics([otherTopic])
  }, 240_000)
})
