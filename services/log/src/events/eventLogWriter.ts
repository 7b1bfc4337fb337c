/**
 * The event recorder on a thread of its own: validation, encoding, the produce requests and the read-back of the
 * log run beside the thread that serves HTTP and gRPC, so a gateway uses two cores for its write path instead of one.
 * This file is the thread's entry; `createEventLogWriter` (eventLogWriterThread.ts) starts it.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createCoalescingAppender } from '../kafka/coalescingAppender.js'
import { createKafka } from '@memory-service/engines'
import { createEventProducer } from '../kafka/eventProducer.js'
import { createLogger } from '@memory-service/engines'
import {
  createElasticsearchClient,
  createSchemaCodec,
  createSealingCodec,
  keyringOf,
  threadMetrics,
} from '@memory-service/engines'
import { CONVERSATION_EVENT_SUBJECT, conversationEventRecordedSchema } from '@memory-service/domain'
import { createEventRecorder } from './createEventRecorder.js'
import { createEventIdTail } from './eventIdTail.js'
import type { WriterRequest, WriterResponse, WriterSettings } from './eventLogWriterThread.js'

const settings = workerData as WriterSettings
const port = parentPort
if (!port) throw new Error('eventLogWriter.ts runs as a worker thread')

const logger = createLogger({ level: settings.logLevel, name: settings.loggerName }).child({
  component: 'event-log-writer',
})
const kafka = createKafka({ ...settings.kafka, logger })
const elasticsearch = createElasticsearchClient(settings.elasticsearch)
const codec = createSealingCodec(
  createSchemaCodec(settings.registry),
  keyringOf(settings.encryption, elasticsearch),
  { seal: settings.encryption.enabled },
)
await codec.register([{ subject: CONVERSATION_EVENT_SUBJECT, schema: conversationEventRecordedSchema }])
const producer = await createEventProducer(kafka, codec)
const recorded = await createEventIdTail({
  kafka,
  topic: settings.topic,
  logger,
  windowMs: settings.windowMs,
  maxEntries: settings.maxEntries,
})
const recorder = createEventRecorder({
  appender: createCoalescingAppender(producer),
  recorded,
  logger,
  topic: settings.topic,
})
const post = (message: WriterResponse) => port.postMessage(message)
void recorded.ready.then(() => post({ kind: 'caught-up' }))

port.on('message', (message: WriterRequest) => {
  if (message.kind === 'close') {
    void Promise.allSettled([recorded.close(), producer.close(), elasticsearch.close()]).then(() => {
      post({ kind: 'closed' })
      port.close()
    })
    return
  }
  if (message.kind === 'stats') {
    post({ kind: 'stats', id: message.id, stats: recorded.stats() })
    return
  }
  if (message.kind === 'metrics') {
    void threadMetrics().then((metrics) => post({ kind: 'metrics', id: message.id, metrics }))
    return
  }
  recorder.record(message.scope, message.events, message.correlationId, message.traceHeaders).then(
    (response) => post({ kind: 'recorded', id: message.id, response }),
    (error: unknown) => {
      const failure = error as { code?: string; message?: string; details?: Record<string, unknown> }
      post({
        kind: 'failed',
        id: message.id,
        error: {
          code: failure.code ?? 'INTERNAL_ERROR',
          message: failure.message ?? String(error),
          details: failure.details ?? {},
        },
      })
    },
  )
})
post({ kind: 'started' })
