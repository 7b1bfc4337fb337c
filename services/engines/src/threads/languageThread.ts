import { Worker } from 'node:worker_threads'
import {
  ExtractionError,
  type CompactedSummary,
  type ExtractionInput,
  type ExtractionResult,
  type Extractor,
  type summarizeExtractively,
} from '@memory-service/domain'
import type { Logger } from '../logging/createLogger.js'
import type { ProcessRuntime } from '../runtime/processRuntime.js'
import { threadEntry } from './threadEntry.js'

type SummaryRequest = Parameters<typeof summarizeExtractively>[0]

export type LanguageThreadRequest =
  | { id: number; kind: 'extract'; input: ExtractionInput }
  | { id: number; kind: 'summarize'; input: SummaryRequest }

export type LanguageThreadReply =
  | { id: number; kind: 'extract'; result: ExtractionResult }
  | { id: number; kind: 'summarize'; result: CompactedSummary }
  | { id: number; error: string }

export interface LanguageThread {
  /** The built-in extractor, run on the thread. */
  readonly extractor: Extractor
  /** `summarizeExtractively` of the domain, run on the thread. */
  summarizeExtractively: (request: SummaryRequest) => Promise<CompactedSummary>
  close: () => Promise<void>
}

/**
 * The built-in language work on a worker thread of its own: extraction (sentences, dates, entities, the third-person
 * rewrite, near duplicates) and the extractive summary of compacted turns, which runs the same extraction. Both are
 * pure CPU: a long document or a compaction of a thousand turns took the event loop for seconds, and with it the
 * gateway, the projectors and the pipeline's appends that share the process. The thread is started on first use and
 * again after it fails; what it was doing fails transiently (the pipeline retries a document).
 *
 * The thread is given one request at a time, a document's extraction before any summary waiting: a summary of a
 * long conversation holds the thread for a while, and a document's memories are what a user waits to search.
 */
export function createLanguageThread(logger: Logger): LanguageThread {
  interface Pending {
    request: LanguageThreadRequest
    resolve(result: never): void
    reject(error: Error): void
  }
  const documents: Pending[] = []
  const summaries: Pending[] = []
  let inFlight: Pending | undefined
  let nextId = 0
  let worker: Worker | undefined

  const pump = (): void => {
    if (inFlight) return
    const next = documents.shift() ?? summaries.shift()
    if (!next) return
    inFlight = next
    started().postMessage(next.request)
  }
  const settle = (outcome: (pending: Pending) => void): void => {
    const pending = inFlight
    inFlight = undefined
    if (pending) outcome(pending)
    pump()
  }
  const started = (): Worker => {
    if (worker) return worker
    const thread = new Worker(threadEntry(import.meta.url, 'languageThreadEntry'))
    // The thread never keeps the process alive: a service stops when its consumers do.
    thread.unref()
    thread.on('message', (reply: LanguageThreadReply) =>
      settle((pending) =>
        'result' in reply
          ? pending.resolve(reply.result as never)
          : pending.reject(new ExtractionError('EXTRACTION_FAILED', reply.error, false)),
      ),
    )
    thread.on('error', (error) => logger.error({ err: error }, 'language thread failed'))
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined
      settle((pending) =>
        pending.reject(
          new ExtractionError(
            'EXTRACTION_UNAVAILABLE',
            `the language thread exited (code ${String(code)})`,
            true,
          ),
        ),
      )
    })
    worker = thread
    return thread
  }

  const ask = <T>(request: (id: number) => LanguageThreadRequest, signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted()
    const id = (nextId += 1)
    const message = request(id)
    return new Promise<T>((resolve, reject) => {
      const queue = message.kind === 'extract' ? documents : summaries
      const pending: Pending = {
        request: message,
        resolve: (result: T) => {
          signal?.removeEventListener('abort', aborted)
          resolve(result)
        },
        reject: (error) => {
          signal?.removeEventListener('abort', aborted)
          reject(error)
        },
      }
      // A request still waiting leaves its queue; one the thread is working on is answered and its answer dropped.
      function aborted() {
        const waiting = queue.indexOf(pending)
        if (waiting >= 0) queue.splice(waiting, 1)
        else if (inFlight === pending)
          inFlight = { ...pending, resolve: () => undefined, reject: () => undefined }
        const reason: unknown = signal?.reason
        reject(reason instanceof Error ? reason : new Error('aborted'))
      }
      signal?.addEventListener('abort', aborted, { once: true })
      queue.push(pending)
      pump()
    })
  }

  return {
    extractor: {
      name: 'builtin',
      extract: (input, signal) => ask<ExtractionResult>((id) => ({ id, kind: 'extract', input }), signal),
    },
    summarizeExtractively: (input) => ask<CompactedSummary>((id) => ({ id, kind: 'summarize', input })),
    async close() {
      const thread = worker
      worker = undefined
      if (thread) await thread.terminate()
    },
  }
}

/** The process's one language thread, shared by the pipeline, the projectors and the gateway it runs. */
export function sharedLanguageThread(runtime: ProcessRuntime): Promise<LanguageThread> {
  return runtime.shared(
    'language-thread',
    () => Promise.resolve(createLanguageThread(runtime.logger)),
    (thread) => thread.close(),
  )
}
