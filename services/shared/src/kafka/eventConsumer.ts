import type { Consumer, IHeaders, Kafka } from 'kafkajs'
import type { Logger } from '../logging/createLogger.js'
import type { SchemaCodec } from '../schemaRegistry/createSchemaCodec.js'
import { CORRELATION_ID_HEADER } from './eventProducer.js'

export interface ConsumedEvent<T> {
  topic: string
  partition: number
  offset: string
  key: string | null
  payload: T
  headers: Record<string, string>
  correlationId: string | undefined
}

export interface EventConsumerOptions<T> {
  kafka: Kafka
  codec: SchemaCodec
  logger: Logger
  /** Consumer group, named after the service that owns the work. */
  groupId: string
  topics: string[]
  fromBeginning?: boolean
  /** Applies one event. The offset is resolved only after it returns, so a crash replays the event. */
  handle(event: ConsumedEvent<T>, log: Logger): Promise<void>
}

export interface EventConsumer {
  close(): Promise<void>
}

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value
    if (first !== undefined) result[name] = first.toString()
  }
  return result
}

/**
 * Decodes schema-registry framed events and hands them to `handle` one by one, resolving each offset after the
 * handler's write. A handler that throws stops the batch; kafkajs retries from the unresolved offset.
 */
export async function createEventConsumer<T>(options: EventConsumerOptions<T>): Promise<EventConsumer> {
  const consumer: Consumer = options.kafka.consumer({
    groupId: options.groupId,
    allowAutoTopicCreation: false,
  })
  await consumer.connect()
  await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning ?? false })
  await consumer.run({
    autoCommit: true,
    eachBatchAutoResolve: false,
    eachBatch: async (context) => {
      const { batch } = context
      for (const message of batch.messages) {
        if (!context.isRunning() || context.isStale()) break
        const headers = headersToStrings(message.headers)
        const correlationId = headers[CORRELATION_ID_HEADER]
        const log = options.logger.child({
          topic: batch.topic,
          partition: batch.partition,
          offset: message.offset,
          correlationId,
        })
        if (message.value === null) {
          context.resolveOffset(message.offset)
          continue
        }
        const payload = await options.codec.decode<T>(message.value)
        await options.handle(
          {
            topic: batch.topic,
            partition: batch.partition,
            offset: message.offset,
            key: message.key?.toString() ?? null,
            payload,
            headers,
            correlationId,
          },
          log,
        )
        context.resolveOffset(message.offset)
        await context.heartbeat()
      }
    },
  })
  return { close: () => consumer.disconnect() }
}
