import { Partitioners, type Producer } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig, testLogger, uniqueName } from '../../../../test/support/testEngines.js'
import { consumerLag, createConsumerLagReader } from './consumerLag.js'
import { createKafka } from '@memory-service/engines'
import { createTopicAdmin, type TopicAdmin } from '@memory-service/engines'

const config = testConfig()
const logger = testLogger()
const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'consumer-lag-int-test', logger })
const topic = uniqueName('mem.test-lag.v1')
const otherTopic = uniqueName('mem.test-lag-other.v1')

let topicAdmin: TopicAdmin
let producer: Producer

/** Writes `count` records to one partition, so the high watermark of each partition is known exactly. */
async function produce(to: string, partition: number, count: number): Promise<void> {
  await producer.send({
    topic: to,
    acks: -1,
    messages: Array.from({ length: count }, (_, index) => ({ partition, value: `record ${String(index)}` })),
  })
}

/** Commits offsets for a group that has no members, as a consumer that processed records up to them would. */
async function commit(groupId: string, to: string, partitions: { partition: number; offset: string }[]) {
  const admin = kafka.admin()
  await admin.connect()
  try {
    await admin.setOffsets({ groupId, topic: to, partitions })
  } finally {
    await admin.disconnect()
  }
}

beforeAll(async () => {
  topicAdmin = await createTopicAdmin(kafka)
  await topicAdmin.ensureTopics([
    { name: topic, partitions: 2, config: {} },
    { name: otherTopic, partitions: 1, config: {} },
  ])
  producer = kafka.producer({
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  })
  await producer.connect()
  await produce(topic, 0, 7)
  await produce(topic, 1, 5)
  await produce(otherTopic, 0, 4)
})

afterAll(async () => {
  await producer.disconnect()
  await topicAdmin.deleteTopics([topic, otherTopic])
  await topicAdmin.close()
})

describe('consumer lag against Kafka', () => {
  it('is the high watermark minus the committed offset, each partition without an offset counting whole', async () => {
    const groupId = uniqueName('lag-int-partial')
    await commit(groupId, topic, [{ partition: 0, offset: '3' }])
    expect(await consumerLag(kafka, [{ group: groupId, topics: [topic] }])).toEqual([
      // partition 0: 7 − 3; partition 1: nothing committed, 5 − 0.
      {
        group: groupId,
        lag: 9,
        no_committed_offsets: false,
        topics: [
          {
            topic,
            lag: 9,
            partitions: [
              { partition: 0, lag: 4 },
              { partition: 1, lag: 5 },
            ],
          },
        ],
      },
    ])
  })

  it('breaks the lag down per topic, and reports a group that committed nothing', async () => {
    const caughtUp = uniqueName('lag-int-two-topics')
    await commit(caughtUp, topic, [
      { partition: 0, offset: '7' },
      { partition: 1, offset: '2' },
    ])
    await commit(caughtUp, otherTopic, [{ partition: 0, offset: '1' }])
    const fresh = uniqueName('lag-int-fresh')
    expect(
      await consumerLag(kafka, [
        { group: caughtUp, topics: [topic, otherTopic] },
        { group: fresh, topics: [topic] },
      ]),
    ).toEqual([
      {
        group: caughtUp,
        lag: 6,
        no_committed_offsets: false,
        topics: [
          {
            topic,
            lag: 3,
            partitions: [
              { partition: 0, lag: 0 },
              { partition: 1, lag: 3 },
            ],
          },
          { topic: otherTopic, lag: 3, partitions: [{ partition: 0, lag: 3 }] },
        ],
      },
      {
        group: fresh,
        lag: 12,
        no_committed_offsets: true,
        topics: [
          {
            topic,
            lag: 12,
            partitions: [
              { partition: 0, lag: 7 },
              { partition: 1, lag: 5 },
            ],
          },
        ],
      },
    ])
  })

  it('follows new records and commits with one reader kept across reads', async () => {
    const groupId = uniqueName('lag-int-reader')
    const reader = createConsumerLagReader(kafka)
    try {
      const watched = [{ group: groupId, topics: [otherTopic] }]
      await commit(groupId, otherTopic, [{ partition: 0, offset: '4' }])
      expect(await reader.read(watched)).toMatchObject([{ group: groupId, lag: 0 }])
      await produce(otherTopic, 0, 6)
      expect(await reader.read(watched)).toMatchObject([{ group: groupId, lag: 6 }])
      await commit(groupId, otherTopic, [{ partition: 0, offset: '8' }])
      expect(await reader.read(watched)).toMatchObject([{ group: groupId, lag: 2 }])
    } finally {
      await reader.close()
    }
  })

  it('reports a missing topic as an error of the groups reading it only', async () => {
    const missing = uniqueName('mem.test-lag-missing.v1')
    const groupId = uniqueName('lag-int-missing')
    const [broken, fine] = await consumerLag(kafka, [
      { group: groupId, topics: [missing] },
      { group: groupId, topics: [otherTopic] },
    ])
    expect(broken).toEqual({ group: groupId, error: expect.stringContaining(missing) as string })
    expect(fine).toMatchObject({ group: groupId, no_committed_offsets: true })
  })

  it('answers within its time limit with an error per group when Kafka does not answer', async () => {
    const unreachable = createKafka({ brokers: ['127.0.0.1:1'], clientId: 'consumer-lag-int-down', logger })
    const started = Date.now()
    const lag = await consumerLag(
      unreachable,
      [
        { group: 'memory-pipeline', topics: [topic] },
        { group: 'memory-projector-graph', topics: [topic] },
      ],
      { timeoutMs: 1000 },
    )
    expect(Date.now() - started).toBeLessThan(2500)
    expect(lag).toEqual([
      { group: 'memory-pipeline', error: expect.any(String) as string },
      { group: 'memory-projector-graph', error: expect.any(String) as string },
    ])
  })
})
