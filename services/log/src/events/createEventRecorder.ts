import { randomBytes } from 'node:crypto'
import type { ConversationEvent, EventBatchResponse } from '@memory-service/contracts'
import { AppError } from '@memory-service/domain'
import type { EventAppender } from '../kafka/coalescingAppender.js'
import type { RecordPosition } from '../kafka/eventProducer.js'
import type { Logger } from '@memory-service/engines'
import {
  CONVERSATION_EVENT_SUBJECT,
  CONVERSATION_EVENTS_TOPIC,
  conversationKey,
  toRecordedEvent,
  validateConversationEvent,
  type EventResult,
} from '@memory-service/domain'
import { eventIdentity } from '@memory-service/domain'
import { CLIENT_EVENT_ID_HEADER, type EventIdTail } from './eventIdTail.js'

export interface EventRecorderOptions {
  /** Appends with acks=all; concurrent appends of the process share one produce request. */
  appender: EventAppender
  /** The log as this process has read it back: which event ids were recorded, and in which order. */
  recorded: Pick<EventIdTail, 'ready' | 'firstOf' | 'readUpTo'>
  logger: Logger
  topic?: string
  now?: () => number
  newEventId?: () => string
  /** How long an answer waits for its records to come back through the log. @default 10000 */
  readBackTimeoutMs?: number
}

export interface EventRecorder {
  /**
   * Records a batch of conversation events for one instance: each is validated, appended to Kafka with acks=all,
   * and `accepted` when its record is the first of its event_id in the log (`duplicate` when an earlier one exists).
   * Results keep the request order.
   * @throws AppError SERVICE_UNAVAILABLE while this process is still reading the recent log after a start
   */
  record(
    scope: { instanceId: string; clientId: string },
    events: unknown[],
    correlationId: string,
    /** `traceparent` and `tracestate` of the request, when it was traced on another thread. */
    traceHeaders?: Record<string, string>,
  ): Promise<EventBatchResponse>
}

interface Pending {
  index: number
  event: ConversationEvent
  eventId: string
  /** Set for events with a client event_id: they are answered from the log. */
  identity?: string
}

const unavailable = (eventId: string | null, message: string): EventResult => ({
  event_id: eventId,
  status: 'rejected',
  code: 'SERVICE_UNAVAILABLE',
  message,
})

/**
 * Idempotency without a second store on the hot path: the log decides. Every gateway reads the topic back into a
 * dedupe window, so a repeat of a recorded event_id is answered `duplicate` without appending, and an event is
 * appended once per process at a time. The produce response tells where a record landed; it is the accepted one
 * when no earlier record of its partition has its event_id, which the window answers once this process has read
 * the partition up to it (usually at once: the read-back of earlier records overlaps the produce). Every gateway
 * reads a partition in the same order, so two gateways racing with the same event_id may both append, but exactly
 * one is told `accepted`, and readers of the log keep the first record.
 */
export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  const topic = options.topic ?? CONVERSATION_EVENTS_TOPIC
  const now = options.now ?? Date.now
  const newEventId = options.newEventId ?? (() => `evt_${randomBytes(16).toString('hex')}`)
  const readBackTimeoutMs = options.readBackTimeoutMs ?? 10_000
  /** Event identities this process is appending now, resolving to whether the record is in the log. */
  const inFlight = new Map<string, Promise<boolean>>()

  async function untilReady(): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), readBackTimeoutMs)),
    )
    const outcome = await Promise.race([options.recorded.ready.then(() => 'ready' as const), late])
    clearTimeout(timer)
    if (outcome === 'late')
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'This gateway is still reading the recent event log; nothing was recorded',
        { retry_after_seconds: 2, reason: 'dedupe_window_rebuilding' },
      )
  }

  return {
    async record(scope, rawEvents, correlationId, traceHeaders) {
      const results: EventResult[] = new Array<EventResult>(rawEvents.length)
      const valid: { index: number; event: ConversationEvent }[] = []
      rawEvents.forEach((raw, index) => {
        const checked = validateConversationEvent(raw)
        if ('event' in checked) valid.push({ index, event: checked.event })
        else {
          const clientId = (raw as { event_id?: unknown } | null)?.event_id
          results[index] = {
            event_id: typeof clientId === 'string' ? clientId : null,
            status: 'rejected',
            code: 'INVALID_EVENT',
            message: checked.problems.join('; '),
          }
        }
      })
      if (valid.some(({ event }) => event.event_id !== undefined)) await untilReady()

      const toAppend: Pending[] = []
      const behindOthers: { pending: Pending; other: Promise<boolean> }[] = []
      const inBatch = new Set<string>()
      for (const { index, event } of valid) {
        if (event.event_id === undefined) {
          toAppend.push({ index, event, eventId: newEventId() })
          continue
        }
        const identity = eventIdentity(scope.instanceId, event.conversation_id, event.event_id)
        if (inBatch.has(identity) || options.recorded.firstOf(identity)) {
          results[index] = { event_id: event.event_id, status: 'duplicate' }
          continue
        }
        inBatch.add(identity)
        const pending = { index, event, eventId: event.event_id, identity }
        const other = inFlight.get(identity)
        if (other) behindOthers.push({ pending, other })
        else toAppend.push(pending)
      }
      // Another request of this process is appending the same event: its outcome decides (an append that failed
      // leaves the event to this one).
      if (behindOthers.length > 0) {
        const recorded = await Promise.all(behindOthers.map(({ other }) => other))
        behindOthers.forEach(({ pending }, position) => {
          if (recorded[position]) results[pending.index] = { event_id: pending.eventId, status: 'duplicate' }
          else toAppend.push(pending)
        })
      }

      const settle = new Map<string, (recorded: boolean) => void>()
      for (const pending of toAppend) {
        if (pending.identity === undefined) continue
        inFlight.set(pending.identity, new Promise((resolve) => settle.set(pending.identity ?? '', resolve)))
      }
      const release = (recorded: boolean) => {
        for (const [identity, resolve] of settle) {
          if (!recorded) inFlight.delete(identity)
          resolve(recorded)
        }
      }
      if (toAppend.length === 0) return countResults(results)

      const receivedAt = new Date(now()).toISOString()
      let positions: RecordPosition[]
      try {
        positions = await options.appender.append(
          topic,
          toAppend.map((pending) => ({
            key: conversationKey(scope.instanceId, pending.event.conversation_id),
            subject: CONVERSATION_EVENT_SUBJECT,
            payload: toRecordedEvent(pending.event, {
              eventId: pending.eventId,
              instanceId: scope.instanceId,
              clientId: scope.clientId,
              receivedAt,
            }),
            correlationId,
            headers: {
              ...traceHeaders,
              'event-type': pending.event.event_type,
              [CLIENT_EVENT_ID_HEADER]: pending.event.event_id ?? '',
            },
          })),
        )
      } catch (error) {
        options.logger.error({ err: error, correlationId }, 'conversation events not appended')
        for (const pending of toAppend)
          results[pending.index] = unavailable(
            pending.event.event_id ?? null,
            'The event log is unavailable; retry with the same event_id',
          )
        release(false)
        return countResults(results)
      }
      // In the log now, whatever came before: a request waiting behind one of these answers duplicate, and so does
      // a retry that arrives before this process has read the record back into its window.
      release(true)
      toAppend.forEach((pending, position) => {
        const landed = positions[position]
        const identity = pending.identity
        if (identity === undefined) return
        if (!landed) inFlight.delete(identity)
        else
          void options.recorded
            .readUpTo(landed.partition, landed.offset + 1)
            .then(() => inFlight.delete(identity))
      })

      // Whether an earlier record of a partition has one of these event_ids is known once this process has read
      // the partition up to the records this produce request wrote: those all came from this process, whose
      // in-flight appends never share an event_id.
      const readBefore = new Map<number, number>()
      toAppend.forEach((pending, position) => {
        const landed = positions[position]
        if (pending.identity !== undefined && landed) readBefore.set(landed.partition, landed.batchStart)
      })
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<'late'>(
        (resolve) => (timer = setTimeout(() => resolve('late'), readBackTimeoutMs)),
      )
      const readInTime = await Promise.race([
        Promise.all(
          [...readBefore].map(([partition, offset]) => options.recorded.readUpTo(partition, offset)),
        ),
        late,
      ])
      clearTimeout(timer)
      toAppend.forEach((pending, position) => {
        const landed = positions[position]
        if (pending.identity === undefined || !landed) {
          results[pending.index] = { event_id: pending.eventId, status: 'accepted' }
        } else if (readInTime === 'late') {
          results[pending.index] = unavailable(
            pending.eventId,
            'Recorded, but not confirmed in time; retry with the same event_id',
          )
        } else {
          const first = options.recorded.firstOf(pending.identity)
          const earlier =
            first !== undefined && first.partition === landed.partition && first.offset < landed.offset
          results[pending.index] = { event_id: pending.eventId, status: earlier ? 'duplicate' : 'accepted' }
        }
      })
      return countResults(results)
    },
  }
}

function countResults(results: EventResult[]): EventBatchResponse {
  const count = (status: EventResult['status']) => results.filter((result) => result.status === status).length
  return { accepted: count('accepted'), duplicate: count('duplicate'), rejected: count('rejected'), results }
}
