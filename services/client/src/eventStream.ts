import { randomUUID } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { existsSync } from 'node:fs'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'
import type { ConversationEvent } from './contracts/index.js'
import type { ProtoGrpcType } from './contracts/proto/event_stream.js'
import type { ClientMessage } from './contracts/proto/memory/v1/ClientMessage.js'
import type { EventAck__Output } from './contracts/proto/memory/v1/EventAck.js'
import type { AnticipatedContext__Output } from './contracts/proto/memory/v1/AnticipatedContext.js'
import type { ServerMessage__Output } from './contracts/proto/memory/v1/ServerMessage.js'
import { AuthenticationError, errorForGrpcStatus, type MemoryServiceClientError } from './errors.js'

// The contract: packed next to dist/ in the published package, at the repository root in a checkout.
const here = dirname(fileURLToPath(import.meta.url))
const protoDir =
  [resolve(here, '../proto'), resolve(here, '../../../proto')].find((dir) =>
    existsSync(resolve(dir, 'memory/v1/event_stream.proto')),
  ) ?? resolve(here, '../../../proto')

/** An event as POST /v1/events/batch takes it (schemas/rest/ConversationEvent.schema.json). */
export type StreamEvent = ConversationEvent

export interface EventStreamOptions {
  /** gRPC address, e.g. 127.0.0.1:50051. */
  address: string
  apiKey: string
  /** Events held while unacknowledged or disconnected. @default 100 */
  maxEvents?: number
  /** Oldest event age kept. @default 300000 (five minutes) */
  maxAgeMs?: number
  /** Reconnect backoff: doubles from the initial delay up to the maximum, with full jitter. */
  backoff?: { initialMs?: number; maxMs?: number }
  onAck?: (ack: EventAck__Output) => void
  /** Context the service pushes after a user turn: what the agent will likely need next. */
  onAnticipatedContext?: (context: AnticipatedContext__Output) => void
  /** A permanent failure (bad key, missing permission): the stream stops reconnecting. */
  onError?: (error: MemoryServiceClientError) => void
  warn?: (message: string, context: Record<string, unknown>) => void
  now?: () => number
}

interface Held {
  id: string
  event: StreamEvent
  at: number
}

function toClientMessage(id: string, event: StreamEvent): ClientMessage {
  return {
    event: {
      eventId: id,
      eventType: event.event_type,
      conversationId: event.conversation_id,
      userId: event.user_id,
      ...(event.customer_id !== undefined ? { customerId: event.customer_id } : {}),
      ...(event.role !== undefined ? { role: event.role } : {}),
      ...(event.content !== undefined ? { content: event.content } : {}),
      ...(event.occurred_at !== undefined ? { occurredAt: event.occurred_at } : {}),
      metadataJson: event.metadata ? JSON.stringify(event.metadata) : '',
    },
  }
}

/**
 * Streams conversation events over gRPC. Each event gets an id; sent events are kept until acknowledged and
 * replayed first after a reconnect (same ids, so the service records them once), then the events buffered while
 * disconnected. At most `maxEvents` events or `maxAgeMs` of age are held; beyond that the oldest is dropped with
 * a warning. `send` buffers while reconnecting and throws only before `start` or after `stop`.
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
  const unacked = new Map<string, Held>()
  /** Not sent yet (no open call). */
  let buffered: Held[] = []
  let call: grpc.ClientDuplexStream<ClientMessage, ServerMessage__Output> | undefined
  let state: 'idle' | 'running' | 'stopped' = 'idle'
  let attempt = 0
  let reconnectTimer: NodeJS.Timeout | undefined
  const ackWaiters: (() => void)[] = []

  const held = () => unacked.size + buffered.length

  function enforceLimits(): void {
    const expired = (entry: Held) => now() - entry.at > maxAgeMs
    for (const [id, entry] of unacked) {
      if (!expired(entry)) break
      unacked.delete(id)
      warn('dropped an event older than the buffer age limit', { event_id: id })
    }
    buffered = buffered.filter((entry) => {
      if (!expired(entry)) return true
      warn('dropped an event older than the buffer age limit', { event_id: entry.id })
      return false
    })
    while (held() > maxEvents) {
      const oldestUnacked = unacked.values().next().value
      const oldestBuffered = buffered[0]
      if (oldestUnacked && (!oldestBuffered || oldestUnacked.at <= oldestBuffered.at))
        unacked.delete(oldestUnacked.id)
      else buffered.shift()
      warn('dropped the oldest event: the buffer holds at most maxEvents events', { max_events: maxEvents })
    }
  }

  function write(entry: Held): void {
    unacked.set(entry.id, entry)
    call?.write(toClientMessage(entry.id, entry.event))
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
    const current = client.Stream(metadata)
    call = current
    current.on('data', (message: ServerMessage__Output) => {
      attempt = 0
      if (message.anticipatedContext) options.onAnticipatedContext?.(message.anticipatedContext)
      if (!message.ack) return
      unacked.delete(message.ack.eventId)
      options.onAck?.(message.ack)
      if (held() === 0) for (const resolveWaiter of ackWaiters.splice(0)) resolveWaiter()
    })
    current.on('error', (error: grpc.ServiceError) => {
      if (call !== current) return
      call = undefined
      if (error.code === grpc.status.CANCELLED && state === 'stopped') return
      const mapped = errorForGrpcStatus(
        error.code,
        error.details,
        error.metadata.get('error-body')[0]?.toString(),
      )
      if (mapped instanceof AuthenticationError) {
        state = 'stopped'
        options.onError?.(mapped)
        return
      }
      // Unacknowledged events go back in front of the buffer, in their order, and are replayed first.
      buffered = [...unacked.values(), ...buffered]
      unacked.clear()
      scheduleReconnect()
    })
    current.on('end', () => {
      if (call === current && state === 'running') {
        call = undefined
        buffered = [...unacked.values(), ...buffered]
        unacked.clear()
        scheduleReconnect()
      }
    })
    // Writes are queued by the call until the connection is up: nothing sent right after opening is lost.
    enforceLimits()
    const pending = buffered
    buffered = []
    for (const entry of pending) write(entry)
  }

  return {
    /** Opens the stream; events can be sent at once. */
    start(): void {
      if (state === 'stopped') throw new Error('the event stream was stopped; create a new one')
      if (state === 'running') return
      state = 'running'
      open()
    },

    /** Sends (or buffers while reconnecting) one event and returns its id. */
    send(event: StreamEvent): string {
      if (state === 'idle') throw new Error('start() the event stream before sending')
      if (state === 'stopped') throw new Error('the event stream was stopped')
      const entry: Held = { id: event.event_id ?? `evt-${randomUUID()}`, event, at: now() }
      if (call) write(entry)
      else buffered.push(entry)
      enforceLimits()
      return entry.id
    },

    /** Events sent or buffered and not yet acknowledged. */
    pending(): number {
      return held()
    },

    /** Waits up to `deadlineMs` for every held event to be acknowledged, then closes the stream. */
    async stop(deadlineMs = 2000): Promise<void> {
      if (state !== 'running') {
        state = 'stopped'
        client.close()
        return
      }
      if (held() > 0) {
        await Promise.race([
          new Promise<void>((resolveWait) => ackWaiters.push(resolveWait)),
          new Promise<void>((resolveWait) => setTimeout(resolveWait, deadlineMs)),
        ])
      }
      if (held() > 0) warn('stopped with unacknowledged events; they are lost', { count: held() })
      state = 'stopped'
      clearTimeout(reconnectTimer)
      call?.end()
      call = undefined
      client.close()
    },
  }
}

export type EventStream = ReturnType<typeof createEventStream>
