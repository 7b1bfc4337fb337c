/**
 * The built-in language work's thread: extraction of documents and extractive summaries of compacted turns, one at
 * a time. This file is the thread's entry; `createLanguageThread` (languageThread.ts) starts it.
 */
import { parentPort } from 'node:worker_threads'
import { createBuiltinExtractor, summarizeExtractively } from '@memory-service/domain'
import type { LanguageThreadReply, LanguageThreadRequest } from './languageThread.js'

const port = parentPort
if (!port) throw new Error('languageThreadEntry.ts runs as a worker thread')
const extractor = createBuiltinExtractor()

const answer = async (request: LanguageThreadRequest): Promise<LanguageThreadReply> =>
  request.kind === 'extract'
    ? { id: request.id, kind: 'extract', result: await extractor.extract(request.input) }
    : { id: request.id, kind: 'summarize', result: summarizeExtractively(request.input) }

port.on('message', (request: LanguageThreadRequest) => {
  answer(request).then(
    (reply) => port.postMessage(reply),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies LanguageThreadReply),
  )
})
