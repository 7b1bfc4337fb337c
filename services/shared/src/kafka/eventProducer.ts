import { Partitioners, type IHeaders, type Kafka, type Producer } from 'kafkajs'
import type { SchemaCodec } from '../schemaRegistry/createSchemaCodec.js'

/** Header that carries the request's correlation id from the API into background work and its logs. */
export const CORRELATION_ID_HEADER = 'x-correlation-id'

export interface OutgoingEvent {
  /** Partitioning key: records with the same key keep their order (a conversation, a document). */
  key: string
  /** The schema-registry subject the payload is encoded with. */
  subject: string
  payload: unknown
  correlationId: string
  headers?: Record<string, string>
}

/** Where a batch landed: the first offset written in each partition it touched. */
export interface AppendedBatch {
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
  const encode = (events: OutgoingEvent[]) =>
    Promise.all(
      events.map(async (event) => ({
        key: event.key,
        value: await codec.encode(event.subject, event.payload),
        headers: { ...event.headers, [CORRELATION_ID_HEADER]: event.correlationId },
      })),
    )
  return {
    async append(topic, events) {
      if (events.length === 0) return []
      const messages = await encode(events)
      const metadata = await producer.send({ topic, acks: -1, messages })
      return metadata.map((entry) => ({ partition: entry.partition, baseOffset: entry.baseOffset ?? '0' }))
    },
    async appendMany(batches) {
      const byTopic = new Map<string, OutgoingEvent[]>()
      for (const { topic, events } of batches) byTopic.set(topic, [...(byTopic.get(topic) ?? []), ...events])
      const topicMessages = await Promise.all(
        [...byTopic]
          .filter(([, events]) => events.length > 0)
          .map(async ([topic, events]) => ({ topic, messages: await encode(events) })),
      )
      if (topicMessages.length === 0) return
      await producer.sendBatch({ acks: -1, topicMessages })
    },
    async forward(topic, records) {
      if (records.length === 0) return
      await producer.send({ topic, acks: -1, messages: records })
    },
    close: () => producer.disconnect(),
  }
}
