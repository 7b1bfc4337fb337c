import { randomUUID } from 'node:crypto'
import {
  connectEngines,
  createLogger,
  loadEngineDeclarations,
  provisionEngines,
  createElasticsearchStore,
  type Embedder,
  createEmbedder,
  createBatchingEmbedder,
  type Logger,
  createLlmSummarizer,
  type Summarizer,
} from '@memory-service/engines'
import { createTopicAdmin } from '@memory-service/engines'
import {
  createControlPlane,
  createGroupPresence,
  CONTROL_TOPIC,
  createEventProducer,
  createEventLogWriter,
  createCoalescingAppender,
  createBackgroundAppender,
  type ControlPlane,
} from '@memory-service/log'
import { type OutgoingEvent } from '@memory-service/domain'
import {
  createControlEventFactory,
  CONVERSATION_EVENT_SUBJECT,
  conversationEventRecordedSchema,
  CONVERSATION_EVENTS_TOPIC,
  DOCUMENT_SUBJECT,
  documentAcceptedSchema,
  INGESTION_JOBS_INDEX,
  type IngestionJob,
  type Extractor,
  mergeContent,
  MEMORY_SUBJECT,
  memoryChangedSchema,
  parseTokenPrices,
  USAGE_SUBJECT,
  USAGE_TOPIC,
  usageRecordedSchema,
  CONVERSATION_COMPACTED_SUBJECT,
  conversationCompactedSchema,
} from '@memory-service/domain'
import {
  createTenancyCommands,
  createClaimStore,
  IDEMPOTENCY_INDEX,
  createDocumentIngestor,
  createMemoryEditor,
  type ConfigCommands,
  createConfigCommands,
  createConversations,
  createCompactor,
  createUserErasure,
  USER_DATA_ERASED_SUBJECT,
  userDataErasedSchema,
} from '@memory-service/commands'
import {
  createMemoryStore,
  createMemorySearch,
  type MemorySearch,
  createAnalyticsReports,
  createAnalyticsStore,
  createConfigReports,
  createConversationStore,
} from '@memory-service/read-models'
import { type ServiceConfig, type CreatedInstance } from '@memory-service/contracts'
import {
  createMemoryPresence,
  startGateway,
  type AnticipatedTurn,
  type AnticipationStats,
  type GatewayDependencies,
} from '@memory-service/gateway'
import { analyzeEditedContent } from '@memory-service/domain'
import { createExtractor } from '@memory-service/pipeline'
import { startPipeline } from '@memory-service/pipeline'
import { createAutomaticCompaction } from '@memory-service/read-models'
import { createPolicyLookup, startProjectors } from '@memory-service/projectors'

/**
 * After a user turn the agent most likely needs what is known about what the user just said: a fast search, once
 * a cheap check (remembered per user) found the user has memories at all.
 */
function anticipationOf(
  memorySearch: MemorySearch,
  configCommands: ConfigCommands,
  maxConcurrent: number,
): NonNullable<GatewayDependencies['anticipation']> {
  const scopeOf = (turn: AnticipatedTurn) => ({
    user_id: turn.userId,
    ...(turn.customerId ? { customer_id: turn.customerId } : {}),
  })
  const hasMemories = createMemoryPresence<{ instanceId: string; turn: AnticipatedTurn }>({
    keyOf: ({ instanceId, turn }) => JSON.stringify([instanceId, turn.userId, turn.customerId ?? null]),
    count: ({ instanceId, turn }) => memorySearch.hasMemories(instanceId, scopeOf(turn)),
  })
  return {
    maxConcurrent,
    hasMemories: (scope, turn) => hasMemories({ instanceId: scope.instanceId, turn }),
    async search(scope, turn) {
      const { retrieval, storage } = configCommands.effective(scope.instanceId)
      const found = await memorySearch.search(scope.instanceId, {
        query: turn.content.slice(0, 2000),
        ...scopeOf(turn),
        limit: Math.min(retrieval.max_results, 5),
        mode: 'fast',
        graph: retrieval.graph_queries && storage.graph.enabled,
      })
      return found.hits.map(({ memory, score }) => ({ memoryId: memory.id, content: memory.content, score }))
    },
  }
}

/** Compaction writes its summaries with the configured language model, when there is one. */
function summarizerOf(config: ServiceConfig): { summarizer?: Summarizer } {
  if (config.extraction.provider !== 'llm' || !config.llm.baseUrl || !config.llm.model) return {}
  return {
    summarizer: createLlmSummarizer({
      baseUrl: config.llm.baseUrl,
      model: config.llm.model,
      timeoutMs: config.llm.timeoutMs,
      ...(config.llm.apiKey ? { apiKey: config.llm.apiKey } : {}),
    }),
  }
}

export const serviceNames = ['gateway', 'pipeline', 'projectors'] as const
export type ServiceName = (typeof serviceNames)[number]

export function isServiceName(value: string): value is ServiceName {
  return (serviceNames as readonly string[]).includes(value)
}

export interface RunningServices {
  addresses: { http?: string; grpc?: string }
  /** What the gateway's anticipation did since the start, when this process runs a gateway. */
  anticipationStats(): AnticipationStats | undefined
  /** The development instance created because the control topic held none (its key is shown only here). */
  developmentInstance?: CreatedInstance
  close(): Promise<void>
}

/**
 * Composition root shared by every process: config is already validated; engines are connected once and passed
 * down; what the services need in the engines is provisioned (idempotently) before any of them starts.
 */
export async function startServices(
  config: ServiceConfig,
  names: readonly ServiceName[],
  logger: Logger = createLogger({ level: config.log.level, name: 'memory-service' }),
  options: {
    bootstrapDevelopmentInstance?: boolean
    /** Wraps the pipeline's models (tests inject faults through it). */
    pipelineModels?: (models: { extractor: Extractor; embedder: Embedder }) => {
      extractor: Extractor
      embedder: Embedder
    }
  } = {},
): Promise<RunningServices> {
  const engines = await connectEngines(config, logger)
  const closers: (() => Promise<void>)[] = [() => engines.close()]
  const close = async (): Promise<void> => {
    for (const closeOne of closers.reverse()) await closeOne()
  }
  try {
    const topicAdmin = await createTopicAdmin(engines.kafka)
    try {
      await provisionEngines(
        {
          topicAdmin,
          elasticsearch: engines.elasticsearch,
          neo4j: engines.neo4j,
          clickhouse: engines.clickhouse,
        },
        loadEngineDeclarations(),
        logger.child({ component: 'provisioning' }),
        { embeddingDimension: config.embeddings.dimension },
      )
    } finally {
      await topicAdmin.close()
    }
    const addresses: RunningServices['addresses'] = {}
    // One embedding model per process, shared by the pipeline and the gateway's memory editor.
    let embedder: Embedder | undefined
    const sharedEmbedder = async (): Promise<Embedder> => {
      if (!embedder) {
        const created = createBatchingEmbedder(await createEmbedder(config.embeddings))
        closers.push(() => created.close())
        embedder = created
      }
      return embedder
    }
    // Searches embed one short question at a time and wait for it: a session of its own, tuned for latency.
    const queryEmbedder = async (): Promise<Embedder> => {
      const created = await createEmbedder(config.embeddings, { purpose: 'queries' })
      closers.push(() => created.close())
      return created
    }
    // One read model of the control topic per process, shared by the gateway and the projectors.
    let control: ControlPlane | undefined
    const sharedControl = async (): Promise<ControlPlane> => {
      if (!control) {
        const created = await createControlPlane({ kafka: engines.kafka, codec: engines.schemaCodec, logger })
        closers.push(() => created.close())
        control = created
      }
      return control
    }
    const served = { model: config.embeddings.model, dimension: config.embeddings.dimension }
    let developmentInstance: CreatedInstance | undefined
    let anticipationStats: RunningServices['anticipationStats'] = () => undefined
    for (const name of names) {
      const serviceLogger = logger.child({ component: name })
      switch (name) {
        case 'gateway': {
          const control = await sharedControl()
          const controlEvents = createControlEventFactory()
          const tenancy = createTenancyCommands(control, controlEvents)
          const configCommands = createConfigCommands(control, controlEvents, served)
          if (options.bootstrapDevelopmentInstance) {
            developmentInstance = await tenancy.ensureDevelopmentInstance('bootstrap-development-instance')
          }
          const presence = await createGroupPresence(engines.kafka, {
            groupId: config.rateLimit.group,
            topic: CONTROL_TOPIC,
          })
          closers.push(() => presence.close())
          await engines.schemaCodec.register([
            { subject: CONVERSATION_EVENT_SUBJECT, schema: conversationEventRecordedSchema },
            { subject: DOCUMENT_SUBJECT, schema: documentAcceptedSchema },
            { subject: MEMORY_SUBJECT, schema: memoryChangedSchema },
            { subject: USAGE_SUBJECT, schema: usageRecordedSchema },
            { subject: CONVERSATION_COMPACTED_SUBJECT, schema: conversationCompactedSchema },
            { subject: USER_DATA_ERASED_SUBJECT, schema: userDataErasedSchema },
          ])
          const producer = await createEventProducer(engines.kafka, engines.schemaCodec)
          closers.push(() => producer.close())
          const claims = createClaimStore(engines.elasticsearch, {
            index: IDEMPOTENCY_INDEX,
            owner: `gateway-${process.pid}-${randomUUID()}`,
          })
          const appender = createCoalescingAppender(producer)
          // Conversation events are recorded on a thread of their own (its own producer and read-back of the log).
          const events = await createEventLogWriter(
            {
              brokers: config.kafka.brokers,
              clientId: `${config.kafka.clientId}-event-writer`,
              registryUrl: config.schemaRegistry.url,
              topic: CONVERSATION_EVENTS_TOPIC,
              windowMs: config.events.dedupeWindowSeconds * 1000,
              maxEntries: config.events.dedupeMaxEntries,
              logLevel: config.log.level,
              loggerName: 'memory-service',
            },
            serviceLogger,
          )
          closers.push(() => events.close())
          const jobs = createElasticsearchStore<IngestionJob>(engines.elasticsearch, INGESTION_JOBS_INDEX)
          const documents = createDocumentIngestor({ producer, claims, jobs, logger: serviceLogger })
          const memoryStore = createMemoryStore(engines.elasticsearch)
          const usage = createBackgroundAppender(appender, USAGE_TOPIC, {
            onError: (error, count) => serviceLogger.warn({ err: error, count }, 'usage events not recorded'),
          })
          closers.push(() => usage.flush())
          const recordUsage = (events: OutgoingEvent[]) => usage.record(events)
          const memorySearch = createMemorySearch({
            elasticsearch: engines.elasticsearch,
            neo4j: engines.neo4j,
            embedder: await queryEmbedder(),
          })
          const search = {
            memories: memorySearch,
            settingsOf: (instanceId: string) => {
              const { retrieval, storage } = configCommands.effective(instanceId)
              return {
                mode: retrieval.default_mode,
                limit: retrieval.max_results,
                graph: retrieval.graph_queries && storage.graph.enabled,
              }
            },
            recordUsage,
          }
          const conversationStore = createConversationStore(engines.elasticsearch)
          const conversations = createConversations({
            store: conversationStore,
            events,
            claims,
            producer,
            documents,
            search: memorySearch,
            configOf: (instanceId) => configCommands.effective(instanceId),
            recordUsage,
            ...summarizerOf(config),
            logger: serviceLogger,
          })
          const analytics = createAnalyticsReports(
            createAnalyticsStore(engines.clickhouse),
            parseTokenPrices(config.analytics.tokenPrices),
          )
          const editor = createMemoryEditor({
            store: memoryStore,
            producer,
            embedder: await sharedEmbedder(),
            analyze: analyzeEditedContent,
            merge: mergeContent,
          })
          const gateway = await startGateway(
            config,
            {
              engines,
              control,
              tenancy,
              events,
              documents,
              jobs,
              memories: { store: memoryStore, editor },
              search,
              analytics,
              conversations,
              erasure: createUserErasure({
                elasticsearch: engines.elasticsearch,
                neo4j: engines.neo4j,
                producer,
                conversations: conversationStore,
                logger: serviceLogger,
              }),
              ...(config.events.anticipationConcurrency > 0
                ? {
                    anticipation: anticipationOf(
                      memorySearch,
                      configCommands,
                      config.events.anticipationConcurrency,
                    ),
                  }
                : {}),
              configs: {
                commands: configCommands,
                reports: createConfigReports(engines.clickhouse, configCommands),
              },
              recordUsage,
              gatewayCount: () => presence.count(),
            },
            serviceLogger,
          )
          closers.push(() => gateway.close())
          anticipationStats = () => gateway.anticipationStats()
          addresses.http = gateway.httpAddress
          addresses.grpc = gateway.grpcAddress
          break
        }
        case 'pipeline': {
          const pipeline = await startPipeline(
            engines,
            {
              config,
              ...(options.pipelineModels ?? ((models) => models))({
                extractor: createExtractor(config),
                embedder: await sharedEmbedder(),
              }),
              storedInVector: await (async () => {
                const policyOf = createPolicyLookup(await sharedControl(), served)
                return (instanceId: string, memory: { type: string; confidence: number }) =>
                  policyOf(instanceId).vector(memory)
              })(),
            },
            serviceLogger,
          )
          closers.push(() => pipeline.close())
          break
        }
        case 'projectors': {
          const control = await sharedControl()
          const configs = createConfigCommands(control, createControlEventFactory(), served)
          // Automatic compaction: the persistence writer reports conversations that grew; those over their budget
          // are compacted here, and their older turns go to extraction like a compaction asked for over HTTP.
          await engines.schemaCodec.register([
            { subject: DOCUMENT_SUBJECT, schema: documentAcceptedSchema },
            { subject: CONVERSATION_COMPACTED_SUBJECT, schema: conversationCompactedSchema },
            { subject: USAGE_SUBJECT, schema: usageRecordedSchema },
          ])
          const producer = await createEventProducer(engines.kafka, engines.schemaCodec)
          closers.push(() => producer.close())
          const claims = createClaimStore(engines.elasticsearch, {
            index: IDEMPOTENCY_INDEX,
            owner: `projectors-${process.pid}-${randomUUID()}`,
          })
          const usage = createCoalescingAppender(producer)
          const compactor = createCompactor({
            store: createConversationStore(engines.elasticsearch),
            claims,
            producer,
            documents: createDocumentIngestor({
              producer,
              claims,
              jobs: createElasticsearchStore<IngestionJob>(engines.elasticsearch, INGESTION_JOBS_INDEX),
              logger: serviceLogger,
            }),
            configOf: (instanceId) => configs.effective(instanceId),
            recordUsage: (events) => {
              usage.append(USAGE_TOPIC, events).catch((error: unknown) => {
                serviceLogger.warn({ err: error }, 'usage events not recorded')
              })
            },
            ...summarizerOf(config),
            logger: serviceLogger,
          })
          const automaticCompaction = createAutomaticCompaction({
            budgetOf: (instanceId) => configs.effective(instanceId).retrieval.context_budget,
            compactIfOverBudget: (scope, conversationId, userId, correlationId) =>
              compactor.compactIfOverBudget(scope, conversationId, userId, correlationId),
            warn: (details, message) => serviceLogger.warn(details, message),
          })
          closers.push(() => automaticCompaction.stop())
          const projectors = await startProjectors(engines, serviceLogger, {
            configuration: { control, served, embedder: await sharedEmbedder() },
            onConversationsGrown: (conversations) => automaticCompaction.grown(conversations),
          })
          closers.push(() => projectors.close())
          break
        }
      }
    }
    return {
      addresses,
      anticipationStats: () => anticipationStats(),
      close,
      ...(developmentInstance ? { developmentInstance } : {}),
    }
  } catch (error) {
    await close()
    throw error
  }
}
