import type { OutgoingEvent } from '@memory-service/domain'
import { Partitioners, type IHeaders, type Kafka, type Producer } from 'kafkajs'
import {
  kafkaProduceDuration,
  kafkaProducedRecords,
  secondsSince,
  withTraceHeaders,
  type SchemaCodec,
} from '@memory-service/engines'

/** Header that carries the request's correlation id from the API into background work and its logs. */
export const CORRELATION_ID_HEADER = 'x-correlation-id'

/** Where a batch landed: the first offset written in each partition it touched. */
export interface AppendedBatch {
  partition: number
  baseOffset: string
}

/** An event encoded for the log: its bytes and its partition are final. */
export interface EncodedEvent {
  key: string
  value: Buffer
  headers: Record<string, string>
  partition: number
}

/** Where one record landed. */
export interface RecordPosition {
  partition: number
  offset: number
  /**
   * The first offset the same produce request wrote in this partition: records between it and this one came from
   * the same request.
   */
  batchStart: number
}

/** Where a produce request's records landed: the first offset written in each topic-partition. */
export interface ProducedBatch {
  topic: string
  partition: number
  baseOffset: string
}

export interface EventProducer {
  /**
   * Appends events to a topic, each encoded with its subject's registered schema, and resolves only after every
   * in-sync replica has them (acks=all).
   */
  append(topic: string, events: OutgoingEvent[]): Promise<AppendedBatch[]>
  /** Appends to several topics in one request (acks=all); all of it is written or the call fails. */
  appendMany(batches: { topic: string; events: OutgoingEvent[] }[]): Promise<void>
  /**
   * Validates and encodes events with their subjects' schemas and picks their partitions (murmur2 of the key, the
   * Java client's rule), without sending: encoding can then happen while an earlier request is in flight, and the
   * caller can tell where each record landed from the produce response.
   * @throws SchemaValidationError when a payload does not match its schema
   */
  encode(topic: string, events: OutgoingEvent[]): Promise<EncodedEvent[]>
  /**
   * Sends encoded events to several topics in one request (acks=all); all of it is written or the call fails.
   * Within a topic-partition the records keep the order given, from the returned base offset on.
   */
  sendEncoded(batches: { topic: string; messages: EncodedEvent[] }[]): Promise<ProducedBatch[]>
  /** Appends records whose bytes are already final (a dead letter keeps the original value as it was). */
  forward(topic: string, records: { key: Buffer | null; value: Buffer; headers: IHeaders }[]): Promise<void>
  close(): Promise<void>
}

export async function createEventProducer(kafka: Kafka, codec: SchemaCodec): Promise<EventProducer> {
  // The idempotent producer removes duplicates caused by its own retries; client retries are handled by event ids.
  // The default partitioner is murmur2, the Java client's: a key lands on the same partition whichever client wrote it.
  const producer: Producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  })
  await producer.connect()
  // Partitions are picked here rather than by kafkajs, with the same partitioner, so that a caller knows them.
  const admin = kafka.admin()
  await admin.connect()
  const partitioners = new Map<string, Promise<(key: string) => number>>()
  const partitionerOf = (topic: string): Promise<(key: string) => number> => {
    let found = partitioners.get(topic)
    if (!found) {
      found = admin.fetchTopicMetadata({ topics: [topic] }).then(({ topics }) => {
        const partitionMetadata = (topics[0]?.partitions ?? []).map((partition) => ({
          ...partition,
          leader: Math.max(partition.leader, 0),
        }))
        const pick = Partitioners.DefaultPartitioner()
        // Keys repeat (a conversation, a document): hashing each once is cheaper than hashing every record.
        const known = new Map<string, number>()
        return (key: string) => {
          let partition = known.get(key)
          if (partition === undefined) {
            partition = pick({ topic, partitionMetadata, message: { key, value: null } })
            if (known.size >= 10_000) known.clear()
            known.set(key, partition)
          }
          return partition
        }
      })
      found.catch(() => partitioners.delete(topic))
      partitioners.set(topic, found)
    }
    return found
  }
  const encode = async (topic: string, events: OutgoingEvent[]): Promise<EncodedEvent[]> => {
    const partitionOf = await partitionerOf(topic)
    // The trace of the work that appends (a request, a document in the pipeline) goes on with the records.
    const traceHeaders: Record<string, string> = {}
    withTraceHeaders(traceHeaders)
    return Promise.all(
      events.map(async (event) => ({
        key: event.key,
        value: await codec.encode(event.subject, event.payload),
        headers: { ...traceHeaders, ...event.headers, [CORRELATION_ID_HEADER]: event.correlationId },
        partition: partitionOf(event.key),
      })),
    )
  }
  /** One produce request, timed and counted. */
  const produce = async <T>(
    records: { topic: string; count: number }[],
    send: () => Promise<T>,
  ): Promise<T> => {
    const startedAt = performance.now()
    try {
      const result = await send()
      kafkaProduceDuration.observe({ outcome: 'ok' }, secondsSince(startedAt))
      for (const { topic, count } of records) kafkaProducedRecords.inc({ topic }, count)
      return result
    } catch (error) {
      kafkaProduceDuration.observe({ outcome: 'error' }, secondsSince(startedAt))
      throw error
    }
  }
  const sendEncoded = async (
    batches: { topic: string; messages: EncodedEvent[] }[],
  ): Promise<ProducedBatch[]> => {
    const byTopic = new Map<string, EncodedEvent[]>()
    for (const { topic, messages } of batches) {
      const list = byTopic.get(topic) ?? []
      for (const message of messages) list.push(message)
      byTopic.set(topic, list)
    }
    const topicMessages = [...byTopic]
      .filter(([, messages]) => messages.length > 0)
      .map(([topic, messages]) => ({ topic, messages }))
    if (topicMessages.length === 0) return []
    const metadata = await produce(
      topicMessages.map(({ topic, messages }) => ({ topic, count: messages.length })),
      () => producer.sendBatch({ acks: -1, topicMessages }),
    )
    return metadata.map((entry) => ({
      topic: entry.topicName,
      partition: entry.partition,
      baseOffset: entry.baseOffset ?? '0',
    }))
  }
  return {
    async append(topic, events) {
      if (events.length === 0) return []
      const messages = await encode(topic, events)
      const metadata = await produce([{ topic, count: messages.length }], () =>
        producer.send({ topic, acks: -1, messages }),
      )
      return metadata.map((entry) => ({ partition: entry.partition, baseOffset: entry.baseOffset ?? '0' }))
    },
    async appendMany(batches) {
      await sendEncoded(
        await Promise.all(
          batches.map(async ({ topic, events }) => ({ topic, messages: await encode(topic, events) })),
        ),
      )
    },
    encode,
    sendEncoded,
    async forward(topic, records) {
      if (records.length === 0) return
      await produce([{ topic, count: records.length }], () =>
        producer.send({ topic, acks: -1, messages: records }),
      )
    },
    async close() {
      await Promise.allSettled([producer.disconnect(), admin.disconnect()])
    },
  }
}
