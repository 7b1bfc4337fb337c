/**
 * The built-in extractor's thread: extracts what it is sent, one document at a time, at a lower CPU priority than
 * the rest of the process. This file is the thread's entry; `createExtractorThread` (extractorThread.ts) starts it.
 */
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { createBuiltinExtractor, type ExtractionInput } from '@memory-service/domain'
import type { ExtractorThreadReply } from './extractorThread.js'

const port = parentPort
if (!port) throw new Error('extractionThread.ts runs as a worker thread')
const { niceness } = workerData as { niceness: number }
// On Linux a thread's niceness is its own: this lowers the extraction thread, not the gateway or the projectors
// beside it. Elsewhere the call would lower the whole process, so it is not made.
if (process.platform === 'linux' && niceness > 0) setPriority(niceness)
const extractor = createBuiltinExtractor()

port.on('message', ({ id, input }: { id: number; input: ExtractionInput }) => {
  extractor.extract(input).then(
    (result) => port.postMessage({ id, result } satisfies ExtractorThreadReply),
    (error: unknown) =>
      port.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies ExtractorThreadReply),
  )
})
