/**
 * The projectors' composition root: every read model's projection over the log, the rebuilds that configuration
 * changes ask for, the compactions the persistence writer triggers, and the erasure job. The CLI runs it alone
 * (`memory-service start projectors`) or beside the other services.
 */
import { sharedEmbedder, summarizerOf, type ProcessRuntime } from '@memory-service/engines'
import { sharedControlPlane } from '@memory-service/log'
import {
  CONVERSATION_COMPACTED_SUBJECT,
  conversationCompactedSchema,
  createControlEventFactory,
  DOCUMENT_SUBJECT,
  documentAcceptedSchema,
  MEMORY_SUBJECT,
  memoryChangedSchema,
  USAGE_SUBJECT,
  usageRecordedSchema,
} from '@memory-service/domain'
import { createCompactor, createConfigCommands, createWriteSide } from '@memory-service/commands'
import {
  createAutomaticCompaction,
  createConversationStore,
  webhookSettingsOf,
} from '@memory-service/read-models'
import { projectionGroups, startProjectors, type ProjectionName } from './startProjectors.js'
import { startWebhooks } from './startWebhooks.js'
import { startErasures } from './startErasures.js'

const allProjections = Object.keys(projectionGroups) as ProjectionName[]

/**
 * The analytics projection alone, for a gateway that owns the in-process ClickHouse in a process without the
 * other projectors (the cluster topology): usage is written where it is read. The gateway serves before the
 * projection has joined its group: a join waits until every other member of the group has finished its batch and
 * joined again, and usage appended meanwhile is read from the group's offsets once it has joined.
 */
export async function startAnalyticsProjection(runtime: ProcessRuntime): Promise<void> {
  const projection = await startProjectors(
    runtime.engines,
    runtime.logger.child({ component: 'projectors' }),
    {
      projections: ['analytics'],
      joinInBackground: true,
    },
  )
  runtime.onClose(() => projection.close())
}

export async function startProjectorsService(runtime: ProcessRuntime): Promise<void> {
  const { config, engines } = runtime
  const logger = runtime.logger.child({ component: 'projectors' })
  const served = { model: config.embeddings.model, dimension: config.embeddings.dimension }
  const control = await sharedControlPlane(runtime)
  const configs = createConfigCommands(control, createControlEventFactory(), served)
  // Automatic compaction: the persistence writer reports conversations that grew; those over their budget are
  // compacted here, and their older turns go to extraction like a compaction asked for over HTTP.
  const { producer, claims, documents, recordUsage } = await createWriteSide(
    runtime,
    'projectors',
    [
      { subject: DOCUMENT_SUBJECT, schema: documentAcceptedSchema },
      { subject: CONVERSATION_COMPACTED_SUBJECT, schema: conversationCompactedSchema },
      { subject: USAGE_SUBJECT, schema: usageRecordedSchema },
      // The erasure job appends each erased memory's deletion.
      { subject: MEMORY_SUBJECT, schema: memoryChangedSchema },
    ],
    logger,
    {
      defaultTtlDaysOf: (instanceId) =>
        configs.effective(instanceId).storage.expiry?.default_ttl_days ?? null,
    },
  )
  const compactor = createCompactor({
    store: createConversationStore(engines.elasticsearch),
    claims,
    producer,
    documents,
    configOf: (instanceId) => configs.effective(instanceId),
    recordUsage,
    ...summarizerOf(config),
    logger,
  })
  const automaticCompaction = createAutomaticCompaction({
    budgetOf: (instanceId) => configs.effective(instanceId).retrieval.context_budget,
    compactIfOverBudget: (scope, conversationId, userId, correlationId) =>
      compactor.compactIfOverBudget(scope, conversationId, userId, correlationId),
    warn: (details, message) => logger.warn(details, message),
  })
  runtime.onClose(() => automaticCompaction.stop())
  const projectors = await startProjectors(engines, logger, {
    configuration: { control, served, embedder: await sharedEmbedder(runtime) },
    onConversationsGrown: (conversations) => automaticCompaction.grown(conversations),
    // The analytics projection writes where ClickHouse is open; a process that leaves it to its owner skips it.
    projections: engines.clickhouse ? allProjections : allProjections.filter((name) => name !== 'analytics'),
  })
  runtime.onClose(() => projectors.close())
  const webhooks = await startWebhooks({
    engines,
    control,
    settings: webhookSettingsOf(config.webhooks, (message) => logger.warn(message)),
    logger,
  })
  runtime.onClose(() => webhooks.close())
  const erasures = await startErasures({ engines, producer, logger })
  runtime.onClose(() => erasures.close())
}
