import { consumedRecords } from '@memory-service/engines'
import type { IHeaders } from 'kafkajs'
import type { EventProducer } from './eventProducer.js'
import { DEAD_LETTER_TOPIC } from '@memory-service/domain'

/** Header names of a dead letter; the original headers (correlation id included) are kept beside them. */
export const deadLetterHeaders = {
  topic: 'dlq-original-topic',
  partition: 'dlq-original-partition',
  offset: 'dlq-original-offset',
  consumerGroup: 'dlq-consumer-group',
  errors: 'dlq-errors',
  failedAt: 'dlq-failed-at',
} as const

export interface DeadLetterError {
  stage: string
  code: string
  message: string
  attempts?: number
}

export interface FailedRecord {
  topic: string
  partition: number
  offset: string
  raw: { key: Buffer | null; value: Buffer; headers: IHeaders }
}

export interface DeadLetterWriter {
  /** Parks a record that keeps failing: original key, value and headers unchanged, plus where it came from and why. */
  write(record: FailedRecord, errors: DeadLetterError[]): Promise<void>
}

export function createDeadLetterWriter(
  producer: EventProducer,
  consumerGroup: string,
  now: () => Date = () => new Date(),
): DeadLetterWriter {
  // Every dead letter of the group passes here, whichever path parked it (a pipeline stage, a store's refusal).
  const parked = consumedRecords.labels(consumerGroup, 'dead_lettered')
  return {
    async write(record, errors) {
      await producer.forward(DEAD_LETTER_TOPIC, [
        {
          key: record.raw.key,
          value: record.raw.value,
          headers: {
            ...record.raw.headers,
            [deadLetterHeaders.topic]: record.topic,
            [deadLetterHeaders.partition]: String(record.partition),
            [deadLetterHeaders.offset]: record.offset,
            [deadLetterHeaders.consumerGroup]: consumerGroup,
            [deadLetterHeaders.errors]: JSON.stringify(errors),
            [deadLetterHeaders.failedAt]: now().toISOString(),
          },
        },
      ])
      parked.inc()
    },
  }
}
