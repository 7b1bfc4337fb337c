import { randomUUID } from 'node:crypto'
import type * as grpc from '@grpc/grpc-js'
import { AppError, type ControlState, type EventRecorder, type Logger } from '@memory-service/shared'
import type { EventStreamHandlers } from '@memory-service/shared/proto/memory/v1/EventStream'
import type { ClientMessage__Output } from '@memory-service/shared/proto/memory/v1/ClientMessage'
import type { ConversationEvent__Output } from '@memory-service/shared/proto/memory/v1/ConversationEvent'
import type { EventAck } from '@memory-service/shared/proto/memory/v1/EventAck'
import type { ServerMessage } from '@memory-service/shared/proto/memory/v1/ServerMessage'
import type { RateLimiter } from '../http/rateLimiter.js'
import { authenticateCall, toGrpcError } from './grpcAuth.js'

/** A user turn the stream accepted, as anticipation reads it. */
export interface AnticipatedTurn {
  conversationId: string
  userId: string
  customerId?: string
  content: string
}

export interface EventStreamDependencies {
  control: { state: ControlState }
  events: EventRecorder
  rateLimiter: RateLimiter
  logger: Logger
  /**
   * What the agent will likely need after a user turn (the memories most relevant to it); pushed on the same
   * stream. Without it nothing is pushed.
   */
  anticipate?: (
    scope: { instanceId: string },
    turn: AnticipatedTurn,
  ) => Promise<{ memoryId: string; content: string; score: number }[]>
}

/** How long a closing stream waits for anticipations still running before it ends. */
const anticipationGraceMs = 3000

/** The stream's event in the shape of a REST event, so both are validated and recorded by the same code. */
export function fromStreamEvent(event: ConversationEvent__Output): Record<string, unknown> {
  let metadata: unknown
  if (event.metadataJson !== '') {
    try {
      metadata = JSON.parse(event.metadataJson)
    } catch {
      metadata = event.metadataJson
    }
  }
  const optional = {
    customer_id: event.customerId,
    role: event.role,
    content: event.content,
    occurred_at: event.occurredAt,
  }
  return {
    ...(event.eventId !== '' ? { event_id: event.eventId } : {}),
    event_type: event.eventType,
    conversation_id: event.conversationId,
    user_id: event.userId,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    ...(metadata !== undefined ? { metadata } : {}),
  }
}

const statusOf = { accepted: 'ACCEPTED', duplicate: 'DUPLICATE', rejected: 'REJECTED' } as const

/**
 * One call = one agent session. The key is checked once when the call opens (a bad key ends the call with the
 * gRPC status of the spec's code); each event then takes a rate-limit token and gets one ack, in arrival order.
 * Events that arrive while a batch is being recorded are recorded together next, so a fast sender pays one
 * idempotency round trip and one Kafka send per group, not per event. When the client reads slower than acks
 * are produced, reading pauses until the socket drains; a cancelled call stops its work.
 */
export function createEventStreamHandlers(deps: EventStreamDependencies): EventStreamHandlers {
  return {
    Stream(call: grpc.ServerDuplexStream<ClientMessage__Output, ServerMessage>) {
      const correlationIds = call.metadata.get('x-correlation-id').map(String)
      const correlationId =
        correlationIds[0] && /^[A-Za-z0-9._:-]{8,128}$/.test(correlationIds[0])
          ? correlationIds[0]
          : randomUUID()
      let principal
      try {
        principal = authenticateCall(deps.control.state, call.metadata, 'events:write')
      } catch (error) {
        const appError = error instanceof AppError ? error : new AppError('INTERNAL_ERROR', String(error))
        call.emit('error', toGrpcError(appError, correlationId))
        return
      }
      const log = deps.logger.child({
        correlationId,
        instance_id: principal.instance.instance_id,
        key_id: principal.key.key_id,
      })
      const scope = { instanceId: principal.instance.instance_id, clientId: principal.instance.client_id }
      const limit = principal.instance.rate_limit
      const queue: ConversationEvent__Output[] = []
      const anticipations = new Set<Promise<void>>()
      let working = false
      let ended = false

      let paused = false
      const send = (ack: EventAck): void => {
        if (call.cancelled) return
        if (!call.write({ ack }) && !paused) {
          paused = true
          call.pause()
          call.once('drain', () => {
            paused = false
            call.resume()
          })
        }
      }

      const drain = async (): Promise<void> => {
        if (working) return
        working = true
        try {
          while (queue.length > 0 && !call.cancelled) {
            const batch = queue.splice(0, queue.length)
            const admitted: { event: ConversationEvent__Output; position: number }[] = []
            const acks: (EventAck | undefined)[] = batch.map((event, position) => {
              const decision = deps.rateLimiter.take(principal.key.key_id, limit)
              if (decision.allowed) {
                admitted.push({ event, position })
                return undefined
              }
              return {
                eventId: event.eventId,
                status: 'REJECTED',
                code: 'RATE_LIMITED',
                message: `Rate limit exceeded; retry after ${decision.retryAfterSeconds} s`,
              }
            })
            try {
              const response = await deps.events.record(
                scope,
                admitted.map(({ event }) => fromStreamEvent(event)),
                correlationId,
              )
              response.results.forEach((result, index) => {
                const position = admitted[index]?.position ?? -1
                acks[position] = {
                  eventId: result.event_id ?? admitted[index]?.event.eventId ?? '',
                  status: statusOf[result.status],
                  code: result.code ?? '',
                  message: result.message ?? '',
                }
              })
            } catch (error) {
              log.error({ err: error }, 'stream batch not recorded')
              for (const { event, position } of admitted) {
                acks[position] = {
                  eventId: event.eventId,
                  status: 'REJECTED',
                  code: 'SERVICE_UNAVAILABLE',
                  message: 'Not recorded; resend it',
                }
              }
            }
            for (const ack of acks) if (ack) send(ack)
            batch.forEach((event, position) => {
              const ack = acks[position]
              if (ack?.status === 'ACCEPTED') anticipateAfter(event, ack.eventId ?? '')
            })
          }
        } finally {
          working = false
          if (ended && queue.length === 0) finish()
        }
      }
      // A user turn is queued for anticipation once recorded; the push follows its ack, never holds it back.
      const anticipateAfter = (event: ConversationEvent__Output, eventId: string): void => {
        const anticipate = deps.anticipate
        if (!anticipate || event.eventType !== 'user_message' || !event.content) return
        const running = anticipate(scope, {
          conversationId: event.conversationId,
          userId: event.userId,
          ...(event.customerId ? { customerId: event.customerId } : {}),
          content: event.content,
        })
          .then((items) => {
            if (call.cancelled || items.length === 0) return
            call.write({
              anticipatedContext: { conversationId: event.conversationId, inReplyToEventId: eventId, items },
            })
          })
          .catch((error: unknown) => log.warn({ err: error, eventId }, 'anticipation failed'))
          .finally(() => anticipations.delete(running))
        anticipations.add(running)
      }
      let finishing = false
      const finish = (): void => {
        if (finishing || call.cancelled) return
        finishing = true
        const grace = new Promise((resolve) => setTimeout(resolve, anticipationGraceMs).unref())
        void Promise.race([Promise.allSettled([...anticipations]), grace]).then(() => {
          if (!call.cancelled) call.end()
        })
      }

      call.on('data', (message: ClientMessage__Output) => {
        if (message.event) queue.push(message.event)
        void drain()
      })
      call.on('end', () => {
        ended = true
        if (!working && queue.length === 0) finish()
      })
      call.on('cancelled', () => {
        queue.length = 0
        log.info('stream cancelled by the client')
      })
      call.on('error', (error: unknown) => log.warn({ err: error }, 'stream error'))
    },
  }
}
