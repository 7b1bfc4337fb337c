import { activeGraphGeneration, createMemoryStore, memoryStateOf } from '@memory-service/read-models'
import {
  createCoalescingAppender,
  createDeadLetterWriter,
  createEventConsumer,
  createEventProducer,
  type DeadLetterWriter,
} from '@memory-service/log'
import {
  waitForDependencies,
  createFactReader,
  createElasticsearchStore,
  type Embedder,
  type Engines,
  type FactDecider,
  type Logger,
  pipelineDocumentDuration,
  pipelineDocuments,
  pipelineMemories,
  pipelineStageDuration,
  secondsSince,
  timed,
  withUrgency,
  isUrgentWork,
} from '@memory-service/engines'
import {
  DOCUMENT_SUBJECT,
  documentAcceptedSchema,
  documentsTopicOf,
  entityKey,
  INGESTION_JOB_SUBJECT,
  ingestionJobChangedSchema,
  INGESTION_JOBS_INDEX,
  INGESTION_JOBS_TOPIC,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  MEMORY_SUBJECT,
  MEMORY_LANE_HEADER,
  memoryChangedSchema,
  USAGE_SUBJECT,
  USAGE_TOPIC,
  usageRecordedSchema,
  type DocumentLane,
  type Extractor,
  type IngestionJob,
  serviceConsumerGroups,
} from '@memory-service/domain'
import { type DocumentAccepted, type ServiceConfig } from '@memory-service/contracts'
import { createDocumentPipeline, type PipelinePorts } from './documentPipeline.js'
import { createLaneScheduler } from './lanes.js'
import type { StoredEntity } from '@memory-service/domain'

export const PIPELINE_GROUP = serviceConsumerGroups.pipeline
export const PIPELINE_BULK_GROUP = serviceConsumerGroups.pipelineBulk
const memoriesPerRequest = 50

export interface RunningPipeline {
  close(): Promise<void>
}

export interface PipelineDependencies {
  config: ServiceConfig
  extractor: Extractor
  embedder: Embedder
  /** With an LLM configured: decides how new statements change existing memories (documentPipeline.ts). */
  factDecider?: FactDecider
  /** Consumer group of the interactive lane; tests give each run its own. */
  groupId?: string
  /** Consumer group of the bulk lane; tests give each run its own. */
  bulkGroupId?: string
  /**
   * Whether the vector projection stores a memory (its instance's active configuration); a job waits only for
   * those to be readable. All of them without it.
   */
  storedInVector?: (instanceId: string, memory: { type: string; confidence: number }) => boolean
}

// Exact and alias matches come first, so a crowded name prefix never pushes them past the limit.
const knownEntitiesQuery = `
${activeGraphGeneration}
MATCH (entity:Entity {generation: generation, instance_id: $instanceId})
WHERE entity.key IN $keys
   OR any(alias IN coalesce(entity.alias_keys, []) WHERE alias IN $keys)
   OR any(prefix IN $prefixes WHERE entity.key STARTS WITH prefix)
   OR entity.initials IN $keys
RETURN entity.entity_id AS entity_id, entity.canonical_name AS canonical_name, entity.type AS type,
       coalesce(entity.aliases, []) AS aliases
ORDER BY CASE WHEN entity.key IN $keys OR any(alias IN coalesce(entity.alias_keys, []) WHERE alias IN $keys) THEN 0 ELSE 1 END
LIMIT 500`

/** The ports a document's stages call, each call timed under its stage (what bench:pipeline and /metrics show). */
function timedStages(ports: PipelinePorts): PipelinePorts {
  const extraction = pipelineStageDuration.labels('extraction')
  const embedding = pipelineStageDuration.labels('embedding')
  const entityResolution = pipelineStageDuration.labels('entity_resolution')
  const supersession = pipelineStageDuration.labels('supersession')
  const append = pipelineStageDuration.labels('append')
  const projectionWait = pipelineStageDuration.labels('projection_wait')
  const { extractor, embedder, factDecider } = ports
  const nearestMemories = ports.nearestMemories?.bind(ports)
  const unstatedVersions = ports.unstatedVersions?.bind(ports)
  return {
    ...ports,
    extractor: {
      name: extractor.name,
      extract: (...args) => timed(extraction, () => extractor.extract(...args)),
    },
    embedder: {
      model: embedder.model,
      dimension: embedder.dimension,
      embed: (...args) => timed(embedding, () => embedder.embed(...args)),
      close: () => embedder.close(),
    },
    knownEntities: (...args) => timed(entityResolution, () => ports.knownEntities(...args)),
    factVersions: (...args) => timed(supersession, () => ports.factVersions(...args)),
    ...(nearestMemories
      ? { nearestMemories: (...args) => timed(supersession, () => nearestMemories(...args)) }
      : {}),
    ...(unstatedVersions
      ? { unstatedVersions: (...args) => timed(supersession, () => unstatedVersions(...args)) }
      : {}),
    ...(factDecider
      ? {
          factDecider: {
            name: factDecider.name,
            decide: (...args) => timed(supersession, () => factDecider.decide(...args)),
          },
        }
      : {}),
    publishJob: (...args) => timed(append, () => ports.publishJob(...args)),
    publishMemories: (...args) => {
      pipelineMemories.inc(args[0].length)
      return timed(append, () => ports.publishMemories(...args))
    },
    publishUsage: (...args) => timed(append, () => ports.publishUsage(...args)),
    awaitProjected: (...args) => timed(projectionWait, () => ports.awaitProjected(...args)),
  }
}

/**
 * The pipeline worker (extraction → categorization → entity resolution → storage) as a process of its own: one
 * consumer group over the documents topic, writing job transitions, memory events and usage events back to Kafka.
 */
export async function startPipeline(
  engines: Engines,
  dependencies: PipelineDependencies,
  logger: Logger,
): Promise<RunningPipeline> {
  const { kafka, schema_registry } = engines.probes
  const readiness = await waitForDependencies(
    { kafka, schema_registry },
    {
      onNotReady: (waiting) =>
        logger.warn(
          { down: waiting.checks.filter((check) => check.status === 'down') },
          'pipeline worker waiting for its dependencies',
        ),
    },
  )
  if (readiness.status !== 'ready') {
    throw new Error(
      `pipeline worker cannot start: ${JSON.stringify(readiness.checks.filter((check) => check.status === 'down'))}`,
    )
  }
  const groupId = dependencies.groupId ?? PIPELINE_GROUP
  await engines.schemaCodec.register([
    { subject: DOCUMENT_SUBJECT, schema: documentAcceptedSchema },
    { subject: INGESTION_JOB_SUBJECT, schema: ingestionJobChangedSchema },
    { subject: MEMORY_SUBJECT, schema: memoryChangedSchema },
    { subject: USAGE_SUBJECT, schema: usageRecordedSchema },
  ])
  const producer = await createEventProducer(engines.kafka, engines.schemaCodec)
  // Partitions processed at once each append a few events per document; merged, they share produce requests.
  const appender = createCoalescingAppender(producer)
  const bulkGroupId = dependencies.bulkGroupId ?? PIPELINE_BULK_GROUP
  const laneDeadLetters: Record<DocumentLane, DeadLetterWriter> = {
    interactive: createDeadLetterWriter(producer, groupId),
    bulk: createDeadLetterWriter(producer, bulkGroupId),
  }
  const bulkTopic = documentsTopicOf('bulk')
  // A document is parked under the group of the lane it came by.
  const deadLetters: DeadLetterWriter = {
    write: (record, errors) =>
      laneDeadLetters[record.topic === bulkTopic ? 'bulk' : 'interactive'].write(record, errors),
  }
  const jobs = createElasticsearchStore<IngestionJob>(engines.elasticsearch, INGESTION_JOBS_INDEX)
  const memories = createMemoryStore(engines.elasticsearch)
  const { config } = dependencies

  const pipeline = createDocumentPipeline(
    timedStages({
      extractor: dependencies.extractor,
      embedder: dependencies.embedder,
      async knownEntities(instanceId, names) {
        const keys = [...new Set(names.map((name) => entityKey(name)).filter((key) => key.length > 0))]
        if (keys.length === 0) return []
        const prefixes = [...new Set(keys.filter((key) => key.length >= 3).map((key) => key.slice(0, 3)))]
        return engines.neo4j.read<StoredEntity & Record<string, unknown>>(knownEntitiesQuery, {
          instanceId,
          keys,
          prefixes,
        })
      },
      jobStatus: async (ingestionId) => (await jobs.get(ingestionId))?.status ?? null,
      async factVersions(instanceId, scope, keys) {
        const stored = await memories.factVersions(instanceId, scope, keys)
        return stored.map((memory) => ({ version: memory.version, memory: memoryStateOf(memory) }))
      },
      ...(dependencies.factDecider ? { factDecider: dependencies.factDecider } : {}),
      async nearestMemories(instanceId, scope, vector, limit) {
        const stored = await memories.nearest(instanceId, scope, vector, limit)
        return stored.map((memory) => ({ version: memory.version, memory: memoryStateOf(memory) }))
      },
      async unstatedVersions(instanceId, scope, query) {
        const stored = await memories.unstatedVersions(instanceId, scope, query)
        return stored.map((memory) => ({ version: memory.version, memory: memoryStateOf(memory) }))
      },
      factReader: createFactReader(dependencies.embedder, {
        cacheDir: config.embeddings.modelDir,
      }),
      async publishJob(job, correlationId) {
        await appender.append(INGESTION_JOBS_TOPIC, [
          { key: job.ingestion_id, subject: INGESTION_JOB_SUBJECT, payload: job, correlationId },
        ])
      },
      async publishMemories(events, correlationId) {
        // A memory event carries its vector (about 8 KB as JSON): a long document's memories go in several
        // requests, each far below the topic's message size limit.
        for (let start = 0; start < events.length; start += memoriesPerRequest) {
          await appender.append(
            MEMORIES_TOPIC,
            events.slice(start, start + memoriesPerRequest).map((event) => ({
              key: event.memory_id,
              subject: MEMORY_SUBJECT,
              payload: event,
              correlationId,
              // Formed for the interactive lane: searchable as soon as projected (vectorProjection.ts).
              ...(isUrgentWork() ? { headers: { [MEMORY_LANE_HEADER]: 'interactive' } } : {}),
            })),
          )
        }
      },
      async awaitProjected(memories) {
        const stored = dependencies.storedInVector
        const awaited = new Map<string, number>()
        for (const event of memories) {
          if (stored && !stored(event.instance_id, event.memory)) continue
          awaited.set(event.memory_id, Math.max(event.version, awaited.get(event.memory_id) ?? 0))
        }
        if (awaited.size === 0) return true
        const deadline = Date.now() + config.pipeline.visibilityTimeoutMs
        for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
          const { docs } = await engines.elasticsearch.mget<{ version: number }>({
            index: MEMORIES_ALIAS,
            ids: [...awaited.keys()],
            _source: ['version'],
          })
          const visible = (doc: (typeof docs)[number]) =>
            'found' in doc && doc.found && (doc._source?.version ?? 0) >= (awaited.get(doc._id) ?? 0)
          if (docs.every(visible)) return true
          if (Date.now() >= deadline) return false
          await new Promise((resolve) => setTimeout(resolve, delay))
        }
      },
      async publishUsage(events) {
        await appender.append(USAGE_TOPIC, events)
      },
      deadLetters,
    }),
    { retry: { maxAttempts: config.pipeline.maxAttempts, baseDelayMs: config.pipeline.retryBaseMs } },
  )

  // Two lanes, each a consumer group of its own (lanes.ts): the interactive lane's documents are formed first.
  const lanes = createLaneScheduler()
  const consumeLane = (lane: DocumentLane) => {
    const laneGroup = lane === 'bulk' ? bulkGroupId : groupId
    return createEventConsumer<DocumentAccepted>({
      kafka: engines.kafka,
      codec: engines.schemaCodec,
      logger: logger.child({ lane }),
      groupId: laneGroup,
      topics: [documentsTopicOf(lane)],
      fromBeginning: true,
      partitionsConsumedConcurrently: config.pipeline.concurrency,
      handleConcurrency: config.pipeline.documentsPerPartition,
      onUndecodable: (record, error) =>
        laneDeadLetters[lane].write(record, [
          {
            stage: 'extraction',
            code: 'UNDECODABLE_RECORD',
            message: error instanceof Error ? error.message : String(error),
          },
        ]),
      handle: async (event, log) => {
        const startedAt = performance.now()
        const turns = lane === 'bulk' ? lanes.bulkTurns() : lanes.interactiveTurns()
        try {
          // Urgent work is served first where both lanes share a queue (the embedding model's),
          // and each instance gets its share of it.
          const outcome = await withUrgency(
            lane === 'interactive',
            () => pipeline.process(event, log, turns),
            event.payload.instance_id,
          )
          const status = outcome.skipped ? 'skipped' : outcome.job.status
          pipelineDocuments.inc({ outcome: status })
          pipelineDocumentDuration.observe({ outcome: status }, secondsSince(startedAt))
        } finally {
          turns.doneWithProcessor()
        }
      },
    })
  }
  const consumers = [await consumeLane('interactive'), await consumeLane('bulk')]
  logger.info(
    { groupId, bulkGroupId, extractor: dependencies.extractor.name, embedder: dependencies.embedder.model },
    'pipeline worker ready',
  )
  return {
    async close() {
      await Promise.all(consumers.map((consumer) => consumer.close()))
      await producer.close()
    },
  }
}
