import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig, testLogger, uniqueName, eventually } from '../../../../test/support/testEngines.js'
import {
  createElasticsearchClient,
  createElasticsearchStore,
  createKafka,
  createSchemaCodec,
  createTopicAdmin,
  type TopicAdmin,
} from '@memory-service/engines'
import { createEventConsumer, type ConsumedEvent, type EventConsumer } from './eventConsumer.js'
import { createEventProducer, type EventProducer } from './eventProducer.js'
import { createDeadLetterWriter, deadLetterHeaders } from './deadLetters.js'

/**
 * A record its store refuses for what it holds (here a date Elasticsearch cannot parse, as the fuzzer once sent)
 * must not stop the projection: it is parked as a dead letter and the records after it are applied. A store that is
 * merely unavailable must not dead-letter anything.
 */
const config = testConfig()
const logger = testLogger()
const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'poison-int-test', logger })
const codec = createSchemaCodec(config.schemaRegistry.url)
const elasticsearch = createElasticsearchClient({ url: config.elasticsearch.url })
const topic = uniqueName('mem.test-poison.v1')
const deadLetterTopic = uniqueName('mem.test-poison-dead-letters.v1')
const index = uniqueName('mem-test-poison')
const subject = `${topic}-value`
const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'TestFact',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'at'],
  properties: { id: { type: 'string' }, at: { type: 'string' } },
}
type Fact = { id: string; at: string }

let admin: TopicAdmin
let producer: EventProducer
const consumers: EventConsumer[] = []
const store = createElasticsearchStore<Fact>(elasticsearch, index)

beforeAll(async () => {
  admin = await createTopicAdmin(kafka)
  await admin.ensureTopics([
    { name: topic, partitions: 1, config: {} },
    { name: deadLetterTopic, partitions: 1, config: {} },
  ])
  await codec.register([{ subject, schema }])
  await store.ensureIndex({
    dynamic: 'strict',
    properties: { id: { type: 'keyword' }, at: { type: 'date' } },
  })
  producer = await createEventProducer(kafka, codec)
})

afterAll(async () => {
  await Promise.all(consumers.map((consumer) => consumer.close()))
  await producer.close()
  await admin.deleteTopics([topic, deadLetterTopic])
  await admin.close()
  await store.deleteIndex()
  await elasticsearch.close()
})

const append = (facts: Fact[]) =>
  producer.append(
    topic,
    facts.map((fact) => ({ key: 'facts', subject, payload: fact, correlationId: `corr-${fact.id}` })),
  )

describe('a projection meeting a record its store refuses', () => {
  it('parks that record as a dead letter and applies the others, in one batch or alone', async () => {
    const parked: ConsumedEvent<Fact>[] = []
    const writer = createDeadLetterWriter(
      {
        ...producer,
        forward: (_topic, records) => producer.forward(deadLetterTopic, records),
      },
      'poison-test-group',
    )
    const groupId = uniqueName('poison-test')
    // Written before the consumer starts, so that the first batch holds the poison record between good ones.
    await append([
      { id: 'a', at: '2026-11-20T10:00:00Z' },
      { id: 'poison', at: '0062-06-03T02:48:12+23:41' },
      { id: 'b', at: '2026-11-21T10:00:00Z' },
    ])
    consumers.push(
      await createEventConsumer<Fact>({
        kafka,
        codec,
        logger,
        groupId,
        topics: [topic],
        fromBeginning: true,
        handleBatch: async (events) => {
          await store.upsert(events.map(({ payload }) => ({ id: payload.id, document: payload })))
        },
        onRejected: async (event, error) => {
          parked.push(event)
          await writer.write(event, [
            { stage: 'projection', code: 'REJECTED_BY_STORE', message: String(error) },
          ])
        },
      }),
    )
    await append([{ id: 'c', at: '2026-11-22T10:00:00Z' }])
    // A batch's bulk write stores its good records at once; the refused one reaches the dead letters only after the
    // batch is applied again record by record: 'c' can be in the store before then (a CI run of 2026-12-02 looked in
    // between).
    await eventually(async () => ((await store.get('c')) && parked.length > 0 ? true : undefined))
    expect(await store.get('a')).not.toBeNull()
    expect(await store.get('b')).not.toBeNull()
    expect(await store.get('poison')).toBeNull()
    expect(parked.map((event) => event.payload.id)).toEqual(['poison'])

    // The dead letter keeps the record's bytes and headers, and says where it came from and why.
    const letters = await readAll(deadLetterTopic)
    expect(letters).toHaveLength(1)
    const [letter] = letters
    expect(letter?.headers[deadLetterHeaders.topic]).toBe(topic)
    expect(letter?.headers[deadLetterHeaders.offset]).toBe('1')
    expect(letter?.headers[deadLetterHeaders.consumerGroup]).toBe('poison-test-group')
    expect(letter?.headers['x-correlation-id']).toBe('corr-poison')
    expect(JSON.parse(letter?.headers[deadLetterHeaders.errors] ?? '[]')).toMatchObject([
      { code: 'REJECTED_BY_STORE' },
    ])
    // The store's reason names the field, never its value: the headers are not sealed and outlive an erasure.
    expect(letter?.headers[deadLetterHeaders.errors]).toContain('[at]')
    expect(letter?.headers[deadLetterHeaders.errors]).not.toContain('0062-06-03')
    expect(await codec.decode(letter?.value ?? Buffer.alloc(0))).toEqual({
      id: 'poison',
      at: '0062-06-03T02:48:12+23:41',
    })
  })

  it('a store that fails for a while dead-letters nothing: the batch is retried until it applies', async () => {
    const parked: string[] = []
    let failures = 0
    consumers.push(
      await createEventConsumer<Fact>({
        kafka,
        codec,
        logger,
        groupId: uniqueName('poison-test-outage'),
        topics: [topic],
        fromBeginning: true,
        handleBatch: async (events) => {
          if (failures < 2) {
            failures += 1
            throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'ConnectionError' })
          }
          await store.upsert(events.map(({ payload }) => ({ id: `outage-${payload.id}`, document: payload })))
        },
        onRejected: async (event) => {
          parked.push(event.payload.id)
        },
      }),
    )
    // The bulk write that meets the refused record stores the others first: wait for the parking too.
    await eventually(
      async () => (parked.length > 0 && (await store.get('outage-c')) ? true : undefined),
      40_000,
    )
    expect(failures).toBe(2)
    expect(await store.get('outage-a')).not.toBeNull()
    // Only the record the store refuses is parked, and only after the outage.
    expect(parked).toEqual(['poison'])
  })
})

async function readAll(from: string): Promise<{ headers: Record<string, string>; value: Buffer | null }[]> {
  const consumer = kafka.consumer({ groupId: uniqueName('poison-test-reader') })
  const read: { headers: Record<string, string>; value: Buffer | null }[] = []
  await consumer.connect()
  await consumer.subscribe({ topics: [from], fromBeginning: true })
  await consumer.run({
    eachMessage: async ({ message }) => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(message.headers ?? {}))
        headers[name] = (Array.isArray(value) ? value[0] : value)?.toString() ?? ''
      read.push({ headers, value: message.value })
    },
  })
  try {
    await eventually(async () => (read.length > 0 ? true : undefined))
    // A moment more, so that a second (wrong) letter would be seen too.
    await new Promise((resolve) => setTimeout(resolve, 500))
    return read
  } finally {
    await consumer.disconnect()
  }
}
