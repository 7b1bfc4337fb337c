import { randomUUID } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'
import type { ConversationEvent } from '@memory-service/contracts'
import type { ProtoGrpcType } from '@memory-service/contracts/proto/event_stream'
import type { ClientMessage } from '@memory-service/contracts/proto/memory/v1/ClientMessage'
import type { EventAck__Output } from '@memory-service/contracts/proto/memory/v1/EventAck'
import type { AnticipatedContext__Output } from '@memory-service/contracts/proto/memory/v1/AnticipatedContext'
import type { ServerMessage__Output } from '@memory-service/contracts/proto/memory/v1/ServerMessage'
import { AuthenticationError, errorForGrpcStatus, type MemoryServiceClientError } from './errors.js'

// The contract: packed next to dist/ in the published package; in a checkout, the `@memory-service/proto` package.
const packed = resolve(dirname(fileURLToPath(import.meta.url)), '../proto')
const protoDir = existsSync(resolve(packed, 'memory/v1/event_stream.proto'))
  ? packed
  : resolve(
      dirname(createRequire(import.meta.url).resolve('@memory-service/proto/memory/v1/event_stream.proto')),
      '../..',
    )

/** An event as POST /v1/events/batch takes it (schemas/rest/ConversationEvent.schema.json). */
export type StreamEvent = ConversationEvent

export interface EventStreamOptions {
  /** gRPC address, e.g. 127.0.0.1:50051. */
  address: string
  apiKey: string
  /**
   * Events held while they cannot be delivered (disconnected, reconnecting); beyond it the oldest is dropped with a
   * warning. Events sent on a live stream and waiting for their ack do not count: they are kept until acknowledged.
   * @default 100
   */
  maxEvents?: number
  /** Oldest age (since `send`) of an event held while it cannot be delivered. @default 300000 (five minutes) */
  maxAgeMs?: number
  /** Reconnect backoff: doubles from the initial delay up to the maximum, with full jitter. */
  backoff?: { initialMs?: number; maxMs?: number }
  onAck?: (ack: EventAck__Output) => void
  /**
   * Context the service pushes after a user turn: what the agent will likely need next. Giving it subscribes the
   * stream (metadata `x-anticipated-context: subscribe`); without it the service does no anticipation work for it.
   */
  onAnticipatedContext?: (context: AnticipatedContext__Output) => void
  /** An event given up while it could not be delivered (it was never acknowledged). */
  onDropped?: (event: HeldEvent, reason: 'buffer_full' | 'too_old') => void
  /** A permanent failure (bad key, missing permission): the stream stops reconnecting. */
  onError?: (error: MemoryServiceClientError) => void
  warn?: (message: string, context: Record<string, unknown>) => void
  now?: () => number
}

/** An event the stream holds, with the id it was sent under. */
export interface HeldEvent {
  id: string
  event: StreamEvent
  /** When `send` took it (ms since the epoch, or the injected clock). */
  at: number
}

/** What `stop` could not deliver: events never acknowledged, which the caller may resend under the same ids. */
export interface StopResult {
  unacknowledged: HeldEvent[]
}

/** Events per message at most when the client batches (a message stays far below gRPC's 4 MB limit). */
const maxEventsPerMessage = 100
const maxCharsPerMessage = 1_000_000

function toClientMessage(id: string, event: StreamEvent): ClientMessage {
  return { event: toStreamEvent(id, event) }
}

function toStreamEvent(id: string, event: StreamEvent): NonNullable<ClientMessage['event']> {
  return {
    eventId: id,
    eventType: event.event_type,
    conversationId: event.conversation_id,
    userId: event.user_id,
    ...(event.customer_id !== undefined ? { customerId: event.customer_id } : {}),
    ...(event.role !== undefined ? { role: event.role } : {}),
    ...(event.content !== undefined ? { content: event.content } : {}),
    ...(event.occurred_at !== undefined ? { occurredAt: event.occurred_at } : {}),
    metadataJson: event.metadata ? JSON.stringify(event.metadata) : '',
  }
}

/** How long `stop` waits for outstanding acks by default: a burst of 1 000 events acks well within it. */
export const DEFAULT_STOP_DEADLINE_MS = 10_000

/**
 * Streams conversation events over gRPC. Each event gets an id; sent events are kept until acknowledged and
 * replayed first after a reconnect (same ids, so the service records them once), then the events buffered while
 * disconnected. While events cannot be delivered, at most `maxEvents` of them or `maxAgeMs` of age are held;
 * beyond that the oldest is dropped with a warning (and `onDropped`). `send` buffers while reconnecting and throws
 * only before `start` or after `stop`.
 */
export function createEventStream(options: EventStreamOptions) {
  const maxEvents = options.maxEvents ?? 100
  const maxAgeMs = options.maxAgeMs ?? 300_000
  const initialBackoff = options.backoff?.initialMs ?? 200
  const maxBackoff = options.backoff?.maxMs ?? 10_000
  const now = options.now ?? (() => Date.now())
  const warn = options.warn ?? ((message, context) => console.warn(`[memory-service] ${message}`, context))
  const definition = protoLoader.loadSync('memory/v1/event_stream.proto', {
    includeDirs: [protoDir],
    enums: String,
    defaults: true,
    oneofs: true,
  })
  const proto = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType
  const client = new proto.memory.v1.EventStream(options.address, grpc.credentials.createInsecure())

  /** Sent on the current call, waiting for an ack, in send order. */
  const inFlight = new Map<string, HeldEvent>()
  /** Not deliverable now (no call, or no connection), in the order they will be sent: replays first. */
  let offline: HeldEvent[] = []
  let call: grpc.ClientDuplexStream<ClientMessage, ServerMessage__Output> | undefined
  let state: 'idle' | 'running' | 'stopped' = 'idle'
  let attempt = 0
  let reconnectTimer: NodeJS.Timeout | undefined
  const ackWaiters: (() => void)[] = []

  const held = () => inFlight.size + offline.length

  // Events are written as they are sent until delivery fails (the first connection may still be opening: what is
  // written meanwhile is queued by the call). Once the connection failed or was lost, the stream is disconnected:
  // events are held under the offline rule until it is up again, then leave in their order.
  const channel = client.getChannel()
  let disconnected = false
  function followConnection(): void {
    if (state === 'stopped') return
    const current = channel.getConnectivityState(true)
    if (current === grpc.connectivityState.READY && disconnected) {
      disconnected = false
      if (call) deliverOffline()
    } else if (current === grpc.connectivityState.TRANSIENT_FAILURE) disconnected = true
    channel.watchConnectivityState(current, Date.now() + 60_000, () => followConnection())
  }
  function deliverOffline(): void {
    enforceOfflineLimits()
    const pending = offline
    offline = []
    for (const entry of pending) write(entry)
  }

  function drop(entries: HeldEvent[], reason: 'buffer_full' | 'too_old'): void {
    if (entries.length === 0) return
    warn(
      reason === 'too_old'
        ? `dropped ${entries.length} undelivered event(s) held longer than maxAgeMs while the stream was disconnected`
        : `dropped the ${entries.length} oldest undelivered event(s): at most maxEvents are held while the stream is disconnected`,
      {
        event_ids: entries.map((entry) => entry.id),
        ...(reason === 'too_old' ? { max_age_ms: maxAgeMs } : { max_events: maxEvents }),
      },
    )
    for (const entry of entries) options.onDropped?.(entry, reason)
  }

  /** The offline rule: applies only to what cannot be delivered; events in flight on a live call are kept. */
  function enforceOfflineLimits(): void {
    const expired = offline.filter((entry) => now() - entry.at > maxAgeMs)
    if (expired.length > 0) {
      offline = offline.filter((entry) => now() - entry.at <= maxAgeMs)
      drop(expired, 'too_old')
    }
    if (offline.length > maxEvents) drop(offline.splice(0, offline.length - maxEvents), 'buffer_full')
    if (held() === 0) for (const resolveWaiter of ackWaiters.splice(0)) resolveWaiter()
  }

  // Events sent in the same turn of the event loop leave in one message (and their acks come back together).
  let outgoing: HeldEvent[] = []
  let outgoingChars = 0
  function flush(): void {
    const entries = outgoing
    outgoing = []
    outgoingChars = 0
    if (!call || entries.length === 0) return
    if (entries.length === 1 && entries[0]) call.write(toClientMessage(entries[0].id, entries[0].event))
    else call.write({ events: { events: entries.map((entry) => toStreamEvent(entry.id, entry.event)) } })
  }
  function write(entry: HeldEvent): void {
    inFlight.set(entry.id, entry)
    if (outgoing.length === 0) setImmediate(flush)
    outgoing.push(entry)
    outgoingChars += (entry.event.content?.length ?? 0) + 200
    if (outgoing.length >= maxEventsPerMessage || outgoingChars >= maxCharsPerMessage) flush()
  }
  function acknowledged(ack: EventAck__Output): void {
    inFlight.delete(ack.eventId)
    options.onAck?.(ack)
  }

  /** The call is gone: what was in flight is undelivered again and goes first, in its order. */
  function lost(): void {
    call = undefined
    disconnected = true
    outgoing = []
    outgoingChars = 0
    offline = [...inFlight.values(), ...offline]
    inFlight.clear()
    enforceOfflineLimits()
    scheduleReconnect()
  }

  function scheduleReconnect(): void {
    if (state !== 'running' || reconnectTimer) return
    const ceiling = Math.min(maxBackoff, initialBackoff * 2 ** attempt)
    attempt += 1
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined
      open()
    }, Math.random() * ceiling)
  }

  function open(): void {
    if (state !== 'running') return
    const metadata = new grpc.Metadata()
    metadata.set('authorization', `Bearer ${options.apiKey}`)
    if (options.onAnticipatedContext) metadata.set('x-anticipated-context', 'subscribe')
    const current = client.Stream(metadata)
    call = current
    current.on('data', (message: ServerMessage__Output) => {
      attempt = 0
      if (message.anticipatedContext) options.onAnticipatedContext?.(message.anticipatedContext)
      if (message.ack) acknowledged(message.ack)
      else if (message.acks) for (const ack of message.acks.acks) acknowledged(ack)
      else return
      if (held() === 0) for (const resolveWaiter of ackWaiters.splice(0)) resolveWaiter()
    })
    current.on('error', (error: grpc.ServiceError) => {
      if (call !== current) return
      if (error.code === grpc.status.CANCELLED && state === 'stopped') return
      const mapped = errorForGrpcStatus(
        error.code,
        error.details,
        error.metadata.get('error-body')[0]?.toString(),
      )
      if (mapped instanceof AuthenticationError) {
        call = undefined
        state = 'stopped'
        options.onError?.(mapped)
        for (const resolveWaiter of ackWaiters.splice(0)) resolveWaiter()
        return
      }
      lost()
    })
    current.on('end', () => {
      if (call === current && state === 'running') lost()
    })
    // A call can fail while the connection stays up (a server draining or not serving yet refuses it): no
    // connectivity change follows, so the connection's present state decides, not only the last change seen.
    if (disconnected && channel.getConnectivityState(false) === grpc.connectivityState.READY)
      disconnected = false
    if (!disconnected) deliverOffline()
    else enforceOfflineLimits()
  }

  return {
    /** Opens the stream; events can be sent at once. */
    start(): void {
      if (state === 'stopped') throw new Error('the event stream was stopped; create a new one')
      if (state === 'running') return
      state = 'running'
      open()
      followConnection()
    },

    /** Sends (or buffers while reconnecting) one event and returns its id. */
    send(event: StreamEvent): string {
      if (state === 'idle') throw new Error('start() the event stream before sending')
      if (state === 'stopped') throw new Error('the event stream was stopped')
      const entry: HeldEvent = { id: event.event_id ?? `evt-${randomUUID()}`, event, at: now() }
      if (call && !disconnected) write(entry)
      else {
        offline.push(entry)
        enforceOfflineLimits()
      }
      return entry.id
    },

    /** Events sent or buffered and not yet acknowledged. */
    pending(): number {
      return held()
    },

    /**
     * `disconnected` once delivery failed and until the connection is up again (events are then held under the
     * offline rule); `connecting` or `connected` otherwise.
     */
    connection(): 'idle' | 'connecting' | 'connected' | 'disconnected' | 'stopped' {
      if (state !== 'running') return state
      if (disconnected) return 'disconnected'
      return channel.getConnectivityState(false) === grpc.connectivityState.READY ? 'connected' : 'connecting'
    },

    /**
     * Waits up to `deadlineMs` for every held event to be acknowledged (reconnecting meanwhile if needed), then
     * closes the stream. Resolves with the events that were never acknowledged: they may or may not have been
     * recorded, and resending them under the same ids is safe.
     */
    async stop(deadlineMs = DEFAULT_STOP_DEADLINE_MS): Promise<StopResult> {
      flush()
      if (state === 'running' && held() > 0) {
        let timer: NodeJS.Timeout | undefined
        await Promise.race([
          new Promise<void>((resolveWait) => ackWaiters.push(resolveWait)),
          new Promise<void>((resolveWait) => (timer = setTimeout(resolveWait, deadlineMs))),
        ])
        clearTimeout(timer)
      }
      const unacknowledged = [...inFlight.values(), ...offline]
      if (unacknowledged.length > 0)
        warn(
          `stopped with ${unacknowledged.length} event(s) not acknowledged within ${deadlineMs} ms; they may or may not have been recorded (resend them with the same ids)`,
          { event_ids: unacknowledged.map((entry) => entry.id) },
        )
      inFlight.clear()
      offline = []
      state = 'stopped'
      clearTimeout(reconnectTimer)
      call?.end()
      call = undefined
      client.close()
      return { unacknowledged }
    },
  }
}

export type EventStream = ReturnType<typeof createEventStream>
