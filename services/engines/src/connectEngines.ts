import { join } from 'node:path'
import type { Client as ElasticsearchClient } from '@elastic/elasticsearch'
import type { Kafka } from 'kafkajs'
import {
  createClickhouseClient,
  createClickhouseStore,
  type ClickhouseStore,
} from './clickhouse/createClickhouseStore.js'
import type { ServiceConfig } from './config/loadConfig.js'
import { createElasticsearchClient, elasticsearchVersion } from './elasticsearch/createElasticsearchStore.js'
import { createKafka, kafkaConnectionOf } from './kafka/createKafka.js'
import { createTopicAdmin } from './kafka/topicAdmin.js'
import type { Logger } from './logging/createLogger.js'
import { createNeo4jDriver, createNeo4jStore, type Neo4jStore } from './neo4j/createNeo4jStore.js'
import type { DependencyName, DependencyProbe } from './readiness/dependencyChecks.js'
import { logCodecOf } from './encryption/logCodec.js'
import type { SchemaCodec } from './schemaRegistry/createSchemaCodec.js'
import type { Keyring } from './encryption/keyring.js'

/** Live clients for every engine a process talks to, created once by its composition root. */
export interface Engines {
  kafka: Kafka
  schemaCodec: SchemaCodec
  /** The data subjects' keys the codec seals with; an erasure destroys one through it. */
  keyring: Keyring
  elasticsearch: ElasticsearchClient
  neo4j: Neo4jStore
  /** Only in a process whose services use it (the gateway's analytics, the analytics projection). */
  clickhouse?: ClickhouseStore
  /** One real client call per engine this process uses, for /readyz and the stack's readiness checks. */
  probes: Partial<Record<DependencyName, DependencyProbe>>
  close(): Promise<void>
}

/** The process's ClickHouse, for a service that cannot work without it. */
export function clickhouseOf(engines: Pick<Engines, 'clickhouse'>): ClickhouseStore {
  if (!engines.clickhouse)
    throw new Error(
      'this process was started without ClickHouse (only the gateway and the projectors use it)',
    )
  return engines.clickhouse
}

export function clickhouseDataPath(config: ServiceConfig): string {
  return config.clickhouse.dataPath ?? join(config.stateDir, 'clickhouse')
}

/** The log and the memory projections, without ClickHouse (whose embedded engine admits one process per directory). */
export type LogAndProjections = Pick<
  Engines,
  'kafka' | 'schemaCodec' | 'keyring' | 'elasticsearch' | 'neo4j' | 'close'
>

/**
 * The log's clients (Kafka and the schema registry) as the configuration secures them; `clientId` names the caller.
 * The codec seals and opens personal content with the data keys in `elasticsearch` (a client of its own when none
 * is given).
 */
export function connectLog(
  config: ServiceConfig,
  logger: Logger,
  clientId = config.kafka.clientId,
  elasticsearch: ElasticsearchClient = createElasticsearchClient(config.elasticsearch),
): Pick<Engines, 'kafka' | 'schemaCodec' | 'keyring'> {
  const { codec, keyring } = logCodecOf(config, elasticsearch, logger)
  return {
    kafka: createKafka({ ...kafkaConnectionOf(config.kafka, clientId), logger }),
    schemaCodec: codec,
    keyring,
  }
}

/** Clients for the log and the projections only: what a rebuild needs, runnable next to the running services. */
export function connectLogAndProjections(config: ServiceConfig, logger: Logger): LogAndProjections {
  const elasticsearch = createElasticsearchClient(config.elasticsearch)
  const { kafka, schemaCodec, keyring } = connectLog(config, logger, config.kafka.clientId, elasticsearch)
  const neo4j = createNeo4jStore(createNeo4jDriver(config.neo4j), config.neo4j.database)
  return {
    kafka,
    schemaCodec,
    keyring,
    elasticsearch,
    neo4j,
    async close() {
      await Promise.allSettled([elasticsearch.close(), neo4j.close()])
    },
  }
}

/** Creates the clients without calling any engine: a process can start, and report not-ready, while one is down. */
export async function connectEngines(
  config: ServiceConfig,
  logger: Logger,
  options: {
    /**
     * Whether this process uses ClickHouse (default: yes). The in-process engine admits one process per data
     * directory, so a process that does not need it (the pipeline) must not open it.
     */
    clickhouse?: boolean
  } = {},
): Promise<Engines> {
  const { kafka, schemaCodec, keyring, elasticsearch, neo4j } = connectLogAndProjections(config, logger)
  const clickhouse =
    options.clickhouse === false
      ? undefined
      : createClickhouseStore(
          await createClickhouseClient({ ...config.clickhouse, dataPath: clickhouseDataPath(config) }),
          config.clickhouse.database,
        )

  const probes: Partial<Record<DependencyName, DependencyProbe>> = {
    async kafka() {
      const admin = await createTopicAdmin(kafka)
      try {
        const cluster = await admin.describeCluster()
        return `cluster ${cluster.clusterId}, ${cluster.brokers} broker(s)`
      } finally {
        await admin.close()
      }
    },
    async schema_registry() {
      const subjects = await schemaCodec.listSubjects()
      return `${subjects.length} subject(s)`
    },
    elasticsearch: () => elasticsearchVersion(elasticsearch),
    neo4j: () => neo4j.version(),
    ...(clickhouse ? { clickhouse: () => clickhouse.version() } : {}),
  }

  return {
    kafka,
    schemaCodec,
    keyring,
    elasticsearch,
    neo4j,
    clickhouse,
    probes,
    async close() {
      await Promise.allSettled([elasticsearch.close(), neo4j.close(), clickhouse?.close()])
    },
  }
}
