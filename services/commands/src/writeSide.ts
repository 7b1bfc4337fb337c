import { randomUUID } from 'node:crypto'
import {
  createElasticsearchStore,
  type Logger,
  type ProcessRuntime,
  type SchemaRegistration,
} from '@memory-service/engines'
import {
  createBackgroundAppender,
  createCoalescingAppender,
  createEventProducer,
  type EventAppender,
  type EventProducer,
} from '@memory-service/log'
import {
  INGESTION_JOBS_INDEX,
  USAGE_TOPIC,
  type IngestionJob,
  type OutgoingEvent,
  IDEMPOTENCY_INDEX,
} from '@memory-service/domain'
import { createDocumentIngestor, type DocumentIngestor } from './documents/createDocumentIngestor.js'
import { createClaimStore, type ClaimStore } from './idempotency/createClaimStore.js'

/** What a service that writes to the log uses, wired the same way wherever it runs. */
export interface WriteSide {
  producer: EventProducer
  /** Appends of the service merged into shared produce requests. */
  appender: EventAppender
  claims: ClaimStore
  documents: DocumentIngestor
  /** Usage events: held a moment and appended together, never holding a request back. */
  recordUsage: (events: OutgoingEvent[]) => void
}

/**
 * A service's write side: its producer (the subjects it writes registered first), the idempotency claims it owns
 * (named after the service and process, so a takeover after a crash is traceable), document ingestion and usage
 * recording. Closed with the process.
 */
export async function createWriteSide(
  runtime: ProcessRuntime,
  service: string,
  subjects: SchemaRegistration[],
  logger: Logger,
  options: {
    /** The instance's default time to live of memories in days (storage.expiry of its active configuration). */
    defaultTtlDaysOf?: (instanceId: string) => number | null
  } = {},
): Promise<WriteSide> {
  const { engines } = runtime
  await engines.schemaCodec.register(subjects)
  const producer = await createEventProducer(engines.kafka, engines.schemaCodec)
  runtime.onClose(() => producer.close())
  const appender = createCoalescingAppender(producer)
  const owner = `${service}-${process.pid}-${randomUUID()}`
  const claims = createClaimStore(engines.elasticsearch, { index: IDEMPOTENCY_INDEX, owner })
  // A document's claim guards only the answer (201 or 409), not the data: a second append of the same document is
  // the same ingestion. So a retry may take over a claim its gateway left unconfirmed sooner than a compaction lock.
  const documentClaims = createClaimStore(engines.elasticsearch, {
    index: IDEMPOTENCY_INDEX,
    owner,
    leaseMs: 10_000,
  })
  const usage = createBackgroundAppender(appender, USAGE_TOPIC, {
    onError: (error, count) => logger.warn({ err: error, count }, 'usage events not recorded'),
  })
  runtime.onClose(() => usage.flush())
  const documents = createDocumentIngestor({
    producer,
    claims: documentClaims,
    jobs: createElasticsearchStore<IngestionJob>(engines.elasticsearch, INGESTION_JOBS_INDEX),
    logger,
    ...(options.defaultTtlDaysOf ? { defaultTtlDaysOf: options.defaultTtlDaysOf } : {}),
  })
  return { producer, appender, claims, documents, recordUsage: (events) => usage.record(events) }
}
