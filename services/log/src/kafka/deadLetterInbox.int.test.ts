import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTopicToEnd, testConfig, testLogger, uniqueName } from '../../../../test/support/testEngines.js'
import { createKafka, createSchemaCodec, createTopicAdmin, type TopicAdmin } from '@memory-service/engines'
import { createEventProducer, type EventProducer } from './eventProducer.js'
import { createDeadLetterWriter } from './deadLetters.js'
import { createDeadLetterInbox, REDRIVEN_FROM_HEADER, type DeadLetterInbox } from './deadLetterInbox.js'

/** What an operator does with parked records: list them, read one, send one back to where it came from. */
const config = testConfig()
const logger = testLogger()
const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'inbox-int-test', logger })
const codec = createSchemaCodec(config.schemaRegistry.url)
const origin = uniqueName('mem.test-inbox-origin.v1')
const letters = uniqueName('mem.test-inbox-letters.v1')
const subject = `${origin}-value`
const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'TestNote',
  type: 'object',
  required: ['text'],
  properties: { text: { type: 'string' } },
}

let admin: TopicAdmin
let producer: EventProducer
let inbox: DeadLetterInbox

beforeAll(async () => {
  admin = await createTopicAdmin(kafka)
  await admin.ensureTopics([
    { name: origin, partitions: 3, config: {} },
    { name: letters, partitions: 1, config: {} },
  ])
  await codec.register([{ subject, schema }])
  producer = await createEventProducer(kafka, codec)
  inbox = createDeadLetterInbox({ kafka, codec, topic: letters, timeoutMs: 20_000 })
  const toLetters = {
    ...producer,
    forward: (_topic: string, records: Parameters<EventProducer['forward']>[1]) =>
      producer.forward(letters, records),
  }
  // Two records of the origin topic, parked by two groups, as the consumers do.
  for (const [text, group] of [
    ['first', 'memory-projector-vector'],
    ['second', 'memory-pipeline'],
  ] as const) {
    const value = await codec.encode(subject, { text })
    await createDeadLetterWriter(toLetters, group).write(
      {
        topic: origin,
        partition: 2,
        offset: text === 'first' ? '40' : '41',
        raw: { key: Buffer.from(`key-${text}`), value, headers: { 'x-correlation-id': `corr-${text}` } },
      },
      [{ stage: 'projection', code: 'REJECTED_BY_STORE', message: `refused ${text}` }],
    )
  }
})

afterAll(async () => {
  await inbox.close()
  await producer.close()
  await admin.deleteTopics([origin, letters])
  await admin.close()
})

describe('dead-letter inbox', () => {
  it('lists every letter with where it came from, who parked it and why; filters by group', async () => {
    const all = await inbox.list()
    expect(all).toHaveLength(2)
    expect(all[0]).toMatchObject({
      id: '0:0',
      original: { topic: origin, partition: 2, offset: '40', key: 'key-first' },
      consumer_group: 'memory-projector-vector',
      errors: [{ stage: 'projection', code: 'REJECTED_BY_STORE', message: 'refused first' }],
      correlation_id: 'corr-first',
      redriven_from: null,
    })
    expect((await inbox.list({ group: 'memory-pipeline' })).map((letter) => letter.id)).toEqual(['0:1'])
  })

  it('shows one letter with its record decoded, and nothing for an unknown id', async () => {
    expect(await inbox.show('0:1')).toMatchObject({ id: '0:1', payload: { text: 'second' } })
    expect(await inbox.show('0:99')).toBeUndefined()
    expect(await inbox.show('not-an-id')).toBeUndefined()
  })

  it('redrives a letter: the same bytes, key and correlation id back on the original topic, naming the letter', async () => {
    const written = await inbox.redrive('0:0')
    expect(written?.topic).toBe(origin)
    const records = await readTopicToEnd<{ text: string }>(kafka, codec, origin)
    expect(records).toHaveLength(1)
    expect(records[0]?.value).toEqual({ text: 'first' })
    expect(records[0]?.headers['x-correlation-id']).toBe('corr-first')
    expect(records[0]?.headers[REDRIVEN_FROM_HEADER]).toBe('0:0')
    // The letter's own headers stay behind.
    expect(Object.keys(records[0]?.headers ?? {}).filter((name) => name.startsWith('dlq-original'))).toEqual(
      [],
    )
    expect(await inbox.redrive('0:99')).toBeUndefined()
  })
})
