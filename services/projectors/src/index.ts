import {
  checkDependencies,
  serviceConsumerGroups,
  createElasticsearchStore,
  createEventConsumer,
  DOCUMENTS_TOPIC,
  INGESTION_JOBS_INDEX,
  INGESTION_JOBS_TOPIC,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  type DocumentAccepted,
  type EventConsumer,
  type Engines,
  type IngestionJob,
  type IngestionJobChanged,
  type Logger,
  type MemoryChanged,
  type MemoryDocument,
  type UsageRecorded,
  USAGE_TOPIC,
} from '@memory-service/shared'
import { createAnalyticsProjection } from './analyticsProjection.js'
import { createGraphProjection } from './graphProjection.js'
import { createJobProjection } from './jobProjection.js'
import { createVectorProjection } from './vectorProjection.js'

export { createAnalyticsProjection, createGraphProjection, createJobProjection, createVectorProjection }
export {
  rebuildProjection,
  type RebuildReport,
  type RebuildStart,
  type RebuiltProjection,
} from './rebuild.js'

/** Consumer groups, one per projection: each keeps its own offsets and can be replayed on its own. */
export const projectionGroups = {
  jobs: serviceConsumerGroups.jobs,
  vector: serviceConsumerGroups.vector,
  graph: serviceConsumerGroups.graph,
  analytics: serviceConsumerGroups.analytics,
} as const

export interface RunningProjectors {
  close(): Promise<void>
}

/**
 * The projectors as a process of their own: ingestion jobs and memories into Elasticsearch, memories and entities
 * into Neo4j. Each projection is its own consumer group over the log, writes idempotently and resolves offsets only
 * after its write.
 */
export async function startProjectors(
  engines: Engines,
  logger: Logger,
  options: { groupPrefix?: string } = {},
): Promise<RunningProjectors> {
  const readiness = await checkDependencies(engines.probes)
  if (readiness.status !== 'ready') {
    throw new Error(
      `projectors cannot start: ${JSON.stringify(readiness.checks.filter((check) => check.status === 'down'))}`,
    )
  }
  const group = (name: string) => `${options.groupPrefix ?? ''}${name}`
  const consumers: EventConsumer[] = []
  const projectJobs = createJobProjection(
    createElasticsearchStore<IngestionJob>(engines.elasticsearch, INGESTION_JOBS_INDEX),
  )
  const projectVectors = createVectorProjection(
    createElasticsearchStore<MemoryDocument>(engines.elasticsearch, MEMORIES_ALIAS),
  )
  const projectGraph = createGraphProjection(engines.neo4j)
  const projectUsage = createAnalyticsProjection(engines.clickhouse)
  const common = { kafka: engines.kafka, codec: engines.schemaCodec, fromBeginning: true }
  try {
    consumers.push(
      await createEventConsumer<DocumentAccepted | IngestionJobChanged>({
        ...common,
        logger: logger.child({ projection: 'jobs' }),
        groupId: group(projectionGroups.jobs),
        topics: [DOCUMENTS_TOPIC, INGESTION_JOBS_TOPIC],
        handleBatch: (events) => projectJobs(events),
      }),
      await createEventConsumer<MemoryChanged>({
        ...common,
        logger: logger.child({ projection: 'vector' }),
        groupId: group(projectionGroups.vector),
        topics: [MEMORIES_TOPIC],
        handleBatch: async (events, log) => {
          const { written, skipped } = await projectVectors(events)
          log.debug(
            { written, skipped, correlationIds: [...new Set(events.map((event) => event.correlationId))] },
            'memories projected into elasticsearch',
          )
        },
      }),
      await createEventConsumer<MemoryChanged>({
        ...common,
        logger: logger.child({ projection: 'graph' }),
        groupId: group(projectionGroups.graph),
        topics: [MEMORIES_TOPIC],
        handleBatch: async (events, log) => {
          await projectGraph(events)
          log.debug(
            {
              events: events.length,
              correlationIds: [...new Set(events.map((event) => event.correlationId))],
            },
            'memories projected into neo4j',
          )
        },
      }),
      await createEventConsumer<UsageRecorded>({
        ...common,
        logger: logger.child({ projection: 'analytics' }),
        groupId: group(projectionGroups.analytics),
        topics: [USAGE_TOPIC],
        handleBatch: async (events, log) => {
          const { written, skipped } = await projectUsage(events)
          log.debug({ written, skipped }, 'usage events projected into clickhouse')
        },
      }),
    )
  } catch (error) {
    await Promise.allSettled(consumers.map((consumer) => consumer.close()))
    throw error
  }
  logger.info({ projections: Object.keys(projectionGroups) }, 'projectors ready')
  return {
    async close() {
      await Promise.allSettled(consumers.map((consumer) => consumer.close()))
    },
  }
}
