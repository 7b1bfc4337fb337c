import { readContractSchema } from '@memory-service/contracts/files'
import { randomBytes } from 'node:crypto'
import type { Consumer, Kafka } from 'kafkajs'
import { AppError, invalidInput } from '@memory-service/domain'
import { createEventProducer, type AppendedBatch } from '../kafka/eventProducer.js'
import { idleFetchWaitMs } from '../kafka/idleFetchWait.js'
import { restartWhenStoppedForGood, type ConsumerRestarts } from '../kafka/restartWhenStopped.js'
import type { Logger } from '@memory-service/engines'
import { SchemaValidationError, type SchemaCodec, type SchemaRegistration } from '@memory-service/engines'
import {
  applyControlEvent,
  emptyControlState,
  type ControlEvent,
  type ControlState,
} from '@memory-service/domain'
import { CONTROL_TOPIC } from '@memory-service/domain'

const controlEventTitles: Record<ControlEvent['type'], string> = {
  instance_created: 'InstanceCreated',
  api_key_issued: 'ApiKeyIssued',
  api_key_rotated: 'ApiKeyRotated',
  api_key_revoked: 'ApiKeyRevoked',
  config_version_proposed: 'ConfigVersionProposed',
  config_version_reviewed: 'ConfigVersionReviewed',
  config_version_applied: 'ConfigVersionApplied',
  config_rebuild_changed: 'ConfigRebuildChanged',
  webhook_registered: 'WebhookRegistered',
  webhook_changed: 'WebhookChanged',
  webhook_deleted: 'WebhookDeleted',
}

/** Subjects follow Confluent's TopicRecordNameStrategy: one topic carries several event types. */
export function controlSubject(topic: string, type: ControlEvent['type']): string {
  return `${topic}-${controlEventTitles[type]}.v1`
}

export function controlEventSchemas(topic: string): SchemaRegistration[] {
  return (Object.keys(controlEventTitles) as ControlEvent['type'][]).map((type) => ({
    subject: controlSubject(topic, type),
    schema: readContractSchema(`events/${controlEventTitles[type]}.v1.schema.json`),
  }))
}

export interface ControlPlane {
  /** The read model, updated as events arrive from the topic (never written directly). */
  readonly state: ControlState
  /**
   * Appends events in one batch (one partition, so in order and together) and resolves once this process's read
   * model has applied them, so the caller reads its own write. Returns whether each event took effect.
   */
  append(events: ControlEvent[], correlationId: string): Promise<boolean[]>
  /**
   * Whether this process's read model applied the event at this offset of the control topic (false: read and
   * refused, such as a rebuild report of a runner that does not own the rebuild), or undefined while it has not
   * read it yet.
   */
  outcomeOf(eventId: string, offset: string): boolean | undefined
  close(): Promise<void>
}

export interface ControlPlaneOptions {
  kafka: Kafka
  codec: SchemaCodec
  logger: Logger
  topic?: string
  /** How long `append` waits for its events to come back through the topic. */
  readYourWriteTimeoutMs?: number
  /** How long a new reader may take to join its group and catch up before it is replaced (the last try gets 4×). */
  readerStartTimeoutMs?: number
}

/**
 * The control plane of instances, keys and configuration versions: the topic is the source of truth, and every process that needs the
 * read model rebuilds it from the first offset at start (the topic is small), then follows it. Resolves once the
 * read model has caught up with the end of the topic, so a restart never serves without its keys.
 */
export async function createControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const topic = options.topic ?? CONTROL_TOPIC
  const log = options.logger.child({ component: 'control-plane' })
  await options.codec.register(controlEventSchemas(topic))
  const state = emptyControlState()
  // Only refusals are remembered (they are rare), the most recent ones: an event read and not refused was applied.
  const refused = new Set<string>()
  const maxRefusalsRemembered = 10_000
  let appliedOffset = -1n
  const waiters: { offset: bigint; resolve: () => void }[] = []

  const admin = options.kafka.admin()
  await admin.connect()
  const [end] = await admin.fetchTopicOffsets(topic)
  await admin.disconnect()
  const catchUpTo = BigInt(end?.high ?? '0') - 1n

  const producer = await createEventProducer(options.kafka, options.codec)

  // A group of its own per process: each process reads the whole topic; nothing is committed. `run` resolves once
  // the group is joined; it is returned unawaited so the caller bounds the join too.
  const startReader = async (): Promise<{
    reader: Consumer
    joined: Promise<void>
    restarts: ConsumerRestarts
  }> => {
    const groupId = `control-plane-reader-${randomBytes(6).toString('hex')}`
    const reader: Consumer = options.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: idleFetchWaitMs,
    })
    // Without committed offsets a (re)join, say after a restart below, would start from the first offset: the
    // reader resumes after the last event it applied, and never applies one twice.
    reader.on(reader.events.GROUP_JOIN, () => {
      if (appliedOffset >= 0n) reader.seek({ topic, partition: 0, offset: String(appliedOffset + 1n) })
    })
    const subscribe = () => reader.subscribe({ topics: [topic], fromBeginning: true })
    const run = () =>
      reader.run({
        autoCommit: false,
        eachMessage: async ({ message }) => {
          if (BigInt(message.offset) <= appliedOffset) return
          if (message.value) {
            const event = await options.codec.decode<ControlEvent>(message.value)
            const outcome = applyControlEvent(state, event)
            if (!outcome.applied)
              log.warn(
                { event_id: event.event_id, type: event.type, reason: outcome.reason },
                'control event not applied',
              )
            if (!outcome.applied) {
              refused.add(event.event_id)
              if (refused.size > maxRefusalsRemembered) refused.delete(refused.values().next().value ?? '')
            }
          }
          appliedOffset = BigInt(message.offset)
          for (const waiter of waiters.filter((entry) => entry.offset <= appliedOffset)) {
            waiters.splice(waiters.indexOf(waiter), 1)
            waiter.resolve()
          }
        },
      })
    // A reader stopped for good (seen when Kafka restarts) would leave this process's read model where it was.
    const restarts = restartWhenStoppedForGood(reader, {
      groupId,
      logger: log,
      start: async () => {
        await subscribe()
        await run()
      },
    })
    await reader.connect()
    await subscribe()
    return { reader, joined: run(), restarts }
  }

  const waitForOffset = (offset: bigint, timeoutMs: number): Promise<void> =>
    offset <= appliedOffset
      ? Promise.resolve()
      : new Promise((resolveWait, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`control read model did not reach offset ${offset} in ${timeoutMs} ms`)),
            timeoutMs,
          )
          waiters.push({ offset, resolve: () => (clearTimeout(timer), resolveWait()) })
        })

  // Now and then a new group's join never completes (seen about once per CI run, a start hanging for a minute);
  // a reader that has not joined, or has read nothing, after a while is replaced by one in a new group. One that has
  // started reading is left to finish: the read model is not rebuilt twice.
  let { reader: consumer, joined, restarts } = await startReader()
  for (let attempt = 1; ; attempt += 1) {
    const budgetMs = (options.readerStartTimeoutMs ?? 15_000) * (attempt < 4 ? 1 : 4)
    try {
      await withinMs(budgetMs, 'control read model did not join its group', async () => {
        await joined
        await waitForOffset(catchUpTo, budgetMs)
      })
      break
    } catch (error) {
      if (appliedOffset >= 0n || attempt >= 4) throw error
      log.warn({ attempt }, 'control read model read nothing yet; joining again in a new group')
      // A consumer stuck in its join may not leave promptly either; it is abandoned after a bounded wait.
      restarts.stop()
      await withinMs(5_000, 'stuck reader did not leave', () => consumer.disconnect()).catch(() => undefined)
      ;({ reader: consumer, joined, restarts } = await startReader())
    }
  }
  log.info(
    { instances: state.instances.size, keys: state.keysById.size, offset: String(appliedOffset) },
    'control read model caught up',
  )

  return {
    state,
    async append(events, correlationId) {
      let written: AppendedBatch | undefined
      try {
        ;[written] = await producer.append(
          topic,
          events.map((event) => ({
            key: event.instance_id,
            subject: controlSubject(topic, event.type),
            payload: event,
            correlationId,
            headers: { 'event-type': event.type },
          })),
        )
      } catch (error) {
        // A payload the event schema refuses is bad input (say, a limit out of range), not an outage.
        if (error instanceof SchemaValidationError) {
          throw invalidInput(
            Object.fromEntries(
              error.paths.map((path) => [
                path.split(' ')[0]?.slice(1).replaceAll('/', '.') ?? '',
                path.split(' ').slice(1).join(' '),
              ]),
            ),
            'The change does not match its event schema',
          )
        }
        log.error({ err: error, correlationId }, 'control event append failed')
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'The event log is unavailable',
          { retry_after_seconds: 5, reason: 'kafka_unavailable' },
          { cause: error },
        )
      }
      const last = BigInt(written?.baseOffset ?? '0') + BigInt(events.length - 1)
      try {
        await waitForOffset(last, options.readYourWriteTimeoutMs ?? 15_000)
      } catch (error) {
        // Appended but not yet visible here: the change is durable and will apply; the caller may retry the read.
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'The change was recorded but is not visible yet',
          { retry_after_seconds: 2, reason: 'read_model_lagging' },
          { cause: error },
        )
      }
      return events.map((event) => !refused.has(event.event_id))
    },
    outcomeOf: (eventId, offset) => (BigInt(offset) <= appliedOffset ? !refused.has(eventId) : undefined),
    async close() {
      restarts.stop()
      await Promise.allSettled([consumer.disconnect(), producer.close()])
    },
  }
}

function withinMs<T>(ms: number, message: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} in ${ms} ms`)), ms)
  })
  return Promise.race([work(), expired]).finally(() => clearTimeout(timer))
}
