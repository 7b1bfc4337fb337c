import { Worker } from 'node:worker_threads'
import { ExtractionError, type ExtractionResult, type Extractor } from '@memory-service/domain'
import { threadEntry, type Logger } from '@memory-service/engines'

export type ExtractorThreadReply = { id: number; result: ExtractionResult } | { id: number; error: string }

/**
 * Niceness of the extraction thread. Memory formation is background work: when the machine is busy, the write path
 * and reads (the gateway, the projections that make a turn readable) go first, and extraction takes what is left.
 * On an idle machine a thread of lower priority still gets a whole core.
 */
export const EXTRACTION_NICENESS = 10

/**
 * The built-in extractor on a worker thread of its own. Extraction is pure CPU (sentences, dates, entities, the
 * third-person rewrite, near duplicates): a long document took the event loop for seconds, and with it the
 * gateway, the projectors and the pipeline's own appends that share the process. The thread is started on first use
 * and again after it fails; a document it was extracting fails transiently (the pipeline retries it).
 */
export function createExtractorThread(
  logger: Logger,
  options: { niceness?: number } = {},
): Extractor & { close(): Promise<void> } {
  const waiting = new Map<number, { resolve(result: ExtractionResult): void; reject(error: Error): void }>()
  let nextId = 0
  let worker: Worker | undefined

  const failAll = (message: string) => {
    for (const [id, pending] of waiting) {
      waiting.delete(id)
      pending.reject(new ExtractionError('EXTRACTION_UNAVAILABLE', message, true))
    }
  }
  const started = (): Worker => {
    if (worker) return worker
    const thread = new Worker(threadEntry(import.meta.url, 'extractionThread'), {
      workerData: { niceness: options.niceness ?? EXTRACTION_NICENESS },
    })
    // The thread never keeps the process alive: a service stops when its consumers do.
    thread.unref()
    thread.on('message', (reply: ExtractorThreadReply) => {
      const pending = waiting.get(reply.id)
      waiting.delete(reply.id)
      if ('result' in reply) pending?.resolve(reply.result)
      else pending?.reject(new ExtractionError('EXTRACTION_FAILED', reply.error, false))
    })
    thread.on('error', (error) => logger.error({ err: error }, 'extraction thread failed'))
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined
      failAll(`the extraction thread exited (code ${String(code)})`)
    })
    worker = thread
    return thread
  }

  return {
    name: 'builtin',
    extract(input, signal) {
      signal?.throwIfAborted()
      const id = (nextId += 1)
      return new Promise<ExtractionResult>((resolve, reject) => {
        const aborted = () => {
          waiting.delete(id)
          const reason: unknown = signal?.reason
          reject(reason instanceof Error ? reason : new Error('extraction aborted'))
        }
        signal?.addEventListener('abort', aborted, { once: true })
        waiting.set(id, {
          resolve: (result) => {
            signal?.removeEventListener('abort', aborted)
            resolve(result)
          },
          reject: (error) => {
            signal?.removeEventListener('abort', aborted)
            reject(error)
          },
        })
        started().postMessage({ id, input })
      })
    },
    async close() {
      const thread = worker
      worker = undefined
      if (thread) await thread.terminate()
    },
  }
}
