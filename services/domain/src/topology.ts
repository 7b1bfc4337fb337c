/**
 * Every name the services agree on through the engines, in one place: the Kafka topics (the source of truth), the
 * consumer groups that project them, and the stores they project into. A name changed here changes for every
 * deployable at once; infra/kafka/topics.json and infra/elasticsearch/indices.json declare the same base names, and
 * engines/src/provisioning/topology.unit.test.ts keeps them in step.
 *
 * A deployment may run in a namespace (MEMORY_SERVICE_NAMESPACE) so that several share one cluster — staging beside
 * production, a test run beside a running product: every topic, consumer group, index and graph generation gets the
 * namespace in its name. The default namespace (unset) uses the bare names, so existing data stays where it is.
 * The names are fixed when the process starts: every process of a deployment must be started with the same value.
 */

export const NAMESPACE_VARIABLE = 'MEMORY_SERVICE_NAMESPACE'

// Lower case because Elasticsearch index names must be; short because Kafka group and topic names carry it.
const namespacePattern = /^[a-z][a-z0-9-]{0,23}$/

/** The namespace a value of MEMORY_SERVICE_NAMESPACE names; unset or empty is the default namespace (''). */
export function parseNamespace(value: string | undefined): string {
  if (value === undefined || value === '') return ''
  if (!namespacePattern.test(value)) {
    throw new Error(
      `${NAMESPACE_VARIABLE}=${JSON.stringify(value)}: a namespace is 1-24 characters of a-z, 0-9 and '-', starting with a letter`,
    )
  }
  return value
}

/** The names of one deployment's topics, consumer groups, indices and graph, for a namespace. */
export function topologyFor(namespace: string) {
  const topic = (name: string) => (namespace ? `${namespace}.${name}` : name)
  const index = (name: string) => (namespace ? `${namespace}-${name}` : name)
  return {
    namespace,
    topic,
    /** Consumer groups (and any other Kafka group) of this deployment. */
    group: topic,
    index,
    /** The graph's generation names (`g1`, `staging/g1`) and the key of the node pointing at the active one. */
    graph: {
      generationPrefix: namespace ? `${namespace}/` : '',
      stateKey: namespace ? `graph/${namespace}` : 'graph',
    },
  }
}

export type DeploymentTopology = ReturnType<typeof topologyFor>

/** This process's deployment: its namespace comes from the environment. */
export const deployment: DeploymentTopology = topologyFor(parseNamespace(process.env[NAMESPACE_VARIABLE]))

/** Kafka topics: what was accepted, in order. */
export const CONTROL_TOPIC = deployment.topic('mem.control.v1')
/** Documents of interactive writes: the pipeline's interactive lane, formed first. */
export const DOCUMENTS_TOPIC = deployment.topic('mem.documents.v1')
/** Documents accepted in bulk (batches, imports, transcripts): the pipeline's bulk lane. */
export const BULK_DOCUMENTS_TOPIC = deployment.topic('mem.documents-bulk.v1')
export const CONVERSATION_EVENTS_TOPIC = deployment.topic('mem.conversation-events.v1')
export const CONVERSATIONS_TOPIC = deployment.topic('mem.conversations.v1')
export const INGESTION_JOBS_TOPIC = deployment.topic('mem.ingestion-jobs.v1')
export const MEMORIES_TOPIC = deployment.topic('mem.memories.v1')
export const USAGE_TOPIC = deployment.topic('mem.usage.v1')
export const DEAD_LETTER_TOPIC = deployment.topic('mem.dead-letter.v1')

/** The consumer group of each long-running consumer; a rebuild uses a group of its own per generation. */
export const serviceConsumerGroups = {
  pipeline: deployment.group('memory-pipeline'),
  /** The pipeline's bulk lane: a group of its own, so its backlog is measured apart and never holds the other. */
  pipelineBulk: deployment.group('memory-pipeline-bulk'),
  jobs: deployment.group('memory-projector-jobs'),
  vector: deployment.group('memory-projector-vector'),
  graph: deployment.group('memory-projector-graph'),
  analytics: deployment.group('memory-projector-analytics'),
  conversations: deployment.group('memory-projector-conversations'),
  webhooks: deployment.group('memory-webhooks'),
  /** The erasure job: reads the erasure events and removes the user's data from the read models. */
  erasures: deployment.group('memory-erasures'),
} as const

/** Elasticsearch. Readers and the vector projection use the alias; generations behind it are swapped by a rebuild. */
export const MEMORIES_ALIAS = deployment.index('mem-memories')
export const INGESTION_JOBS_INDEX = deployment.index('mem-ingestion-jobs-v1')
export const CONVERSATION_TURNS_INDEX = deployment.index('mem-conversation-turns-v1')
/** One document per conversation: its compaction state. */
export const CONVERSATIONS_INDEX = deployment.index('mem-conversations-v1')
/** Erased users, so that their turns still on their way are not stored. */
export const ERASURES_INDEX = deployment.index('mem-erasures-v1')
/** User erasures as jobs, by receipt id: running until the erasure job has removed everything of the user. */
export const ERASURE_RECEIPTS_INDEX = deployment.index('mem-erasure-receipts-v1')
/** The data subjects' encryption keys, wrapped: primary state, not a projection (no rebuild touches it). */
export const DATA_KEYS_INDEX = deployment.index('mem-data-keys-v1')
/** Every change of every memory, one document per version (GET /v1/memories/{memory_id}/history). */
export const MEMORY_CHANGES_INDEX = deployment.index('mem-memory-changes-v1')
/** User profiles: one document per memory stating a fact; generations behind the alias are swapped by a rebuild. */
export const PROFILES_ALIAS = deployment.index('mem-profiles')
/** Claims of document ingestions (documents are idempotent by their document_id). */
export const IDEMPOTENCY_INDEX = deployment.index('mem-idempotency-v1')
/** Cluster-wide leases (one rebuild of a projection at a time across every process). */
export const LEASES_INDEX = deployment.index('mem-leases-v1')
/** Memory exports by export id: what each takes, and when it was taken (GET /v1/memories/exports/{id}). */
export const MEMORY_EXPORTS_INDEX = deployment.index('mem-memory-exports-v1')
/** Webhook deliveries by delivery id (derived from webhook and source event), with their attempts. */
export const WEBHOOK_DELIVERIES_INDEX = deployment.index('mem-webhook-deliveries-v1')

/** ClickHouse tables of the usage read model (infra/clickhouse/*.sql creates them). */
export const usageTables = {
  raw: 'usage_raw',
  minute: 'usage_minute',
  hour: 'usage_hour',
  day: 'usage_day',
  /** Without the split by user, customer, document type and mode: for the reads that do not group by them. */
  totalsMinute: 'usage_totals_minute',
  totalsHour: 'usage_totals_hour',
  totalsDay: 'usage_totals_day',
} as const
