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

/**
 * Niceness of the language thread. Memory formation and compaction are background work: when the machine is busy,
 * the write path and reads (the gateway, the projections that make a turn readable) go first, and this thread takes
 * what is left. On an idle machine a thread of lower priority still gets a whole core.
 */
export const LANGUAGE_THREAD_NICENESS = 10

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
 */
export function createLanguageThread(logger: Logger, options: { niceness?: number } = {}): LanguageThread {
  const waiting = new Map<number, { resolve(result: never): void; reject(error: Error): void }>()
  let nextId = 0
  let worker: Worker | undefined

  const started = (): Worker => {
    if (worker) return worker
    const thread = new Worker(threadEntry(import.meta.url, 'languageThreadEntry'), {
      workerData: { niceness: options.niceness ?? LANGUAGE_THREAD_NICENESS },
    })
    // The thread never keeps the process alive: a service stops when its consumers do.
    thread.unref()
    thread.on('message', (reply: LanguageThreadReply) => {
      const pending = waiting.get(reply.id)
      waiting.delete(reply.id)
      if ('result' in reply) pending?.resolve(reply.result as never)
      else pending?.reject(new ExtractionError('EXTRACTION_FAILED', reply.error, false))
    })
    thread.on('error', (error) => logger.error({ err: error }, 'language thread failed'))
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined
      for (const [id, pending] of waiting) {
        waiting.delete(id)
        pending.reject(
          new ExtractionError(
            'EXTRACTION_UNAVAILABLE',
            `the language thread exited (code ${String(code)})`,
            true,
          ),
        )
      }
    })
    worker = thread
    return thread
  }

  const ask = <T>(request: (id: number) => LanguageThreadRequest, signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted()
    const id = (nextId += 1)
    return new Promise<T>((resolve, reject) => {
      const aborted = () => {
        waiting.delete(id)
        const reason: unknown = signal?.reason
        reject(reason instanceof Error ? reason : new Error('aborted'))
      }
      signal?.addEventListener('abort', aborted, { once: true })
      waiting.set(id, {
        resolve: (result: T) => {
          signal?.removeEventListener('abort', aborted)
          resolve(result)
        },
        reject: (error) => {
          signal?.removeEventListener('abort', aborted)
          reject(error)
        },
      })
      started().postMessage(request(id))
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
