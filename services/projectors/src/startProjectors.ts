import {
  waitForDependencies,
  clickhouseOf,
  createElasticsearchStore,
  type Engines,
  type Logger,
  type Embedder,
} from '@memory-service/engines'
import {
  createDeadLetterWriter,
  createEventConsumer,
  createEventProducer,
  type ConsumedEvent,
  type EventConsumer,
  type ControlPlane,
} from '@memory-service/log'
import {
  DOCUMENTS_TOPIC,
  BULK_DOCUMENTS_TOPIC,
  INGESTION_JOBS_INDEX,
  INGESTION_JOBS_TOPIC,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  PROFILES_ALIAS,
  CONVERSATION_EVENTS_TOPIC,
  CONVERSATIONS_TOPIC,
  type IngestionJob,
  type MemoryDocument,
  USAGE_TOPIC,
  createControlEventFactory,
  type ProjectionPolicy,
  type ServedEmbeddings,
  serviceConsumerGroups,
} from '@memory-service/domain'
import {
  type ConversationCompacted,
  type ConversationEventRecorded,
  type UserDataErased,
  type DocumentAccepted,
  type IngestionJobChanged,
  type MemoryChanged,
  type UsageRecorded,
} from '@memory-service/contracts'
import { createConversationStore } from '@memory-service/read-models'
import { createPolicyLookup } from '@memory-service/commands'
import { startConfigRebuilds } from './configRebuilds.js'
import { withheldAsDeletions } from '@memory-service/domain'
import { createAnalyticsProjection } from '@memory-service/read-models'
import { createConversationProjection, type GrownConversation } from '@memory-service/read-models'
import { createGraphProjection } from '@memory-service/read-models'
import { createJobProjection } from '@memory-service/read-models'
import { createVectorProjection } from '@memory-service/read-models'
import { createHistoryProjection } from '@memory-service/read-models'
import { createProfileProjection, type ProfileRow } from '@memory-service/read-models'

/** Consumer groups, one per projection: each keeps its own offsets and can be replayed on its own. */
export const projectionGroups = {
  jobs: serviceConsumerGroups.jobs,
  vector: serviceConsumerGroups.vector,
  graph: serviceConsumerGroups.graph,
  analytics: serviceConsumerGroups.analytics,
  conversations: serviceConsumerGroups.conversations,
} as const

export type ProjectionName = keyof typeof projectionGroups

export interface RunningProjectors {
  close(): Promise<void>
}

/**
 * The projectors as a process of their own: ingestion jobs and memories into Elasticsearch, memories and entities
 * into Neo4j. Each projection is its own consumer group over the log, writes idempotently and resolves offsets only
 * after its write. With the control plane, memories are stored as each instance's active configuration says, and
 * the rebuilds that applying a configuration asks for run here.
 */
export async function startProjectors(
  engines: Engines,
  logger: Logger,
  options: {
    groupPrefix?: string
    configuration?: { control: ControlPlane; served: ServedEmbeddings; embedder: Embedder }
    /** Told which conversations grew, once their turns are written (automatic compaction). */
    onConversationsGrown?: (conversations: GrownConversation[]) => void
    /** The projections this process runs (default: all); analytics only where ClickHouse is open. */
    projections?: readonly ProjectionName[]
    /** Returns before the consumers have joined their groups (every projection reads from the beginning). */
    joinInBackground?: boolean
  } = {},
): Promise<RunningProjectors> {
  const readiness = await waitForDependencies(engines.probes, {
    onNotReady: (waiting) =>
      logger.warn(
        { down: waiting.checks.filter((check) => check.status === 'down') },
        'projector process waiting for its dependencies',
      ),
  })
  if (readiness.status !== 'ready') {
    throw new Error(
      `projectors cannot start: ${JSON.stringify(readiness.checks.filter((check) => check.status === 'down'))}`,
    )
  }
  const group = (name: string) => `${options.groupPrefix ?? ''}${name}`
  const consumers: EventConsumer[] = []
  const configuration = options.configuration
  const policyOf = configuration ? createPolicyLookup(configuration.control, configuration.served) : undefined
  const stored = (events: ConsumedEvent<MemoryChanged>[], projection: keyof ProjectionPolicy) =>
    policyOf ? withheldAsDeletions(events, projection, policyOf) : events
  const projectJobs = createJobProjection(
    createElasticsearchStore<IngestionJob>(engines.elasticsearch, INGESTION_JOBS_INDEX),
  )
  const projectVectors = createVectorProjection(
    createElasticsearchStore<MemoryDocument>(engines.elasticsearch, MEMORIES_ALIAS),
  )
  const projectHistory = createHistoryProjection(engines.elasticsearch)
  const projectProfiles = createProfileProjection(
    createElasticsearchStore<ProfileRow>(engines.elasticsearch, PROFILES_ALIAS),
  )
  const projectGraph = createGraphProjection(engines.neo4j)
  const runs = new Set(options.projections ?? (Object.keys(projectionGroups) as ProjectionName[]))
  const projectUsage = runs.has('analytics') ? createAnalyticsProjection(clickhouseOf(engines)) : undefined
  const projectConversations = createConversationProjection(
    createConversationStore(engines.elasticsearch),
    options.onConversationsGrown,
  )
  const common = {
    kafka: engines.kafka,
    codec: engines.schemaCodec,
    fromBeginning: true,
    joinInBackground: options.joinInBackground ?? false,
  }
  // A record a projection can never apply (undecodable, or refused by its store for what it holds) is parked in
  // the dead-letter topic with the group and the reason, and the projection moves past it.
  const deadLetterProducer = await createEventProducer(engines.kafka, engines.schemaCodec)
  const parking = (groupId: string) => {
    const writer = createDeadLetterWriter(deadLetterProducer, groupId)
    const reason = (code: string, error: unknown) => [
      { stage: 'projection', code, message: error instanceof Error ? error.message : String(error) },
    ]
    return {
      groupId,
      onUndecodable: (record: Parameters<typeof writer.write>[0], error: unknown) =>
        writer.write(record, reason('UNDECODABLE_RECORD', error)),
      onRejected: (event: Parameters<typeof writer.write>[0], error: unknown) =>
        writer.write(event, reason('REJECTED_BY_STORE', error)),
    }
  }
  const consumerOf: Record<ProjectionName, () => Promise<EventConsumer>> = {
    jobs: () =>
      createEventConsumer<DocumentAccepted | IngestionJobChanged>({
        ...common,
        logger: logger.child({ projection: 'jobs' }),
        ...parking(group(projectionGroups.jobs)),
        topics: [DOCUMENTS_TOPIC, BULK_DOCUMENTS_TOPIC, INGESTION_JOBS_TOPIC],
        handleBatch: (events) => projectJobs(events),
      }),
    vector: () =>
      createEventConsumer<MemoryChanged>({
        ...common,
        logger: logger.child({ projection: 'vector' }),
        ...parking(group(projectionGroups.vector)),
        topics: [MEMORIES_TOPIC],
        handleBatch: async (events, log) => {
          // A memory's history is the log's, whatever the configuration keeps searchable. It is written first, so a
          // change is in the history by the time the memory shows it (what a writer waits for).
          const history = await projectHistory(events)
          const searchable = stored(events, 'vector')
          // A user's profile names only memories search can show, and is written before them (as the history), so
          // a memory that is visible is in its user's profile too.
          await projectProfiles(searchable)
          const { written, skipped } = await projectVectors(searchable)
          log.debug(
            {
              written,
              skipped,
              history,
              correlationIds: [...new Set(events.map((event) => event.correlationId))],
            },
            'memories projected into elasticsearch',
          )
        },
      }),
    graph: () =>
      createEventConsumer<MemoryChanged>({
        ...common,
        logger: logger.child({ projection: 'graph' }),
        ...parking(group(projectionGroups.graph)),
        topics: [MEMORIES_TOPIC],
        handleBatch: async (events, log) => {
          await projectGraph(stored(events, 'graph'))
          log.debug(
            {
              events: events.length,
              correlationIds: [...new Set(events.map((event) => event.correlationId))],
            },
            'memories projected into neo4j',
          )
        },
      }),
    analytics: () =>
      createEventConsumer<UsageRecorded>({
        ...common,
        logger: logger.child({ projection: 'analytics' }),
        ...parking(group(projectionGroups.analytics)),
        topics: [USAGE_TOPIC],
        // Every API call is a usage event: without a window, a steady trickle of calls would be a ClickHouse insert
        // each (a part in usage_raw and in each of the six roll-ups, merged later), competing with the analytics
        // reads. Usage shows in the reports at most a second later.
        fetchWindow: { minBytes: 256 * 1024, maxWaitMs: 1000 },
        handleBatch: async (events, log) => {
          if (!projectUsage) throw new Error('the analytics projection runs where ClickHouse is open')
          const { written, skipped } = await projectUsage(events)
          log.debug({ written, skipped }, 'usage events projected into clickhouse')
        },
      }),
    conversations: () =>
      createEventConsumer<ConversationEventRecorded | ConversationCompacted | UserDataErased>({
        ...common,
        logger: logger.child({ projection: 'conversations' }),
        ...parking(group(projectionGroups.conversations)),
        topics: [CONVERSATION_EVENTS_TOPIC, CONVERSATIONS_TOPIC],
        // Turns must be readable soon after their ack: partitions are written side by side, not one after another.
        partitionsConsumedConcurrently: 4,
        handleBatch: async (events, log) => {
          await projectConversations(events)
          log.debug({ events: events.length }, 'conversation events stored')
        },
      }),
  }
  try {
    for (const projection of runs) consumers.push(await consumerOf[projection]())
  } catch (error) {
    await Promise.allSettled(consumers.map((consumer) => consumer.close()))
    await deadLetterProducer.close()
    throw error
  }
  const rebuilds =
    configuration && policyOf
      ? startConfigRebuilds({
          engines,
          control: configuration.control,
          events: createControlEventFactory(),
          embedder: configuration.embedder,
          policyOf,
          logger,
        })
      : undefined
  logger.info({ projections: [...runs] }, 'projectors ready')
  return {
    async close() {
      await rebuilds?.close()
      await Promise.allSettled(consumers.map((consumer) => consumer.close()))
      await deadLetterProducer.close()
    },
  }
}
