import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client'
import type { Embedder } from '../embeddings/embeddings.js'

/**
 * The process's Prometheus metrics: one registry per process, as Prometheus scrapes a process (a test that starts
 * several services in one process reads differences, not totals). Labels are bounded on purpose — routes as their
 * templates, topics, consumer groups, stages, outcomes — never an instance, user, document or memory id.
 */
export const metricsRegistry = new Registry()

collectDefaultMetrics({ register: metricsRegistry })

const registers = [metricsRegistry]

/** Seconds, from 1 ms to 30 s: HTTP and gRPC calls, Kafka appends, projection batches. */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
/** Seconds, from 10 ms to 5 min: a document's stages and its whole way through the pipeline. */
const stageBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

export const httpRequestDuration = new Histogram({
  name: 'memory_service_http_request_duration_seconds',
  help: 'REST requests by method, route template and status code, from the first byte read to the last written.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: latencyBuckets,
  registers,
})

export const grpcRequestDuration = new Histogram({
  name: 'memory_service_grpc_request_duration_seconds',
  help: 'gRPC calls by method and status code; an event stream counts once, when it ends.',
  labelNames: ['method', 'status_code'] as const,
  buckets: [...latencyBuckets, 60, 300, 900, 3600],
  registers,
})

export const conversationEvents = new Counter({
  name: 'memory_service_events_total',
  help: 'Conversation events received, by transport (http, grpc) and outcome (accepted, duplicate, rejected).',
  labelNames: ['transport', 'outcome'] as const,
  registers,
})

/** Counts what a batch of conversation events became. */
export function countEventOutcomes(
  transport: 'http' | 'grpc',
  outcomes: readonly { status: 'accepted' | 'duplicate' | 'rejected' }[],
): void {
  let accepted = 0
  let duplicate = 0
  let rejected = 0
  for (const { status } of outcomes) {
    if (status === 'accepted') accepted += 1
    else if (status === 'duplicate') duplicate += 1
    else rejected += 1
  }
  if (accepted > 0) conversationEvents.inc({ transport, outcome: 'accepted' }, accepted)
  if (duplicate > 0) conversationEvents.inc({ transport, outcome: 'duplicate' }, duplicate)
  if (rejected > 0) conversationEvents.inc({ transport, outcome: 'rejected' }, rejected)
}

export const eventAckDuration = new Histogram({
  name: 'memory_service_event_ack_duration_seconds',
  help: 'From an event read off the stream or a batch request to its acknowledgement (appended to Kafka), by transport.',
  labelNames: ['transport'] as const,
  buckets: latencyBuckets,
  registers,
})

export const rateLimited = new Counter({
  name: 'memory_service_rate_limited_total',
  help: 'Requests and stream events refused by the per-key rate limit, by transport.',
  labelNames: ['transport'] as const,
  registers,
})

export const kafkaProduceDuration = new Histogram({
  name: 'memory_service_kafka_produce_duration_seconds',
  help: 'Produce requests to Kafka (acks=all), by outcome (ok, error); one request may carry several topics.',
  labelNames: ['outcome'] as const,
  buckets: latencyBuckets,
  registers,
})

export const kafkaProducedRecords = new Counter({
  name: 'memory_service_kafka_produced_records_total',
  help: 'Records written to Kafka, by topic.',
  labelNames: ['topic'] as const,
  registers,
})

/** What a lag read gives, per group (the shape of the log package's consumer lag). */
export type LagReading = {
  group: string
  topics?: { topic: string; lag: number; partitions?: { partition: number; lag: number }[] }[]
}[]

const lagSources = new Set<() => Promise<LagReading>>()

new Gauge({
  name: 'memory_service_consumer_lag',
  help: "Records a consumer group has not yet handled, per topic and partition (read from Kafka's offsets at each scrape, by a process that runs a gateway).",
  labelNames: ['group', 'topic', 'partition'] as const,
  registers,
  async collect() {
    this.reset()
    // Every gateway of a process reads the same cluster: the first one's reading is the process's.
    const [read] = lagSources
    if (!read) return
    for (const group of await read()) {
      for (const topic of group.topics ?? []) {
        for (const { partition, lag } of topic.partitions ?? [])
          this.set({ group: group.group, topic: topic.topic, partition: String(partition) }, lag)
      }
    }
  },
})

/** Reports consumer lag at each scrape until the returned function is called. */
export function exposeConsumerLag(read: () => Promise<LagReading>): () => void {
  lagSources.add(read)
  return () => void lagSources.delete(read)
}

export const consumedBatchDuration = new Histogram({
  name: 'memory_service_consumer_batch_duration_seconds',
  help: 'Applying one fetched batch of records (one record, for a consumer that handles them one by one, as the pipeline does), by consumer group.',
  labelNames: ['group'] as const,
  buckets: latencyBuckets,
  registers,
})

export const consumedRecordAge = new Histogram({
  name: 'memory_service_consumer_record_age_seconds',
  help: "How long after it was appended (the record's log timestamp) a record was applied, by consumer group: the oldest record of each applied batch, or each record for a consumer that handles them one by one. A read side's delay behind the log, before any index refresh.",
  labelNames: ['group'] as const,
  buckets: latencyBuckets,
  registers,
})

export const consumedRecords = new Counter({
  name: 'memory_service_consumer_records_total',
  help: 'Records of a consumer group by outcome: applied (handled), dead_lettered (parked in the dead-letter topic: refused by a store, undecodable, or a document whose pipeline stage failed, which is applied too), erased (passed over: its data subject was erased).',
  labelNames: ['group', 'outcome'] as const,
  registers,
})

export const pipelineStageDuration = new Histogram({
  name: 'memory_service_pipeline_stage_duration_seconds',
  help: 'One call of a pipeline stage (extraction, embedding, entity_resolution, supersession, append, projection_wait); a document makes one or more calls of each.',
  labelNames: ['stage'] as const,
  buckets: stageBuckets,
  registers,
})

export const pipelineDocuments = new Counter({
  name: 'memory_service_pipeline_documents_total',
  help: 'Documents through the pipeline, by final job status (completed, partial, failed) or skipped (already done).',
  labelNames: ['outcome'] as const,
  registers,
})

export const pipelineDocumentDuration = new Histogram({
  name: 'memory_service_pipeline_document_duration_seconds',
  help: 'A document from its record read off Kafka to its job written, by outcome.',
  labelNames: ['outcome'] as const,
  buckets: stageBuckets,
  registers,
})

export const pipelineMemories = new Counter({
  name: 'memory_service_pipeline_memories_total',
  help: 'Memory changes the pipeline wrote to the log.',
  registers,
})

export const embeddingDuration = new Histogram({
  name: 'memory_service_embedding_duration_seconds',
  help: 'One call of the embedding model, by purpose (documents: the pipeline and edits; queries: searches; anticipation: the context pushed after user turns).',
  labelNames: ['purpose'] as const,
  buckets: latencyBuckets,
  registers,
})

export const embeddingBatchSize = new Histogram({
  name: 'memory_service_embedding_batch_size',
  help: 'Texts embedded in one model call, by purpose.',
  labelNames: ['purpose'] as const,
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  registers,
})

export const webhookDeliveries = new Counter({
  name: 'memory_service_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome (delivered, failed: will be retried, abandoned: retries exhausted).',
  labelNames: ['outcome'] as const,
  registers,
})

/** What a worker thread's registry holds of this service's own metrics (not Node's: the process is one). */
export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[]

export async function threadMetrics(): Promise<ThreadMetrics> {
  const all = (await metricsRegistry.getMetricsAsJSON()) as ThreadMetrics
  return all.filter((metric) => metric.name.startsWith('memory_service_'))
}

const metricsSources = new Set<() => Promise<ThreadMetrics>>()

/** Adds a thread's metrics to every scrape of this process's, summed with the same series here. */
export function addMetricsSource(read: () => Promise<ThreadMetrics>): () => void {
  metricsSources.add(read)
  return () => void metricsSources.delete(read)
}

/** The text Prometheus scrapes, with its content type. */
export async function metricsExposition(): Promise<{ contentType: string; body: string }> {
  if (metricsSources.size === 0)
    return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() }
  const threads = await Promise.all([...metricsSources].map((read) => read().catch((): ThreadMetrics => [])))
  const merged = AggregatorRegistry.aggregate([
    (await metricsRegistry.getMetricsAsJSON()) as ThreadMetrics,
    ...threads,
  ])
  return { contentType: metricsRegistry.contentType, body: await merged.metrics() }
}

/** `work` timed into `histogram` (also when it throws). */
export async function timed<T>(
  histogram: { observe(seconds: number): void },
  work: () => Promise<T>,
): Promise<T> {
  const startedAt = performance.now()
  try {
    return await work()
  } finally {
    histogram.observe(secondsSince(startedAt))
  }
}

/** The embedder with each model call timed and its batch size recorded, under `purpose`. */
export function measuredEmbedder(
  embedder: Embedder,
  purpose: 'documents' | 'queries' | 'anticipation',
): Embedder {
  const duration = embeddingDuration.labels(purpose)
  const size = embeddingBatchSize.labels(purpose)
  const measure =
    (call: (texts: string[], signal?: AbortSignal) => Promise<number[][]>) =>
    (texts: string[], signal?: AbortSignal) => {
      size.observe(texts.length)
      return timed(duration, () => call(texts, signal))
    }
  const embedQueries = embedder.embedQueries?.bind(embedder)
  return {
    model: embedder.model,
    dimension: embedder.dimension,
    embed: measure((texts, signal) => embedder.embed(texts, signal)),
    ...(embedQueries ? { embedQueries: measure(embedQueries) } : {}),
    close: () => embedder.close(),
  }
}

/** Seconds since `startedAt` (from `performance.now()`), for histograms. */
export const secondsSince = (startedAt: number): number => (performance.now() - startedAt) / 1000
