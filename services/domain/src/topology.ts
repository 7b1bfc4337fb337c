/**
 * Every name the services agree on through the engines, in one place: the Kafka topics (the source of truth), the
 * consumer groups that project them, and the stores they project into. A name changed here changes for every
 * deployable at once; infra/kafka/topics.json and infra/elasticsearch/indices.json declare the same names, and
 * engines/src/provisioning/topology.unit.test.ts keeps them in step.
 */

/** Kafka topics: what was accepted, in order. */
export const CONTROL_TOPIC = 'mem.control.v1'
export const DOCUMENTS_TOPIC = 'mem.documents.v1'
export const CONVERSATION_EVENTS_TOPIC = 'mem.conversation-events.v1'
export const CONVERSATIONS_TOPIC = 'mem.conversations.v1'
export const INGESTION_JOBS_TOPIC = 'mem.ingestion-jobs.v1'
export const MEMORIES_TOPIC = 'mem.memories.v1'
export const USAGE_TOPIC = 'mem.usage.v1'
export const DEAD_LETTER_TOPIC = 'mem.dead-letter.v1'

/** The consumer group of each long-running consumer; a rebuild uses a group of its own per generation. */
export const serviceConsumerGroups = {
  pipeline: 'memory-pipeline',
  jobs: 'memory-projector-jobs',
  vector: 'memory-projector-vector',
  graph: 'memory-projector-graph',
  analytics: 'memory-projector-analytics',
  conversations: 'memory-projector-conversations',
  webhooks: 'memory-webhooks',
} as const

/** Elasticsearch. Readers and the vector projection use the alias; generations behind it are swapped by a rebuild. */
export const MEMORIES_ALIAS = 'mem-memories'
export const INGESTION_JOBS_INDEX = 'mem-ingestion-jobs-v1'
export const CONVERSATION_TURNS_INDEX = 'mem-conversation-turns-v1'
/** One document per conversation: its compaction state. */
export const CONVERSATIONS_INDEX = 'mem-conversations-v1'
/** Erased users, so that their turns still on their way are not stored. */
export const ERASURES_INDEX = 'mem-erasures-v1'
/** Claims of document ingestions (documents are idempotent by their document_id). */
export const IDEMPOTENCY_INDEX = 'mem-idempotency-v1'
/** Cluster-wide leases (one rebuild of a projection at a time across every process). */
export const LEASES_INDEX = 'mem-leases-v1'
/** Webhook deliveries by delivery id (derived from webhook and source event), with their attempts. */
export const WEBHOOK_DELIVERIES_INDEX = 'mem-webhook-deliveries-v1'

/** ClickHouse tables of the usage read model (infra/clickhouse/*.sql creates them). */
export const usageTables = {
  raw: 'usage_raw',
  minute: 'usage_minute',
  hour: 'usage_hour',
  day: 'usage_day',
} as const
