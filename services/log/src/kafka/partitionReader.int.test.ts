import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig, testLogger, uniqueName } from '../../../../test/support/testEngines.js'
import { createKafka, createTopicAdmin, type TopicAdmin } from '@memory-service/engines'
import type { Producer } from 'kafkajs'
import { createPartitionReader, type PartitionReader, type ReadRecord } from './partitionReader.js'

const config = testConfig()
const kafka = createKafka({
  brokers: config.kafka.brokers,
  clientId: 'partition-reader-test',
  logger: testLogger(),
})
const topic = uniqueName('mem.test-partition-reader.v1')

let admin: TopicAdmin
let producer: Producer
let reader: PartitionReader

beforeAll(async () => {
  admin = await createTopicAdmin(kafka)
  await admin.ensureTopics([{ name: topic, partitions: 2, config: {} }])
  // Idempotent: a send retried under load (CI once saw partition 0 hold 10 records) writes each record once.
  producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  // 30 records in partition 1, 5 in partition 0.
  await producer.send({
    topic,
    messages: [
      ...Array.from({ length: 30 }, (_, index) => ({
        partition: 1,
        key: `k${index % 3}`,
        value: `v${index}`,
      })),
      ...Array.from({ length: 5 }, (_, index) => ({ partition: 0, key: 'other', value: `p0-${index}` })),
    ],
  })
  reader = createPartitionReader(kafka)
})

afterAll(async () => {
  await reader.close()
  await producer.disconnect()
  await admin.deleteTopics([topic])
  await admin.close()
})

describe('partition reader', () => {
  it('reads exactly the records of one partition in [from, to), in order', async () => {
    const read: ReadRecord[] = []
    const complete = await reader.read(
      { topic, partition: 1, from: 10, to: 20 },
      (record) => read.push(record),
      20_000,
    )
    expect(complete).toBe(true)
    expect(read.map((record) => record.offset)).toEqual(Array.from({ length: 10 }, (_, index) => 10 + index))
    expect(read.map((record) => record.value?.toString())).toEqual(
      Array.from({ length: 10 }, (_, index) => `v${10 + index}`),
    )
    expect(read[0]?.key).toBe('k1')
  })

  it('an empty range is read at once; a range past the end is not complete before the timeout', async () => {
    expect(await reader.read({ topic, partition: 1, from: 5, to: 5 }, () => undefined, 1)).toBe(true)
    const read: number[] = []
    expect(
      await reader.read(
        { topic, partition: 0, from: 3, to: 50 },
        (record) => read.push(record.offset),
        3_000,
      ),
    ).toBe(false)
    expect(read).toEqual([3, 4])
  })

  it("a group's committed offset, or the first kept record for a group that never committed", async () => {
    const groupId = uniqueName('partition-reader-group')
    expect(await reader.committedOffset(groupId, topic, 1)).toBe(0)
    const kafkaAdmin = kafka.admin()
    await kafkaAdmin.connect()
    try {
      await kafkaAdmin.setOffsets({ groupId, topic, partitions: [{ partition: 1, offset: '17' }] })
    } finally {
      await kafkaAdmin.disconnect()
    }
    expect(await reader.committedOffset(groupId, topic, 1)).toBe(17)
    expect(await reader.committedOffset(groupId, topic, 0)).toBe(0)
  })
})
