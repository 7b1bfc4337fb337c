import type { Consumer, ConsumerRunConfig, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs'
import type { Logger } from '@memory-service/engines'
import type { SchemaCodec } from '@memory-service/engines'
import {
  consumedBatchDuration,
  consumedRecordAge,
  consumedRecords,
  contextFrom,
  inSpan,
  isErasedContent,
  isKeyStoreUnavailable,
  isPermanentFailure,
  isTracing,
  secondsSince,
  SpanKind,
  tracer,
} from '@memory-service/engines'
import { CORRELATION_ID_HEADER } from './eventProducer.js'
import { idleFetchWaitMs } from './idleFetchWait.js'
import { restartWhenStoppedForGood } from './restartWhenStopped.js'

export interface ConsumedEvent<T> {
  topic: string
  partition: number
  offset: string
  key: string | null
  payload: T
  headers: Record<string, string>
  correlationId: string | undefined
  /** The record exactly as it is in the log, for dead-lettering it unchanged. */
  raw: { key: Buffer | null; value: Buffer; headers: IHeaders }
}

interface ConsumerBase<T> {
  kafka: Kafka
  codec: SchemaCodec
  logger: Logger
  /** Consumer group, named after the service that owns the work. */
  groupId: string
  topics: string[]
  fromBeginning?: boolean
  /**
   * Returns before the consumer has joined its group. Joining waits for the group's rebalance, which lasts until
   * every other member has finished its batch and joined again (up to the rebalance timeout); a process that serves
   * without this consumer need not wait for it. Only with `fromBeginning` (or a group with committed offsets):
   * a new group that starts from the end would miss what is appended while it joins.
   */
  joinInBackground?: boolean
  /** Partitions handled at once by this consumer (order is kept within each partition). */
  partitionsConsumedConcurrently?: number
  /**
   * Lets records gather before a fetch returns: at least `minBytes`, or whatever came within `maxWaitMs`. For a
   * handler whose every write has a fixed cost (a ClickHouse insert makes a part in each table and view), so a
   * trickle of records becomes one write a second instead of one per record. Default: a fetch returns at once.
   */
  fetchWindow?: { minBytes: number; maxWaitMs: number }
  /**
   * With `handle`: records of one partition handled at once (default 1, in order). Only for handlers whose records
   * are independent of each other; offsets are resolved in order either way.
   */
  handleConcurrency?: number
  /**
   * A record the schema registry cannot decode will never decode: it is handed here (to be dead-lettered) and
   * skipped. Without this option the consumer stops on it.
   */
  onUndecodable?(record: Omit<ConsumedEvent<never>, 'payload'>, error: unknown): Promise<void>
  /**
   * A record whose application fails for good (`isPermanentFailure`: an engine refused what it holds) is handed
   * here (to be dead-lettered) and passed over, so that one record never stops the others. Failures that may pass
   * (an engine down, overload) are retried as before. Without this option the consumer stops on it.
   */
  onRejected?: (event: ConsumedEvent<T>, error: unknown) => Promise<void>
}

export type EventConsumerOptions<T> = ConsumerBase<T> &
  (
    | {
        /** Applies one event. The offset is resolved only after it returns, so a crash replays the event. */
        handle(event: ConsumedEvent<T>, log: Logger): Promise<void>
      }
    | {
        /** Applies every event of a fetched batch at once (bulk writes); offsets are resolved after it returns. */
        handleBatch(events: ConsumedEvent<T>[], log: Logger): Promise<void>
      }
  )

export interface EventConsumer {
  close(): Promise<void>
}

/** Spans one applied batch adds at most, one per trace among its records. */
const maxTracesPerBatch = 100
const resumedFetchWaitMs = 100
const slotWaitBeatMs = 1_000
/** A record whose handling failed is fetched again after 1 s, then 2, 4… up to 30 s while it keeps failing. */
const retryBaseMs = 1_000
const retryMaxMs = 30_000

const partitionKey = (topic: string, partition: number) => `${topic}/${String(partition)}`

/** At most `size` holders at once; the others wait in order. */
function createSlots(size: number) {
  let held = 0
  const waiting: (() => void)[] = []
  return {
    async acquire(whileWaiting: () => Promise<void>): Promise<void> {
      if (held < size) {
        held += 1
        return
      }
      const turn = new Promise<'acquired'>((resolve) => waiting.push(() => resolve('acquired')))
      const beat = () =>
        new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), slotWaitBeatMs).unref())
      while ((await Promise.race([turn, beat()])) === 'waiting') await whileWaiting().catch(() => undefined)
    },
    release(): void {
      const nextHolder = waiting.shift()
      if (nextHolder) nextHolder()
      else held -= 1
    },
  }
}

/** Kafka headers as text: the first value of each (what our producers write: one value per name). */
export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value
    if (first !== undefined) result[name] = first.toString()
  }
  return result
}

/**
 * Decodes schema-registry framed events and hands them to the handler, resolving offsets only after the handler's
 * write. A handler that throws stops the batch; its partition is fetched again from the first unresolved offset after
 * a pause that grows while the failures repeat (1 s → 30 s), whatever the error.
 */
export async function createEventConsumer<T>(options: EventConsumerOptions<T>): Promise<EventConsumer> {
  const consumer: Consumer = options.kafka.consumer({
    groupId: options.groupId,
    allowAutoTopicCreation: false,
    // A closing consumer whose last requests fail on its closing connections is not connected again by kafkajs.
    // Given `retry`, kafkajs no longer applies its consumers' default of 5 retries (the client's 8 would apply).
    retry: { retries: 5, restartOnFailure: async () => !closing },
    ...(options.fetchWindow
      ? { minBytes: options.fetchWindow.minBytes, maxWaitTimeInMs: options.fetchWindow.maxWaitMs }
      : 'handle' in options
        ? // Partitions paused while their records are handled are fetched again at the next fetch: a fetch
          // waits this long at most (a fetch with every partition paused sleeps this long).
          { maxWaitTimeInMs: resumedFetchWaitMs }
        : { maxWaitTimeInMs: idleFetchWaitMs }),
  })
  const subscribe = () =>
    consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning ?? false })
  await consumer.connect()
  await subscribe()
  const counted = {
    applied: consumedRecords.labels(options.groupId, 'applied'),
    erased: consumedRecords.labels(options.groupId, 'erased'),
  }
  const batchDuration = consumedBatchDuration.labels(options.groupId)
  const recordAge = consumedRecordAge.labels(options.groupId)
  const observeAge = (appendedAt: string) => {
    const ms = Date.now() - Number(appendedAt)
    if (Number.isFinite(ms)) recordAge.observe(Math.max(0, ms) / 1000)
  }
  const spanAttributes = (topic: string, partition: number) => ({
    'messaging.system': 'kafka',
    'messaging.destination.name': topic,
    'messaging.destination.partition.id': String(partition),
    'messaging.consumer.group.name': options.groupId,
  })

  async function decode(
    topic: string,
    partition: number,
    message: KafkaMessage & { value: Buffer },
  ): Promise<ConsumedEvent<T> | null> {
    const headers = headersToStrings(message.headers)
    const record = {
      topic,
      partition,
      offset: message.offset,
      key: message.key?.toString() ?? null,
      headers,
      correlationId: headers[CORRELATION_ID_HEADER],
      raw: { key: message.key ?? null, value: message.value, headers: message.headers ?? {} },
    }
    try {
      return { ...record, payload: await options.codec.decode<T>(message.value) }
    } catch (error) {
      // Its data subject was erased: there is nothing left to apply, and nothing of it may be dead-lettered.
      if (isErasedContent(error)) {
        counted.erased.inc()
        options.logger.debug(
          { topic, partition, offset: message.offset },
          'record of an erased user passed over',
        )
        return null
      }
      // The key store is down: the record is fine and opens once it answers (the batch is retried), never parked.
      if (isKeyStoreUnavailable(error)) throw error
      if (!options.onUndecodable) throw error
      options.logger.error({ err: error, topic, partition, offset: message.offset }, 'undecodable record')
      await options.onUndecodable(record, error)
      return null
    }
  }

  /**
   * Applies events with `apply`; when it fails for good, applies them one at a time (the handlers are idempotent)
   * and hands each event that still fails for good to `onRejected`. Any other failure is thrown (retried).
   */
  async function applyOrReject(
    events: ConsumedEvent<T>[],
    apply: (events: ConsumedEvent<T>[]) => Promise<void>,
    log: Logger,
  ): Promise<void> {
    const onRejected = options.onRejected
    try {
      await apply(events)
      counted.applied.inc(events.length)
      return
    } catch (error) {
      if (!onRejected || !isPermanentFailure(error)) throw error
    }
    for (const event of events) {
      try {
        await apply([event])
        counted.applied.inc()
      } catch (error) {
        if (!isPermanentFailure(error)) throw error
        log.error(
          { err: error, offset: event.offset, correlationId: event.correlationId },
          'record refused for good; handed over to the dead letters',
        )
        await onRejected(event, error)
      }
    }
  }

  /**
   * A batch applied at once belongs to every trace its records came with: one span in each (up to a bound), all
   * covering the batch's write.
   */
  function traceBatch(events: ConsumedEvent<T>[], startedAt: number): void {
    const startTime = performance.timeOrigin + startedAt
    const traces = new Map<string, ConsumedEvent<T>>()
    for (const event of events) {
      const traceparent = event.headers.traceparent
      if (traceparent !== undefined && !traces.has(traceparent)) traces.set(traceparent, event)
      if (traces.size >= maxTracesPerBatch) break
    }
    for (const event of traces.values()) {
      tracer()
        .startSpan(
          `process ${event.topic}`,
          {
            kind: SpanKind.CONSUMER,
            startTime,
            attributes: {
              ...spanAttributes(event.topic, event.partition),
              'memory_service.correlation_id': event.correlationId ?? '',
              'messaging.batch.message_count': events.length,
            },
          },
          contextFrom(event.headers),
        )
        .end()
    }
  }

  const slots = createSlots(options.partitionsConsumedConcurrently ?? 1)
  const handlings = new Set<Promise<void>>()
  const retryDelays = new Map<string, number>()
  /** Pending retries of partitions paused after a failed batch, cleared at close. */
  const retryTimers = new Set<NodeJS.Timeout>()
  // A join may hand a partition to another member: a batch started before it resolves no offset after it.
  let joins = 0
  consumer.on(consumer.events.GROUP_JOIN, () => {
    joins += 1
  })
  let closing = false

  /** 1 s, then twice the last pause of the partition, up to 30 s, while its failures repeat. */
  const nextRetryDelay = (topic: string, partition: number) => {
    const key = partitionKey(topic, partition)
    const delayMs = Math.min((retryDelays.get(key) ?? retryBaseMs / 2) * 2, retryMaxMs)
    retryDelays.set(key, delayMs)
    return delayMs
  }

  /** Decodes a fetched batch and applies it at once; throws when it could not be applied (fetched again). */
  async function handleWholeBatch(batch: EachBatchPayload['batch'], batchLog: Logger): Promise<void> {
    if (!('handleBatch' in options)) return
    const batchOptions = options
    const events: ConsumedEvent<T>[] = []
    for (const message of batch.messages) {
      if (message.value === null) continue
      const event = await decode(batch.topic, batch.partition, { ...message, value: message.value })
      if (event) events.push(event)
    }
    if (events.length === 0) return
    const startedAt = performance.now()
    await applyOrReject(events, (some) => batchOptions.handleBatch(some, batchLog), batchLog)
    batchDuration.observe(secondsSince(startedAt))
    const oldest = batch.messages[0]
    if (oldest) observeAge(oldest.timestamp)
    if (isTracing()) traceBatch(events, startedAt)
  }

  const runConfig: ConsumerRunConfig = {
    autoCommit: true,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
    eachBatch: async (context) => {
      const { batch } = context
      if (closing) {
        // Left for the next owner of the partition; not fetched again meanwhile.
        consumer.pause([{ topic: batch.topic, partitions: [batch.partition] }])
        return
      }
      const batchLog = options.logger.child({ topic: batch.topic, partition: batch.partition })
      const partition = [{ topic: batch.topic, partitions: [batch.partition] }]
      if ('handleBatch' in options) {
        try {
          await handleWholeBatch(batch, batchLog)
        } catch (error) {
          // Not thrown to kafkajs: after its few retries it stops the consumer, and for good when the error is one it
          // calls unrecoverable (a TypeError, such as fetch's when an engine is down). The partition is fetched again
          // from its first unresolved record after a pause instead, as in the handle mode.
          consumer.pause(partition)
          const delayMs = nextRetryDelay(batch.topic, batch.partition)
          batchLog.warn(
            { err: error, retryInMs: delayMs },
            'batch handling failed; fetched again after a pause',
          )
          const timer = setTimeout(() => {
            retryTimers.delete(timer)
            consumer.resume(partition)
          }, delayMs)
          retryTimers.add(timer)
          return
        }
        retryDelays.delete(partitionKey(batch.topic, batch.partition))
        const last = batch.messages.at(-1)
        if (last) context.resolveOffset(last.offset)
        await context.heartbeat()
        return
      }
      // The records are handled apart from kafkajs's fetch loop, which fetches again only once every batch it
      // handed out has returned: a slow record (a long document) would hold back every other partition. The
      // partition is paused instead until its batch is handled, so other partitions go on being fetched.
      // Every slot busy: this waits (the fetch loop with it), heartbeating so the group keeps this member.
      await slots.acquire(() => context.heartbeat())
      consumer.pause(partition)
      const generation = joins
      const handling = handlePartitionBatch(context, batchLog, () => generation === joins)
        .then(() => {
          retryDelays.delete(partitionKey(batch.topic, batch.partition))
        })
        .catch(async (error: unknown) => {
          // The first record not handled is fetched again after a pause that grows while failures repeat.
          const delayMs = nextRetryDelay(batch.topic, batch.partition)
          batchLog.warn(
            { err: error, retryInMs: delayMs },
            'record handling failed; fetched again after a pause',
          )
          if (!closing) await new Promise((resolve) => setTimeout(resolve, delayMs).unref())
        })
        .finally(() => {
          slots.release()
          handlings.delete(handling)
          consumer.resume(partition)
        })
      handlings.add(handling)
    },
  }
  const restarts = restartWhenStoppedForGood(consumer, {
    groupId: options.groupId,
    logger: options.logger,
    start: async () => {
      await subscribe()
      await consumer.run(runConfig)
    },
  })
  // A consumer closed while its join is pending would stay in the group, unheard, until its session expires,
  // holding the partitions it was assigned: it leaves only once it has joined (kafkajs's run has returned).
  const running = consumer.run(runConfig)
  let started: Promise<unknown> = running
  if (options.joinInBackground)
    started = running.catch((error: unknown) => {
      if (closing) return
      options.logger.error(
        { err: error, groupId: options.groupId },
        'consumer did not join its group; started again after a pause',
      )
      restarts.startLater()
    })
  else await running

  /**
   * Handles a batch of one partition, up to `window` records at once, resolving offsets in order only up to the
   * last record before which every record has been handled, and committing them. Throws the first failure after the
   * records in flight have finished (records after it that were handled are handled again, which every handler must
   * tolerate anyway).
   */
  async function handlePartitionBatch(
    context: EachBatchPayload,
    batchLog: Logger,
    stillOwned: () => boolean,
  ): Promise<void> {
    if (!('handle' in options)) return
    const handler = options
    const handleRecord = (event: ConsumedEvent<T>, log: Logger) => handler.handle(event, log)
    const { batch } = context
    const window = options.handleConcurrency ?? 1
    const done = new Set<string>()
    let next = 0
    const resolveContiguous = () => {
      // A partition handed to another member meanwhile (a rebalance) is theirs to resolve.
      if (!stillOwned()) return
      while (next < batch.messages.length && done.has(batch.messages[next]?.offset ?? '')) {
        context.resolveOffset(batch.messages[next]?.offset ?? '')
        next += 1
      }
    }
    const handleOne = async (message: KafkaMessage): Promise<void> => {
      if (message.value !== null) {
        const event = await decode(batch.topic, batch.partition, { ...message, value: message.value })
        if (event) {
          const log = batchLog.child({ offset: message.offset, correlationId: event.correlationId })
          const startedAt = performance.now()
          const apply = () =>
            applyOrReject([event], ([one]) => (one ? handleRecord(one, log) : Promise.resolve()), log)
          // The record's own trace (from its headers) goes on in the handler, and into what it appends.
          if (isTracing())
            await inSpan(
              `process ${batch.topic}`,
              {
                kind: SpanKind.CONSUMER,
                parent: contextFrom(event.headers),
                attributes: {
                  ...spanAttributes(batch.topic, batch.partition),
                  'memory_service.correlation_id': event.correlationId ?? '',
                },
              },
              apply,
            )
          else await apply()
          batchDuration.observe(secondsSince(startedAt))
          observeAge(message.timestamp)
        }
      }
      done.add(message.offset)
    }
    const inFlight = new Set<Promise<void>>()
    let failure: Error | undefined
    try {
      for (const message of batch.messages) {
        if (closing || !stillOwned() || failure !== undefined) break
        const running = handleOne(message).catch((error: unknown) => {
          failure ??= error instanceof Error ? error : new Error('record handler failed', { cause: error })
        })
        inFlight.add(running)
        void running.finally(() => inFlight.delete(running))
        if (inFlight.size >= window) await Promise.race(inFlight)
        resolveContiguous()
      }
      await Promise.all(inFlight)
      resolveContiguous()
    } finally {
      // kafkajs commits resolved offsets only after a batch's callback returns, which this one has done long ago.
      const handledThrough = batch.messages[next - 1]?.offset
      if (handledThrough !== undefined && stillOwned()) {
        await consumer
          .commitOffsets([
            { topic: batch.topic, partition: batch.partition, offset: String(BigInt(handledThrough) + 1n) },
          ])
          .catch((error: unknown) => batchLog.warn({ err: error }, 'offsets not committed; committed later'))
      }
    }
    if (failure !== undefined) throw failure
  }

  return {
    async close() {
      // Records being handled finish and are committed first; nothing new starts.
      closing = true
      restarts.stop()
      for (const timer of retryTimers) clearTimeout(timer)
      await started.catch(() => undefined)
      await Promise.allSettled([...handlings])
      await consumer.disconnect()
    },
  }
}
