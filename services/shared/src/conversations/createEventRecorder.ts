import { randomBytes } from 'node:crypto'
import type { ConversationEvent, EventBatchResponse } from '../contracts/generated/index.js'
import type { Claim } from '../idempotency/claims.js'
import type { ClaimStore } from '../idempotency/createClaimStore.js'
import type { EventProducer } from '../kafka/eventProducer.js'
import type { Logger } from '../logging/createLogger.js'
import {
  CONVERSATION_EVENT_SUBJECT,
  CONVERSATION_EVENTS_TOPIC,
  conversationKey,
  toRecordedEvent,
  validateConversationEvent,
  type EventResult,
} from './conversationEvents.js'

export interface EventRecorderOptions {
  producer: EventProducer
  claims: ClaimStore
  logger: Logger
  topic?: string
  now?: () => Date
  newEventId?: () => string
}

interface Pending {
  index: number
  event: ConversationEvent
  eventId: string
  claim?: Claim
}

export interface EventRecorder {
  /**
   * Records a batch of conversation events for one instance: each is validated, its event_id claimed (a repeat is
   * `duplicate`), and appended to Kafka with acks=all before it is `accepted`. Results keep the request order.
   * @throws AppError SERVICE_UNAVAILABLE from the claim store when it cannot be reached (nothing was recorded)
   */
  record(
    scope: { instanceId: string; clientId: string },
    events: unknown[],
    correlationId: string,
  ): Promise<EventBatchResponse>
}

export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  const topic = options.topic ?? CONVERSATION_EVENTS_TOPIC
  const now = options.now ?? (() => new Date())
  const newEventId = options.newEventId ?? (() => `evt_${randomBytes(16).toString('hex')}`)

  return {
    async record(scope, rawEvents, correlationId) {
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

      const identified = valid.filter(({ event }) => event.event_id !== undefined)
      const outcomes = await options.claims.claim(
        identified.map(({ event }) => ({
          instance_id: scope.instanceId,
          kind: 'event' as const,
          client_id: event.event_id ?? '',
          record_id: event.event_id ?? '',
        })),
      )

      const toAppend: Pending[] = valid
        .filter(({ event }) => event.event_id === undefined)
        .map(({ index, event }) => ({ index, event, eventId: newEventId() }))
      identified.forEach(({ index, event }, position) => {
        const outcome = outcomes[position]
        if (outcome?.outcome === 'claimed')
          toAppend.push({ index, event, eventId: event.event_id ?? '', claim: outcome.claim })
        else results[index] = { event_id: event.event_id ?? null, status: 'duplicate' }
      })

      // One send per conversation: a send to one partition is all-or-nothing, so each event's fate is known exactly.
      const groups = new Map<string, Pending[]>()
      for (const pending of toAppend) {
        const key = conversationKey(scope.instanceId, pending.event.conversation_id)
        groups.set(key, [...(groups.get(key) ?? []), pending])
      }
      const receivedAt = now().toISOString()
      const sends = await Promise.allSettled(
        [...groups.entries()].map(([key, group]) =>
          options.producer.append(
            topic,
            group.map((pending) => ({
              key,
              subject: CONVERSATION_EVENT_SUBJECT,
              payload: toRecordedEvent(pending.event, {
                eventId: pending.eventId,
                instanceId: scope.instanceId,
                clientId: scope.clientId,
                receivedAt,
              }),
              correlationId,
              headers: { 'event-type': pending.event.event_type },
            })),
          ),
        ),
      )
      const appended: Claim[] = []
      const failed: Claim[] = []
      ;[...groups.values()].forEach((group, position) => {
        const sent = sends[position]?.status === 'fulfilled'
        if (!sent)
          options.logger.error(
            { err: (sends[position] as PromiseRejectedResult).reason, correlationId },
            'conversation events not appended',
          )
        for (const pending of group) {
          results[pending.index] = sent
            ? { event_id: pending.eventId, status: 'accepted' }
            : {
                event_id: pending.event.event_id ?? null,
                status: 'rejected',
                code: 'SERVICE_UNAVAILABLE',
                message: 'The event log is unavailable; retry with the same event_id',
              }
          if (pending.claim) (sent ? appended : failed).push(pending.claim)
        }
      })
      await Promise.all([
        options.claims
          .confirm(appended)
          .catch((error: unknown) => options.logger.error({ err: error }, 'claims not confirmed')),
        options.claims
          .release(failed)
          .catch((error: unknown) => options.logger.error({ err: error }, 'claims not released')),
      ])

      const count = (status: EventResult['status']) =>
        results.filter((result) => result.status === status).length
      return {
        accepted: count('accepted'),
        duplicate: count('duplicate'),
        rejected: count('rejected'),
        results,
      }
    },
  }
}
