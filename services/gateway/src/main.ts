/**
 * The gateway's composition root: what the REST and gRPC front door needs, wired from the process runtime. The
 * CLI runs it alone (`memory-service start gateway`) or beside the other services.
 */
import {
  clickhouseOf,
  createFactReader,
  createLeaseStore,
  kafkaConnectionOf,
  schemaRegistryConnectionOf,
  sharedEmbedder,
  sharedAnticipationEmbedder,
  sharedQueryEmbedder,
  summarizerOf,
  type ProcessRuntime,
} from '@memory-service/engines'
import {
  createEventLogWriter,
  createGroupPresence,
  createPartitionReader,
  sharedControlPlane,
} from '@memory-service/log'
import {
  analyzeEditedContent,
  CONVERSATION_COMPACTED_SUBJECT,
  conversationCompactedSchema,
  CONVERSATION_EVENTS_TOPIC,
  createControlEventFactory,
  createWebhookEventFactory,
  DOCUMENT_SUBJECT,
  documentAcceptedSchema,
  mergeContent,
  MEMORY_SUBJECT,
  memoryChangedSchema,
  parseTokenPrices,
  USAGE_SUBJECT,
  usageRecordedSchema,
  CONTROL_TOPIC,
  serviceConsumerGroups,
  deployment,
} from '@memory-service/domain'
import {
  createConfigCommands,
  createConversations,
  createMemoryChangeLog,
  createMemoryEditor,
  createMemoryExpiry,
  startMemoryExpiry,
  createTenancyCommands,
  createUserErasure,
  createWebhookCommands,
  createWriteSide,
  USER_DATA_ERASED_SUBJECT,
  userDataErasedSchema,
  type ConfigCommands,
} from '@memory-service/commands'
import {
  createAnalyticsReports,
  createAnalyticsStore,
  createConfigReports,
  createConversationStore,
  createDeliveryStore,
  createErasureReceipts,
  createMemorySearch,
  createMemoryStore,
  createMemoryExports,
  createMemoryHistory,
  createIngestionJobs,
  type AnalyticsReports,
  type ConfigReports,
  type MemorySearch,
  webhookSettingsOf,
  createProfiles,
} from '@memory-service/read-models'
import { answeredByOwner } from './http/analyticsForwarding.js'
import type { CreatedInstance } from '@memory-service/contracts'
import type { AnticipationStats } from './grpc/anticipationScheduler.js'
import type { AnticipatedTurn } from './grpc/eventStreamService.js'
import { createMemoryPresence } from './grpc/memoryPresence.js'
import { startGateway, type GatewayDependencies } from './startGateway.js'

export interface RunningGatewayService {
  addresses: { http: string; grpc: string }
  /** What anticipation did since the start. */
  anticipationStats(): AnticipationStats | undefined
  /** The development instance created because the control topic held none (its key is shown only here). */
  developmentInstance?: CreatedInstance
}

/**
 * After a user turn the agent most likely needs what is known about what the user just said: a fast search, once
 * a cheap check (remembered per user) found the user has memories at all. The search embeds on a model session of
 * its own, opened by the first anticipation (a gateway whose streams never subscribe does not load it).
 */
function anticipationOf(
  memorySearch: MemorySearch,
  anticipationSearch: () => Promise<MemorySearch>,
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
      const found = await (
        await anticipationSearch()
      ).search(scope.instanceId, {
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

export async function startGatewayService(
  runtime: ProcessRuntime,
  options: { bootstrapDevelopmentInstance?: boolean; clock?: () => number } = {},
): Promise<RunningGatewayService> {
  const { config, engines } = runtime
  const logger = runtime.logger.child({ component: 'gateway' })
  const served = { model: config.embeddings.model, dimension: config.embeddings.dimension }
  const control = await sharedControlPlane(runtime)
  const controlEvents = createControlEventFactory()
  const tenancy = createTenancyCommands(control, controlEvents)
  const configCommands = createConfigCommands(control, controlEvents, served)
  const developmentInstance = options.bootstrapDevelopmentInstance
    ? await tenancy.ensureDevelopmentInstance('bootstrap-development-instance')
    : undefined
  const presence = await createGroupPresence(engines.kafka, {
    groupId: deployment.group(config.rateLimit.group),
    topic: CONTROL_TOPIC,
    logger,
  })
  runtime.onClose(() => presence.close())
  const { producer, claims, documents, recordUsage } = await createWriteSide(
    runtime,
    'gateway',
    [
      { subject: DOCUMENT_SUBJECT, schema: documentAcceptedSchema },
      { subject: MEMORY_SUBJECT, schema: memoryChangedSchema },
      { subject: USAGE_SUBJECT, schema: usageRecordedSchema },
      { subject: CONVERSATION_COMPACTED_SUBJECT, schema: conversationCompactedSchema },
      { subject: USER_DATA_ERASED_SUBJECT, schema: userDataErasedSchema },
    ],
    logger,
    {
      defaultTtlDaysOf: (instanceId) =>
        configCommands.effective(instanceId).storage.expiry?.default_ttl_days ?? null,
    },
  )
  // Conversation events are recorded on a thread of their own (its own producer and read-back of the log).
  const events = await createEventLogWriter(
    {
      kafka: kafkaConnectionOf(config.kafka, `${config.kafka.clientId}-event-writer`),
      registry: schemaRegistryConnectionOf(config.schemaRegistry),
      elasticsearch: config.elasticsearch,
      encryption: config.encryption,
      topic: CONVERSATION_EVENTS_TOPIC,
      windowMs: config.events.dedupeWindowSeconds * 1000,
      maxEntries: config.events.dedupeMaxEntries,
      logLevel: config.log.level,
      loggerName: 'memory-service',
    },
    logger,
  )
  runtime.onClose(() => events.close())
  const jobs = createIngestionJobs(engines.elasticsearch)
  const memoryStore = createMemoryStore(engines.elasticsearch)
  const memoryHistory = createMemoryHistory(engines.elasticsearch)
  const memoryExports = createMemoryExports(engines.elasticsearch, {
    store: memoryStore,
    history: memoryHistory,
  })
  const partitionReader = createPartitionReader(engines.kafka)
  runtime.onClose(() => partitionReader.close())
  // One fact reader per process: edits read facts with it, searches what a question asks for.
  const factReader = createFactReader(await sharedEmbedder(runtime), { cacheDir: config.embeddings.modelDir })
  const profiles = createProfiles(engines.elasticsearch)
  const memorySearch = createMemorySearch({
    elasticsearch: engines.elasticsearch,
    embedder: await sharedQueryEmbedder(runtime),
    factReader,
    profiles,
  })
  const memoryEditor = createMemoryEditor({
    store: memoryStore,
    producer,
    embedder: await sharedEmbedder(runtime),
    factReader,
    analyze: analyzeEditedContent,
    merge: mergeContent,
    changeLog: createMemoryChangeLog({
      reader: partitionReader,
      codec: engines.schemaCodec,
      projectionGroup: serviceConsumerGroups.vector,
    }),
  })
  // One gateway of the deployment at a time (the lease) appends the deletions of expired memories.
  const expiry = startMemoryExpiry({
    expiry: createMemoryExpiry({ store: memoryStore, editor: memoryEditor }),
    leases: createLeaseStore(engines.elasticsearch),
    logger: logger.child({ component: 'memory-expiry' }),
    intervalMs: config.memories.expirySweepSeconds * 1000,
  })
  runtime.onClose(() => expiry.close())
  const conversationStore = createConversationStore(engines.elasticsearch)
  const webhookSettings = webhookSettingsOf(config.webhooks, (message) => logger.warn(message))
  const gateway = await startGateway(
    config,
    {
      engines,
      control,
      tenancy,
      events,
      documents,
      jobs,
      memories: {
        store: memoryStore,
        history: memoryHistory,
        exports: memoryExports,
        editor: memoryEditor,
      },
      search: {
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
      },
      analytics: engines.clickhouse
        ? createAnalyticsReports(
            createAnalyticsStore(clickhouseOf(engines)),
            parseTokenPrices(config.analytics.tokenPrices),
            memoryStore,
            engines.keyring,
          )
        : answeredByOwner<AnalyticsReports>(),
      conversations: createConversations({
        store: conversationStore,
        events,
        claims,
        producer,
        documents,
        search: memorySearch,
        configOf: (instanceId) => configCommands.effective(instanceId),
        recordUsage,
        ...summarizerOf(config),
        logger,
      }),
      erasure: createUserErasure({
        keyring: engines.keyring,
        producer,
        conversations: conversationStore,
        receipts: createErasureReceipts(engines.elasticsearch),
        logger,
      }),
      profiles,
      webhooks: createWebhookCommands({
        control,
        events: createWebhookEventFactory(),
        secrets: webhookSettings.secrets,
        urlPolicy: webhookSettings.urlPolicy,
        deliveries: createDeliveryStore(engines.elasticsearch),
      }),
      ...(config.events.anticipationConcurrency > 0
        ? {
            anticipation: anticipationOf(
              memorySearch,
              () =>
                runtime.shared('anticipation-search', async () =>
                  createMemorySearch({
                    elasticsearch: engines.elasticsearch,
                    embedder: await sharedAnticipationEmbedder(runtime),
                    factReader,
                    profiles,
                  }),
                ),
              configCommands,
              config.events.anticipationConcurrency,
            ),
          }
        : {}),
      configs: {
        commands: configCommands,
        reports: engines.clickhouse
          ? createConfigReports(engines.clickhouse, configCommands)
          : answeredByOwner<ConfigReports>(),
      },
      recordUsage,
      gatewayCount: () => presence.count(),
      ...(engines.clickhouse || !config.clickhouse.ownerUrl
        ? {}
        : { analyticsOwnerUrl: config.clickhouse.ownerUrl }),
      ...(options.clock ? { clock: options.clock } : {}),
    },
    logger,
  )
  runtime.onClose(() => gateway.close())
  return {
    addresses: { http: gateway.httpAddress, grpc: gateway.grpcAddress },
    anticipationStats: () => gateway.anticipationStats(),
    ...(developmentInstance ? { developmentInstance } : {}),
  }
}
