import { randomBytes } from 'node:crypto'
import type { Consumer, IHeaders, Kafka } from 'kafkajs'
import type { Logger } from '@memory-service/engines'
import { restartWhenStoppedForGood } from '../kafka/restartWhenStopped.js'
import {
  createDedupeWindow,
  eventIdentity,
  type DedupeWindowStats,
  type LogPosition,
} from '@memory-service/domain'

/**
 * The header the recorder writes so that readers learn an event's identity without decoding its payload: the
 * client's event_id, empty when the client gave none.
 */
export const CLIENT_EVENT_ID_HEADER = 'client-event-id'

export interface EventIdTailOptions {
  kafka: Kafka
  topic: string
  logger: Logger
  /** How far back event ids are remembered. */
  windowMs: number
  /** Event ids remembered at most (memory bound). */
  maxEntries: number
  now?: () => number
}

export interface EventIdTail {
  /** Resolves once the window holds the log as it was when the tail started (the rebuild after a start). */
  readonly ready: Promise<void>
  /** The position of the first record of an event identity, as far as this process has read the log. */
  firstOf(identity: string): LogPosition | undefined
  /** Resolves once every record of the partition before `offset` was read (at once when it already was). */
  readUpTo(partition: number, offset: number): Promise<void>
  stats(): DedupeWindowStats & { caughtUp: boolean }
  close(): Promise<void>
}

function header(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name]
  const first = Array.isArray(value) ? value[0] : value
  return first === undefined ? undefined : first.toString()
}

/** Records written before the identity headers existed: the client's id is in the (schema-registry framed) payload. */
function clientEventIdOf(value: Buffer | null): string | undefined {
  if (!value || value.length <= 5) return undefined
  try {
    const payload = JSON.parse(value.subarray(5).toString('utf8')) as { client_event_id?: unknown }
    return typeof payload.client_event_id === 'string' ? payload.client_event_id : undefined
  } catch {
    return undefined
  }
}

/**
 * Follows the conversation-events topic in every gateway and keeps the dedupe window: at start it reads the last
 * `windowMs` of every partition (so a restarted gateway knows what was recorded before it), then it follows the log
 * and reports each of this process's own records as it reads them back. A consumer group of its own per process
 * (every gateway reads every partition); nothing is committed.
 */
export async function createEventIdTail(options: EventIdTailOptions): Promise<EventIdTail> {
  const now = options.now ?? Date.now
  const log = options.logger.child({ component: 'event-id-tail' })
  const window = createDedupeWindow({ windowMs: options.windowMs, maxEntries: options.maxEntries, now })
  /** Callers waiting for a partition to be read up to an offset. */
  const waiting = new Map<number, { offset: number; resolve: () => void }[]>()
  /** Next offset to read per partition (where a re-join resumes). */
  const next = new Map<number, number>()
  const started = now()

  const admin = options.kafka.admin()
  await admin.connect()
  let ends: { partition: number; high: string }[]
  let starts: { partition: number; offset: string }[]
  try {
    ends = await admin.fetchTopicOffsets(options.topic)
    starts = await admin.fetchTopicOffsetsByTimestamp(options.topic, started - options.windowMs)
  } finally {
    await admin.disconnect()
  }
  for (const { partition, offset } of starts) next.set(partition, Number(offset))
  const catchUpTo = new Map(ends.map(({ partition, high }) => [partition, Number(high)]))
  let caughtUp = false
  let markReady!: () => void
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  const checkCaughtUp = (): void => {
    if (caughtUp) return
    for (const [partition, high] of catchUpTo) if ((next.get(partition) ?? 0) < high) return
    caughtUp = true
    log.info(
      { ...window.stats(), window_ms: options.windowMs, rebuild_ms: now() - started },
      'event id window rebuilt from the log',
    )
    markReady()
  }

  const groupId = `event-id-tail-${randomBytes(6).toString('hex')}`
  const consumer: Consumer = options.kafka.consumer({
    groupId,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 1000,
  })
  // Without committed offsets a (re)join would start from the first offset: resume where this process stands.
  consumer.on(consumer.events.GROUP_JOIN, () => {
    for (const [partition, offset] of next)
      consumer.seek({ topic: options.topic, partition, offset: String(offset) })
  })
  const run = () =>
    consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          const offset = Number(message.offset)
          next.set(batch.partition, offset + 1)
          const key = message.key?.toString('utf8')
          const slash = key?.indexOf('/') ?? -1
          // Every record the recorder writes carries the header (empty without a client id); one without it was
          // written before the header existed, and only the rebuild after a start can meet such a record.
          const clientEventId =
            header(message.headers, CLIENT_EVENT_ID_HEADER) ??
            (caughtUp ? undefined : clientEventIdOf(message.value))
          if (!key || slash < 0 || !clientEventId) continue
          window.observe(
            eventIdentity(key.slice(0, slash), key.slice(slash + 1), clientEventId),
            { partition: batch.partition, offset },
            Number(message.timestamp),
          )
        }
        const waiters = waiting.get(batch.partition)
        if (waiters) {
          const read = next.get(batch.partition) ?? 0
          const done = waiters.filter((waiter) => waiter.offset <= read)
          if (done.length === waiters.length) waiting.delete(batch.partition)
          else
            waiting.set(
              batch.partition,
              waiters.filter((waiter) => waiter.offset > read),
            )
          for (const waiter of done) waiter.resolve()
        }
        checkCaughtUp()
      },
    })
  const subscribeAndRun = async (): Promise<void> => {
    await consumer.subscribe({ topics: [options.topic], fromBeginning: true })
    await run()
  }
  // A tail stopped for good (seen when Kafka restarts) would leave the writer waiting to read its own records back.
  const restarts = restartWhenStoppedForGood(consumer, {
    groupId,
    logger: log,
    start: subscribeAndRun,
  })
  await consumer.connect()
  await subscribeAndRun()
  checkCaughtUp()

  return {
    ready,
    firstOf: (identity) => window.firstOf(identity),
    readUpTo(partition, offset) {
      if ((next.get(partition) ?? 0) >= offset) return Promise.resolve()
      return new Promise((resolve) => {
        const waiters = waiting.get(partition) ?? []
        waiters.push({ offset, resolve })
        waiting.set(partition, waiters)
      })
    },
    stats: () => ({ ...window.stats(), caughtUp }),
    close: () => {
      restarts.stop()
      return consumer.disconnect()
    },
  }
}
