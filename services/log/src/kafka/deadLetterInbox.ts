import { Partitioners, type Kafka } from 'kafkajs'
import { DEAD_LETTER_TOPIC } from '@memory-service/domain'
import { headersToStrings } from './eventConsumer.js'
import type { SchemaCodec } from '@memory-service/engines'
import { CORRELATION_ID_HEADER } from './eventProducer.js'
import { deadLetterHeaders, type DeadLetterError } from './deadLetters.js'
import { createPartitionReader, type ReadRecord } from './partitionReader.js'

/** A parked record as an operator sees it: where it came from, who gave up on it and why. */
export interface DeadLetter {
  /** Where the letter is in the dead-letter topic: `<partition>:<offset>`. */
  id: string
  original: { topic: string; partition: number; offset: string; key: string | null }
  consumer_group: string
  errors: DeadLetterError[]
  failed_at: string
  correlation_id: string | null
  /** Set on a letter that is itself a redriven record that failed again: the letter it came from. */
  redriven_from: string | null
}

/** Header a redriven record carries: the id of the letter it was redriven from. */
export const REDRIVEN_FROM_HEADER = 'dlq-redriven-from'

export interface DeadLetterInbox {
  /** Every letter, oldest first; `group` keeps those of one consumer group. */
  list(filter?: { group?: string }): Promise<DeadLetter[]>
  /** One letter with its record decoded (or the reason it does not decode); undefined when there is none. */
  show(id: string): Promise<(DeadLetter & { payload: unknown; payload_error?: string }) | undefined>
  /**
   * Appends the letter's record, bytes and headers unchanged, to its original topic again, so that every consumer of
   * that topic reads it once more (they are idempotent); a record that still fails is parked again, naming this
   * letter in `redriven_from`.
   */
  redrive(id: string): Promise<{ topic: string; partition: number; offset: string } | undefined>
  close(): Promise<void>
}

type Letter = DeadLetter & { raw: ReadRecord & { headers: Record<string, string> } }

function letterOf(partition: number, record: ReadRecord): Letter {
  const headers = headersToStrings(record.headers)
  let errors: DeadLetterError[] = []
  try {
    errors = JSON.parse(headers[deadLetterHeaders.errors] ?? '[]') as DeadLetterError[]
  } catch {
    errors = [
      { stage: 'unknown', code: 'UNREADABLE_ERRORS', message: headers[deadLetterHeaders.errors] ?? '' },
    ]
  }
  return {
    id: `${String(partition)}:${String(record.offset)}`,
    original: {
      topic: headers[deadLetterHeaders.topic] ?? '',
      partition: Number(headers[deadLetterHeaders.partition] ?? -1),
      offset: headers[deadLetterHeaders.offset] ?? '',
      key: record.key ?? null,
    },
    consumer_group: headers[deadLetterHeaders.consumerGroup] ?? '',
    errors,
    failed_at: headers[deadLetterHeaders.failedAt] ?? '',
    correlation_id: headers[CORRELATION_ID_HEADER] ?? null,
    redriven_from: headers[REDRIVEN_FROM_HEADER] ?? null,
    raw: { ...record, headers },
  }
}

const publicLetter = ({ raw: _raw, ...letter }: Letter): DeadLetter => letter

/** The dead-letter topic for operators: list, show and redrive (`memory-service dead-letters`). */
export function createDeadLetterInbox(options: {
  kafka: Kafka
  codec: SchemaCodec
  topic?: string
  timeoutMs?: number
}): DeadLetterInbox {
  const topic = options.topic ?? DEAD_LETTER_TOPIC
  const timeoutMs = options.timeoutMs ?? 30_000
  const reader = createPartitionReader(options.kafka)
  const producer = options.kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    // murmur2 as everywhere else: the record goes back to the partition of its key.
    createPartitioner: Partitioners.DefaultPartitioner,
  })
  let connected: Promise<void> | undefined

  async function readAll(only?: { partition: number; offset: number }): Promise<Letter[]> {
    const admin = options.kafka.admin()
    await admin.connect()
    let ends: { partition: number; low: string; high: string }[]
    try {
      ends = await admin.fetchTopicOffsets(topic)
    } finally {
      await admin.disconnect()
    }
    const letters: Letter[] = []
    for (const { partition, low, high } of ends.sort((a, b) => a.partition - b.partition)) {
      if (only && only.partition !== partition) continue
      const from = only ? only.offset : Number(low)
      const to = only ? Math.min(only.offset + 1, Number(high)) : Number(high)
      const complete = await reader.read(
        { topic, partition, from, to },
        (record) => letters.push(letterOf(partition, record)),
        timeoutMs,
      )
      if (!complete) throw new Error(`the dead-letter topic could not be read within ${String(timeoutMs)} ms`)
    }
    return letters
  }

  async function find(id: string): Promise<Letter | undefined> {
    const match = /^(\d+):(\d+)$/.exec(id)
    if (!match) return undefined
    const [letter] = await readAll({ partition: Number(match[1]), offset: Number(match[2]) })
    return letter
  }

  return {
    async list(filter = {}) {
      const letters = await readAll()
      return letters
        .filter((letter) => filter.group === undefined || letter.consumer_group === filter.group)
        .map(publicLetter)
    },
    async show(id) {
      const letter = await find(id)
      if (!letter) return undefined
      try {
        const payload = letter.raw.value ? await options.codec.decode(letter.raw.value) : null
        return { ...publicLetter(letter), payload }
      } catch (error) {
        return {
          ...publicLetter(letter),
          payload: letter.raw.value?.toString('base64') ?? null,
          payload_error: error instanceof Error ? error.message : String(error),
        }
      }
    },
    async redrive(id) {
      const letter = await find(id)
      if (!letter?.original.topic) return undefined
      connected ??= producer.connect()
      await connected
      // The original headers go back as they were (the correlation id included); the letter's own are dropped.
      const parked = new Set<string>(Object.values(deadLetterHeaders))
      const headers = Object.fromEntries(
        Object.entries(letter.raw.headers).filter(
          ([name]) => !parked.has(name) && name !== REDRIVEN_FROM_HEADER,
        ),
      )
      const [written] = await producer.send({
        topic: letter.original.topic,
        acks: -1,
        messages: [
          {
            key: letter.raw.rawKey,
            value: letter.raw.value,
            headers: { ...headers, [REDRIVEN_FROM_HEADER]: letter.id },
          },
        ],
      })
      return {
        topic: letter.original.topic,
        partition: written?.partition ?? -1,
        offset: written?.baseOffset ?? '',
      }
    },
    async close() {
      await reader.close()
      if (connected) await producer.disconnect()
    },
  }
}
