import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { EventBatchResponse } from '@memory-service/contracts'
import { AppError } from '@memory-service/domain'
import type { ErrorCode } from '@memory-service/domain'
import type {
  KafkaConnection,
  Logger,
  SchemaRegistryConnection,
  ServiceConfig,
} from '@memory-service/engines'
import type { EventRecorder } from './createEventRecorder.js'
import { addMetricsSource, withTraceHeaders, type ThreadMetrics } from '@memory-service/engines'
import type { DedupeWindowStats } from '@memory-service/domain'

/** What the writer thread is started with (structured-cloneable). */
export interface WriterSettings {
  kafka: KafkaConnection
  registry: SchemaRegistryConnection
  /** Where the data keys are and how they are wrapped: the thread seals what it writes like every writer. */
  elasticsearch: ServiceConfig['elasticsearch']
  encryption: ServiceConfig['encryption']
  topic: string
  windowMs: number
  maxEntries: number
  logLevel: string
  loggerName: string
}

export type WriterRequest =
  | {
      kind: 'record'
      id: number
      scope: { instanceId: string; clientId: string }
      events: unknown[]
      correlationId: string
      traceHeaders?: Record<string, string>
    }
  | { kind: 'stats'; id: number }
  | { kind: 'metrics'; id: number }
  | { kind: 'close' }

export type WriterResponse =
  | { kind: 'started' }
  | { kind: 'caught-up' }
  | { kind: 'closed' }
  | { kind: 'recorded'; id: number; response: EventBatchResponse }
  | { kind: 'failed'; id: number; error: { code: string; message: string; details: Record<string, unknown> } }
  | { kind: 'stats'; id: number; stats: DedupeWindowStats & { caughtUp: boolean } }
  | { kind: 'metrics'; id: number; metrics: ThreadMetrics }

export interface EventLogWriter extends EventRecorder {
  /** Resolves once the thread has read the recent log back (its dedupe window is rebuilt). */
  readonly caughtUp: Promise<void>
  stats(): Promise<DedupeWindowStats & { caughtUp: boolean }>
  close(): Promise<void>
}

const unavailable = (reason: string) =>
  new AppError('SERVICE_UNAVAILABLE', 'The event writer is unavailable; nothing was recorded', {
    retry_after_seconds: 2,
    reason,
  })

/**
 * Starts the event recorder (createEventRecorder with its producer and dedupe window) on a worker thread of its own
 * and answers `record` through it. The thread is restarted if it ever exits on its own; requests it was handling
 * are answered SERVICE_UNAVAILABLE (retrying them with the same event_id is safe).
 */
export async function createEventLogWriter(
  settings: WriterSettings,
  logger: Logger,
): Promise<EventLogWriter> {
  // From sources (tsx, vitest) the thread registers tsx before loading the TypeScript entry; a build runs the
  // compiled entry as it is.
  const fromSources = import.meta.url.endsWith('.ts')
  const entry = new URL(fromSources ? './eventLogWriter.ts' : './eventLogWriter.js', import.meta.url)
  const tsxApi = () =>
    pathToFileURL(
      join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
    ).href
  const bootstrap = fromSources
    ? new URL(
        `data:text/javascript,${encodeURIComponent(
          `import { register } from ${JSON.stringify(tsxApi())}; register(); await import(${JSON.stringify(entry.href)})`,
        )}`,
      )
    : entry
  const waiting = new Map<number, { resolve(value: never): void; reject(error: unknown): void }>()
  let nextId = 0
  let closing = false
  let markCaughtUp!: () => void
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve))
  let worker!: Worker

  const start = (): Promise<void> =>
    new Promise<void>((resolveStarted, rejectStarted) => {
      worker = new Worker(bootstrap, { workerData: settings })
      let started = false
      worker.on('message', (message: WriterResponse) => {
        if (message.kind === 'started') {
          started = true
          resolveStarted()
        } else if (message.kind === 'caught-up') markCaughtUp()
        else if (message.kind === 'recorded' || message.kind === 'stats' || message.kind === 'metrics') {
          const pending = waiting.get(message.id)
          waiting.delete(message.id)
          const answer =
            message.kind === 'recorded'
              ? message.response
              : message.kind === 'stats'
                ? message.stats
                : message.metrics
          pending?.resolve(answer as never)
        } else if (message.kind === 'failed') {
          const pending = waiting.get(message.id)
          waiting.delete(message.id)
          pending?.reject(
            new AppError(message.error.code as ErrorCode, message.error.message, message.error.details),
          )
        }
      })
      worker.on('error', (error) => {
        logger.error({ err: error }, 'event writer thread failed')
        if (!started) rejectStarted(error)
      })
      worker.on('exit', (code) => {
        for (const [id, pending] of waiting) {
          waiting.delete(id)
          pending.reject(unavailable('event_writer_restarting'))
        }
        if (closing || !started) return
        logger.error({ code }, 'event writer thread exited; starting it again')
        start().catch((error: unknown) => logger.error({ err: error }, 'event writer thread did not restart'))
      })
    })

  const ask = <T>(request: (id: number) => WriterRequest): Promise<T> => {
    if (closing) return Promise.reject(unavailable('closing'))
    const id = (nextId += 1)
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve, reject })
      worker.postMessage(request(id))
    })
  }

  await start()
  // The thread's produce requests are the gateway's: its Kafka metrics join the process's at each scrape.
  const stopMetrics = addMetricsSource(() => ask<ThreadMetrics>((id) => ({ kind: 'metrics', id })))
  return {
    caughtUp,
    record: (scope, events, correlationId) => {
      // The thread has no trace of its own: the request's span travels with the events, into their headers.
      const traceHeaders: Record<string, string> = {}
      withTraceHeaders(traceHeaders)
      return ask<EventBatchResponse>((id) => ({
        kind: 'record',
        id,
        scope,
        events,
        correlationId,
        traceHeaders,
      }))
    },
    stats: () => ask((id) => ({ kind: 'stats', id })),
    async close() {
      stopMetrics()
      closing = true
      const closed = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
      worker.postMessage({ kind: 'close' } satisfies WriterRequest)
      const timer = setTimeout(() => void worker.terminate(), 10_000)
      await closed
      clearTimeout(timer)
    },
  }
}
