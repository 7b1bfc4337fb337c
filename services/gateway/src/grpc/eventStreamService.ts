import { randomUUID } from 'node:crypto'
import type * as grpc from '@grpc/grpc-js'
import { AppError, type ControlState } from '@memory-service/domain'
import { type EventRecorder } from '@memory-service/log'
import {
  contextFrom,
  conversationEvents,
  eventAckDuration,
  grpcRequestDuration,
  inSpan,
  isTracing,
  rateLimited,
  secondsSince,
  SpanKind,
  type Logger,
} from '@memory-service/engines'
import type { EventStreamHandlers } from '@memory-service/contracts/proto/memory/v1/EventStream'
import type { ClientMessage__Output } from '@memory-service/contracts/proto/memory/v1/ClientMessage'
import type { ConversationEvent__Output } from '@memory-service/contracts/proto/memory/v1/ConversationEvent'
import type { EventAck } from '@memory-service/contracts/proto/memory/v1/EventAck'
import type { ServerMessage } from '@memory-service/contracts/proto/memory/v1/ServerMessage'
import type { RateLimiter } from '../http/rateLimiter.js'
import { createAnticipationScheduler, type AnticipationStats } from './anticipationScheduler.js'
import { authenticateCall, toGrpcError } from './grpcAuth.js'

/** A user turn the stream accepted, as anticipation reads it. */
export interface AnticipatedTurn {
  conversationId: string
  userId: string
  customerId?: string
  content: string
}

export interface AnticipationDependencies {
  /** What the agent will likely need after a user turn (the memories most relevant to it). */
  search(scope: { instanceId: string }, turn: AnticipatedTurn): Promise<AnticipatedItem[]>
  /** A cheap check run first: a user with no memories gets no search at all. */
  hasMemories(scope: { instanceId: string }, turn: AnticipatedTurn): Promise<boolean>
  /** Anticipations running at once in this gateway. @default 1 */
  maxConcurrent?: number
  /** A turn still waiting for a slot after this long is dropped. @default 5000 */
  maxAgeMs?: number
}

export interface AnticipatedItem {
  memoryId: string
  content: string
  score: number
}

export interface EventStreamDependencies {
  control: { state: ControlState }
  events: EventRecorder
  rateLimiter: RateLimiter
  logger: Logger
  /**
   * Context pushed after user turns, on the streams that subscribed to it (metadata `x-anticipated-context:
   * subscribe`). Without it nothing is pushed.
   */
  anticipation?: AnticipationDependencies
  now?: () => number
}

// Label lookups once, not per acknowledged batch.
const streamEvents = {
  accepted: conversationEvents.labels('grpc', 'accepted'),
  duplicate: conversationEvents.labels('grpc', 'duplicate'),
  rejected: conversationEvents.labels('grpc', 'rejected'),
}
const streamAckDuration = eventAckDuration.labels('grpc')

/** gRPC metadata as the text carrier trace propagation reads (`traceparent`, `tracestate`). */
function metadataAsText(metadata: grpc.Metadata): Record<string, string> {
  const text: Record<string, string> = {}
  for (const [name, value] of Object.entries(metadata.getMap()))
    if (typeof value === 'string') text[name] = value
  return text
}

/** The metadata a client sends to receive anticipated context on its stream. */
export const ANTICIPATION_METADATA = 'x-anticipated-context'

/** How long a closing stream waits for its anticipations still running or waiting before it ends. */
const anticipationGraceMs = 3000
/** Batches of one stream being recorded at once. */
const maxBatchesInFlight = 8
/** Events a second batch waits for while one is in flight. */
const minConcurrentBatchEvents = 200
/** Events of one stream waiting to be recorded before reading from it pauses. */
const maxQueuedEvents = 2000
/** One batch stays well under Kafka's 1 MB request limit per partition and keeps acks flowing. */
const maxBatchEvents = 500
const maxBatchContentChars = 256 * 1024

/** The next batch: arrival order, bounded in events and in content size (at least one event). */
function takeBatch(queue: ConversationEvent__Output[]): ConversationEvent__Output[] {
  let count = 0
  let chars = 0
  while (count < queue.length && count < maxBatchEvents) {
    chars += (queue[count]?.content?.length ?? 0) + (queue[count]?.metadataJson.length ?? 0)
    if (count > 0 && chars > maxBatchContentChars) break
    count += 1
  }
  return queue.splice(0, count)
}

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

/** A user turn waiting for anticipation, with where its answer goes. */
interface PendingAnticipation {
  scope: { instanceId: string }
  turn: AnticipatedTurn
  eventId: string
  stream: StreamAnticipations
}

/** One stream's share of anticipation, counted for its closing log line. */
interface StreamAnticipations {
  push(context: { conversationId: string; inReplyToEventId: string; items: AnticipatedItem[] }): void
  settled(): void
  counts: { requested: number; pushed: number; empty: number; skippedNoMemories: number; dropped: number }
  outstanding: number
}

/**
 * One call = one agent session. The key is checked once when the call opens (a bad key ends the call with the
 * gRPC status of the spec's code); each event then takes a rate-limit token and gets one ack, in arrival order.
 * Events that arrive while a batch is being recorded are recorded together next, so a fast sender pays one
 * idempotency round trip and one Kafka send per group, not per event. When the client reads slower than acks
 * are produced, reading pauses until the socket drains; a cancelled call stops its work.
 *
 * Anticipation runs only for streams that subscribed, after the ack and outside the write path: one scheduler per
 * gateway bounds it (one per conversation, coalesced to the newest turn, a global limit, stale turns dropped).
 */
export function createEventStreamHandlers(
  deps: EventStreamDependencies,
): EventStreamHandlers & { anticipationStats(): AnticipationStats | undefined } {
  const anticipation = deps.anticipation
  const scheduler = anticipation
    ? createAnticipationScheduler<PendingAnticipation>({
        maxConcurrent: anticipation.maxConcurrent ?? 1,
        maxAgeMs: anticipation.maxAgeMs ?? 5000,
        ...(deps.now ? { now: deps.now } : {}),
        async run({ turn: pending }) {
          const { stream } = pending
          try {
            if (!(await anticipation.hasMemories(pending.scope, pending.turn))) {
              stream.counts.skippedNoMemories += 1
              return
            }
            const items = await anticipation.search(pending.scope, pending.turn)
            if (items.length === 0) stream.counts.empty += 1
            else {
              stream.counts.pushed += 1
              stream.push({
                conversationId: pending.turn.conversationId,
                inReplyToEventId: pending.eventId,
                items,
              })
            }
          } finally {
            stream.settled()
          }
        },
        onDropped: ({ turn: pending }) => {
          pending.stream.counts.dropped += 1
          pending.stream.settled()
        },
        onError: (error, { turn: pending }) =>
          deps.logger.warn({ err: error, eventId: pending.eventId }, 'anticipation failed'),
      })
    : undefined

  return {
    anticipationStats: () => scheduler?.stats(),
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
      const streamStartedAt = performance.now()
      const streamTrace = contextFrom(metadataAsText(call.metadata))
      const log = deps.logger.child({
        correlationId,
        instance_id: principal.instance.instance_id,
        key_id: principal.key.key_id,
      })
      const scope = { instanceId: principal.instance.instance_id, clientId: principal.instance.client_id }
      const limit = principal.instance.rate_limit
      const queue: ConversationEvent__Output[] = []
      const tally = { accepted: 0, duplicate: 0, rejected: 0 }
      let queuedEvents = 0
      let batchesInFlight = 0
      let ended = false

      // Reading pauses while the client reads acks slower than they are produced, or while too many of its events
      // wait to be recorded: memory per stream stays bounded whatever the client sends.
      let writeBlocked = false
      let readingPaused = false
      const updateReading = (): void => {
        const shouldPause = writeBlocked || queuedEvents >= maxQueuedEvents
        if (shouldPause && !readingPaused) call.pause()
        if (!shouldPause && readingPaused) call.resume()
        readingPaused = shouldPause
      }
      const send = (message: ServerMessage): void => {
        if (call.cancelled) return
        if (!call.write(message) && !writeBlocked) {
          writeBlocked = true
          updateReading()
          call.once('drain', () => {
            writeBlocked = false
            updateReading()
          })
        }
      }

      const subscribed = call.metadata.get(ANTICIPATION_METADATA).map(String)[0] === 'subscribe'
      const anticipations: StreamAnticipations | undefined =
        scheduler && subscribed
          ? {
              push: (context) => send({ anticipatedContext: context }),
              settled() {
                this.outstanding -= 1
                if (this.outstanding === 0 && finishing) closeCall()
              },
              counts: { requested: 0, pushed: 0, empty: 0, skippedNoMemories: 0, dropped: 0 },
              outstanding: 0,
            }
          : undefined

      // A user turn is offered for anticipation once acknowledged: the push follows its ack, never holds it back.
      const anticipateAfter = (event: ConversationEvent__Output, eventId: string): void => {
        if (!scheduler || !anticipations || event.eventType !== 'user_message' || !event.content) return
        anticipations.counts.requested += 1
        anticipations.outstanding += 1
        scheduler.offer({
          conversationKey: `${scope.instanceId}/${event.conversationId}`,
          acceptedAt: (deps.now ?? Date.now)(),
          turn: {
            scope,
            eventId,
            stream: anticipations,
            turn: {
              conversationId: event.conversationId,
              userId: event.userId,
              ...(event.customerId ? { customerId: event.customerId } : {}),
              content: event.content,
            },
          },
        })
      }

      // Batches are recorded while earlier ones still wait for Kafka (their appends share produce requests); acks
      // still leave in arrival order.
      const recordBatch = async (batch: ConversationEvent__Output[]): Promise<(EventAck | undefined)[]> => {
        const admitted: { event: ConversationEvent__Output; position: number }[] = []
        const acks: (EventAck | undefined)[] = batch.map((event, position) => {
          const decision = deps.rateLimiter.take(principal.key.key_id, limit)
          if (decision.allowed) {
            admitted.push({ event, position })
            return undefined
          }
          rateLimited.inc({ transport: 'grpc' })
          return {
            eventId: event.eventId,
            status: 'REJECTED',
            code: 'RATE_LIMITED',
            message: `Rate limit exceeded; retry after ${decision.retryAfterSeconds} s`,
          }
        })
        try {
          const record = () =>
            deps.events.record(
              scope,
              admitted.map(({ event }) => fromStreamEvent(event)),
              correlationId,
            )
          // The stream's metadata may name a trace; each batch is a span of it, and its records carry it on.
          const response = isTracing()
            ? await inSpan(
                'EventStream.record',
                {
                  kind: SpanKind.SERVER,
                  parent: streamTrace,
                  attributes: {
                    'memory_service.role': 'gateway',
                    'memory_service.correlation_id': correlationId,
                    'memory_service.events': admitted.length,
                  },
                },
                record,
              )
            : await record()
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
        return acks
      }
      const acknowledge = (
        batch: ConversationEvent__Output[],
        acks: (EventAck | undefined)[],
        startedAt: number,
      ): void => {
        const ready = acks.filter((ack): ack is EventAck => ack !== undefined)
        if (clientBatches && ready.length > 1) send({ acks: { acks: ready } })
        else for (const ack of ready) send({ ack })
        const outcomes = { accepted: 0, duplicate: 0, rejected: 0 }
        for (const ack of ready) {
          if (ack.status === 'ACCEPTED') outcomes.accepted += 1
          else if (ack.status === 'DUPLICATE') outcomes.duplicate += 1
          else outcomes.rejected += 1
        }
        for (const outcome of ['accepted', 'duplicate', 'rejected'] as const) {
          if (outcomes[outcome] === 0) continue
          tally[outcome] += outcomes[outcome]
          streamEvents[outcome].inc(outcomes[outcome])
        }
        streamAckDuration.observe(secondsSince(startedAt))
        batch.forEach((event, position) => {
          const ack = acks[position]
          if (ack?.status === 'ACCEPTED') anticipateAfter(event, ack.eventId ?? '')
        })
      }

      let acked: Promise<void> = Promise.resolve()
      // A batch leaves at once when nothing is in flight (an idle stream acks each event without waiting); while
      // one is, a further one leaves only once enough events queued behind it, so a busy stream sends few, large
      // batches instead of many single events.
      const readyToSend = (): boolean =>
        queue.length > 0 &&
        batchesInFlight < maxBatchesInFlight &&
        (batchesInFlight === 0 || queue.length >= minConcurrentBatchEvents)
      const drain = (): void => {
        while (readyToSend() && !call.cancelled) {
          const batch = takeBatch(queue)
          queuedEvents -= batch.length
          batchesInFlight += 1
          const startedAt = performance.now()
          const recorded = recordBatch(batch)
          acked = acked
            .then(async () => acknowledge(batch, await recorded, startedAt))
            .finally(() => {
              batchesInFlight -= 1
              updateReading()
              drain()
              if (ended && queue.length === 0 && batchesInFlight === 0) finish()
            })
        }
        updateReading()
      }

      let finishing = false
      let closed = false
      const closeCall = (): void => {
        if (closed) return
        closed = true
        if (!call.cancelled)
          grpcRequestDuration.observe(
            { method: 'memory.v1.EventStream/Stream', status_code: 'OK' },
            secondsSince(streamStartedAt),
          )
        log.info(
          { events: tally, ...(anticipations ? { anticipation: anticipations.counts } : {}) },
          'stream closed',
        )
        if (!call.cancelled) call.end()
      }
      const finish = (): void => {
        if (finishing || call.cancelled) return
        finishing = true
        if (!anticipations || anticipations.outstanding === 0) return closeCall()
        setTimeout(closeCall, anticipationGraceMs).unref()
      }

      // A client that sends batches of events understands batches of acks.
      let clientBatches = false
      call.on('data', (message: ClientMessage__Output) => {
        if (message.event) {
          queue.push(message.event)
          queuedEvents += 1
        } else if (message.events) {
          clientBatches = true
          for (const event of message.events.events) queue.push(event)
          queuedEvents += message.events.events.length
        }
        drain()
      })
      call.on('end', () => {
        ended = true
        if (batchesInFlight === 0 && queue.length === 0) finish()
      })
      call.on('cancelled', () => {
        queue.length = 0
        queuedEvents = 0
        grpcRequestDuration.observe(
          { method: 'memory.v1.EventStream/Stream', status_code: 'CANCELLED' },
          secondsSince(streamStartedAt),
        )
        log.info(
          { events: tally, ...(anticipations ? { anticipation: anticipations.counts } : {}) },
          'stream cancelled by the client',
        )
      })
      call.on('error', (error: unknown) => log.warn({ err: error }, 'stream error'))
    },
  }
}
