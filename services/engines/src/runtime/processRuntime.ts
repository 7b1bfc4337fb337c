import type { ServiceConfig } from '@memory-service/contracts'
import { connectEngines, type Engines } from '../connectEngines.js'
import { createBatchingEmbedder } from '../embeddings/batchingEmbedder.js'
import { createEmbedder } from '../embeddings/createEmbedder.js'
import type { Embedder } from '../embeddings/embeddings.js'
import { createTopicAdmin } from '../kafka/topicAdmin.js'
import type { Logger } from '../logging/createLogger.js'
import { loadEngineDeclarations, provisionEngines } from '../provisioning/provisionEngines.js'
import { measuredEmbedder } from '../telemetry/metrics.js'
import { createClosingOrder } from './closingOrder.js'

/**
 * What the services of one process share: the validated configuration, the logger, the engine clients (connected
 * once, with what the services need provisioned), and anything a service asks for by name through `shared` — one
 * embedding model, one control-plane read model — whether the process runs one service or all of them.
 */
export interface ProcessRuntime {
  readonly config: ServiceConfig
  readonly logger: Logger
  readonly engines: Engines
  /**
   * The one instance of `key` in this process: created by the first service that asks, closed with the process
   * once every service stopped (whenever it was created).
   */
  shared<T>(key: string, create: () => Promise<T>, close?: (value: T) => Promise<void>): Promise<T>
  /** A service's stop: at close, in reverse order of registration, before anything `shared` is closed. */
  onClose(close: () => Promise<void>): void
  close(): Promise<void>
}

/** Connects the engines and provisions the declared topics, indices, constraints and tables (idempotently). */
export async function createProcessRuntime(
  config: ServiceConfig,
  logger: Logger,
  options: { clickhouse?: boolean } = {},
): Promise<ProcessRuntime> {
  const engines = await connectEngines(config, logger, options)
  const closing = createClosingOrder(() => engines.close())
  const instances = new Map<string, Promise<unknown>>()
  const runtime: ProcessRuntime = {
    config,
    logger,
    engines,
    shared<T>(key: string, create: () => Promise<T>, close?: (value: T) => Promise<void>): Promise<T> {
      let found = instances.get(key) as Promise<T> | undefined
      if (!found) {
        found = create().then((value) => {
          if (close) closing.onShared(() => close(value))
          return value
        })
        found.catch(() => instances.delete(key))
        instances.set(key, found)
      }
      return found
    },
    onClose: (close) => closing.onService(close),
    close: () => closing.close(),
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
  } catch (error) {
    await runtime.close()
    throw error
  }
  return runtime
}

/**
 * The process's embedding model for documents and edits (batched: concurrent calls share one model call). The model
 * calls are measured, with the merged batches' sizes; a caller's wait, queueing included, is its stage's time.
 */
export const sharedEmbedder = (runtime: ProcessRuntime): Promise<Embedder> =>
  runtime.shared(
    'embedder',
    async () =>
      createBatchingEmbedder(measuredEmbedder(await createEmbedder(runtime.config.embeddings), 'documents')),
    (embedder) => embedder.close(),
  )

/**
 * Anticipation's searches: a session of its own at background priority. Under a fleet's turns it embeds without
 * pause (one user turn after another, coalesced), and on a contended machine a model thread of normal priority
 * took its share from the threads that acknowledge writes; at background priority it takes what they leave.
 */
export const sharedAnticipationEmbedder = (runtime: ProcessRuntime): Promise<Embedder> =>
  runtime.shared(
    'anticipation-embedder',
    async () =>
      measuredEmbedder(
        await createEmbedder(runtime.config.embeddings, { priority: 'background' }),
        'anticipation',
      ),
    (embedder) => embedder.close(),
  )

/**
 * Searches embed a few short questions and wait for them: a session of their own, never behind a document batch.
 * Batched too: a search's questions asked at once (its own and the fact reader's), and concurrent searches', share a
 * model call.
 */
export const sharedQueryEmbedder = (runtime: ProcessRuntime): Promise<Embedder> =>
  runtime.shared(
    'query-embedder',
    async () =>
      createBatchingEmbedder(measuredEmbedder(await createEmbedder(runtime.config.embeddings), 'queries')),
    (embedder) => embedder.close(),
  )
