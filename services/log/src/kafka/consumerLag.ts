import type { Admin, Kafka } from 'kafkajs'
import {
  BULK_DOCUMENTS_TOPIC,
  CONVERSATION_EVENTS_TOPIC,
  CONVERSATIONS_TOPIC,
  DOCUMENTS_TOPIC,
  INGESTION_JOBS_TOPIC,
  MEMORIES_TOPIC,
  serviceConsumerGroups,
  USAGE_TOPIC,
} from '@memory-service/domain'

/** A consumer group and the topics it subscribes to. */
export interface WatchedConsumerGroup {
  group: string
  topics: readonly string[]
}

/**
 * The consumer groups whose lag /readyz and `stack:status` report: the pipeline worker and each projection. The
 * names are those the services run under (PIPELINE_GROUP in services/pipeline, projectionGroups in
 * services/projectors).
 */
/** The services' consumer groups: the pipeline worker and one per projection, each with its own offsets. */
export const consumerGroupsToWatch: readonly WatchedConsumerGroup[] = [
  { group: serviceConsumerGroups.pipeline, topics: [DOCUMENTS_TOPIC] },
  { group: serviceConsumerGroups.pipelineBulk, topics: [BULK_DOCUMENTS_TOPIC] },
  {
    group: serviceConsumerGroups.jobs,
    topics: [DOCUMENTS_TOPIC, BULK_DOCUMENTS_TOPIC, INGESTION_JOBS_TOPIC],
  },
  { group: serviceConsumerGroups.vector, topics: [MEMORIES_TOPIC] },
  { group: serviceConsumerGroups.graph, topics: [MEMORIES_TOPIC] },
  { group: serviceConsumerGroups.analytics, topics: [USAGE_TOPIC] },
  { group: serviceConsumerGroups.conversations, topics: [CONVERSATION_EVENTS_TOPIC, CONVERSATIONS_TOPIC] },
]

export interface TopicLag {
  topic: string
  lag: number
  /** The lag of each partition (for metrics; /readyz shows the topic's sum). */
  partitions?: { partition: number; lag: number }[]
}

/** The lag of one group, measured (field names as in the /readyz body). */
export interface MeasuredGroupLag {
  group: string
  /** Records in the group's topics that the group has not committed yet. */
  lag: number
  /** The group has committed no offset on any partition of its topics (it never ran, or its offsets expired). */
  no_committed_offsets: boolean
  topics: TopicLag[]
}

/** A group whose lag could not be read, and why. */
export interface UnreadGroupLag {
  group: string
  error: string
}

export type ConsumerGroupLag = MeasuredGroupLag | UnreadGroupLag

/** The offset range of each partition of a topic: `low` is the first record kept, `high` the next to be written. */
export interface TopicEnds {
  topic: string
  partitions: { partition: number; low: string; high: string }[]
}

/** A group's committed offset per partition of a topic (the next record to consume); "-1" or absent when none. */
export interface CommittedOffsets {
  topic: string
  partitions: { partition: number; offset: string }[]
}

/**
 * Pure lag arithmetic. Per partition: high watermark − committed offset; a partition without a committed offset
 * counts every record it holds (high − low). Records already removed by retention (below `low`) are not counted,
 * and a partition never counts below zero (a committed offset read a moment after the high watermark).
 */
export function groupLag(group: string, ends: TopicEnds[], committed: CommittedOffsets[]): MeasuredGroupLag {
  let anyCommitted = false
  const topics = ends.map(({ topic, partitions }): TopicLag => {
    const offsets = new Map(
      (committed.find((entry) => entry.topic === topic)?.partitions ?? []).map((entry) => [
        entry.partition,
        BigInt(entry.offset),
      ]),
    )
    let lag = 0n
    const partitionLags: { partition: number; lag: number }[] = []
    for (const { partition, low, high } of partitions) {
      const offset = offsets.get(partition)
      const start = BigInt(low)
      const end = BigInt(high)
      let from = start
      if (offset !== undefined && offset >= 0n) {
        anyCommitted = true
        if (offset > from) from = offset
      }
      const behind = end > from ? end - from : 0n
      lag += behind
      partitionLags.push({ partition, lag: Number(behind) })
    }
    partitionLags.sort((a, b) => a.partition - b.partition)
    return { topic, lag: Number(lag), partitions: partitionLags }
  })
  return {
    group,
    lag: topics.reduce((sum, topic) => sum + topic.lag, 0),
    no_committed_offsets: !anyCommitted,
    topics,
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Rejects after `ms`; `clear` stops the timer once the work is done. */
function deadlineAfter(ms: number): { expired: Promise<never>; clear(): void } {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Kafka within ${ms} ms`)), ms)
  })
  expired.catch(() => undefined)
  return { expired, clear: () => clearTimeout(timer) }
}

/**
 * Reads the lag of each group with an admin client that is already connected: the topic list once, every topic's
 * offsets once, each group's committed offsets once. A group whose read fails (a topic of it does not exist, say),
 * or has not answered within `timeoutMs`, gets an `error` instead of a lag; the others are unaffected. Never
 * rejects.
 */
export async function readConsumerLag(
  admin: Admin,
  groups: readonly WatchedConsumerGroup[] = consumerGroupsToWatch,
  options: { timeoutMs?: number } = {},
): Promise<ConsumerGroupLag[]> {
  const deadline = deadlineAfter(options.timeoutMs ?? 3000)
  // Only topics that exist are asked about: kafkajs keeps every topic it was asked about in its metadata
  // requests, and one missing topic would then fail every later request of this client.
  const existing = admin.listTopics().then((topics) => new Set(topics))
  existing.catch(() => undefined)
  const ends = new Map<string, Promise<TopicEnds>>()
  const endsOf = (topic: string): Promise<TopicEnds> => {
    let pending = ends.get(topic)
    if (!pending) {
      pending = admin.fetchTopicOffsets(topic).then(
        (partitions) => ({
          topic,
          partitions: partitions.map(({ partition, low, high }) => ({ partition, low, high })),
        }),
        (error: unknown) => {
          throw new Error(`topic ${topic}: ${messageOf(error)}`, { cause: error })
        },
      )
      // Shared by several groups; a rejection is reported through each of them.
      pending.catch(() => undefined)
      ends.set(topic, pending)
    }
    return pending
  }
  const readGroup = async ({ group, topics }: WatchedConsumerGroup): Promise<MeasuredGroupLag> => {
    const present = await existing
    const missing = topics.filter((topic) => !present.has(topic))
    if (missing.length > 0) throw new Error(`topic ${missing.join(', ')} does not exist`)
    const [topicEnds, committed] = await Promise.all([
      Promise.all(topics.map(endsOf)),
      admin.fetchOffsets({ groupId: group, topics: [...topics] }),
    ])
    return groupLag(group, topicEnds, committed)
  }
  try {
    return await Promise.all(
      groups.map(async (watched): Promise<ConsumerGroupLag> => {
        try {
          return await Promise.race([readGroup(watched), deadline.expired])
        } catch (error) {
          return { group: watched.group, error: messageOf(error) }
        }
      }),
    )
  } finally {
    deadline.clear()
  }
}

export interface ConsumerLagReader {
  /** The lag of each group; a group that cannot be read within the time limit carries an `error`. Never rejects. */
  read(groups?: readonly WatchedConsumerGroup[]): Promise<ConsumerGroupLag[]>
  close(): Promise<void>
}

/**
 * One admin client, connected on first use and kept, for repeated lag reads (each /readyz call). Each read is
 * bounded by `timeoutMs` (connecting included), so an unreachable Kafka makes the lag an error, not a slow answer.
 * After a read with an error the client is replaced, so a broken connection is not kept.
 */
export function createConsumerLagReader(
  kafka: Kafka,
  options: { timeoutMs?: number } = {},
): ConsumerLagReader {
  const timeoutMs = options.timeoutMs ?? 3000
  interface Client {
    admin: Admin
    connected: Promise<void>
    settled: boolean
  }
  let current: Client | undefined
  const open = (): Client => {
    if (!current) {
      // Few retries: a read that cannot finish in time is reported as such, not retried in the background.
      const admin = kafka.admin({ retry: { retries: 1, initialRetryTime: 100 } })
      const client = { admin, connected: admin.connect(), settled: false }
      void client.connected.then(
        () => (client.settled = true),
        () => (client.settled = true),
      )
      current = client
    }
    return current
  }
  /** Drops the client. A connect still under way (Kafka not answering) is not waited for; it is closed once it settles. */
  const discard = async (client: Client | undefined): Promise<void> => {
    if (!client) return
    if (current === client) current = undefined
    const closing = client.connected
      .catch(() => undefined)
      .then(() => client.admin.disconnect())
      .catch(() => undefined)
    if (client.settled) await closing
  }
  return {
    async read(groups = consumerGroupsToWatch) {
      const started = performance.now()
      const client = open()
      const deadline = deadlineAfter(timeoutMs)
      try {
        await Promise.race([client.connected, deadline.expired])
      } catch (error) {
        void discard(client)
        return groups.map(({ group }) => ({ group, error: messageOf(error) }))
      } finally {
        deadline.clear()
      }
      const remaining = Math.max(1, timeoutMs - Math.round(performance.now() - started))
      const lag = await readConsumerLag(client.admin, groups, { timeoutMs: remaining })
      if (lag.some((entry) => 'error' in entry)) void discard(client)
      return lag
    },
    close: () => discard(current),
  }
}

/** One lag read with an admin client of its own, for one-off callers (`stack:status`, tests). Never rejects. */
export async function consumerLag(
  kafka: Kafka,
  groups: readonly WatchedConsumerGroup[] = consumerGroupsToWatch,
  options: { timeoutMs?: number } = {},
): Promise<ConsumerGroupLag[]> {
  const reader = createConsumerLagReader(kafka, options)
  try {
    return await reader.read(groups)
  } finally {
    await reader.close()
  }
}
