import kafkajs, { type Kafka } from 'kafkajs'

// kafkajs is CommonJS; its enums are reachable only through the default export under Node's ESM loader.
const { ConfigResourceTypes } = kafkajs

/** One topic as declared in infra/kafka/topics.json. */
export interface TopicDeclaration {
  name: string
  partitions: number
  /** Topic-level configs, e.g. retention.ms = -1 for the topics that are the source of truth. */
  config: Record<string, string>
  key?: string
  description?: string
}

export interface TopicAdmin {
  /** Creates missing topics and adds partitions and configs where a declared topic has fewer or different ones. */
  ensureTopics(topics: TopicDeclaration[]): Promise<{ created: string[]; updated: string[] }>
  describeTopics(
    names: string[],
  ): Promise<Map<string, { partitions: number; config: Record<string, string> }>>
  deleteTopics(names: string[]): Promise<void>
  describeCluster(): Promise<{ clusterId: string; brokers: number; controller: number | null }>
  close(): Promise<void>
}

const propagatingErrors = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
])
const isPropagating = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  propagatingErrors.has(String((error as { type?: unknown }).type))

export async function createTopicAdmin(kafka: Kafka): Promise<TopicAdmin> {
  const admin = kafka.admin()
  await admin.connect()

  async function describeTopics(names: string[]) {
    const result = new Map<string, { partitions: number; config: Record<string, string> }>()
    if (names.length === 0) return result
    const existing = new Set(await admin.listTopics())
    const present = names.filter((name) => existing.has(name))
    if (present.length === 0) return result
    const metadata = await admin.fetchTopicMetadata({ topics: present })
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: present.map((name) => ({ type: ConfigResourceTypes.TOPIC, name })),
    })
    for (const topic of metadata.topics) {
      const resource = configs.resources.find((entry) => entry.resourceName === topic.name)
      const config: Record<string, string> = {}
      for (const entry of resource?.configEntries ?? []) config[entry.configName] = entry.configValue
      result.set(topic.name, { partitions: topic.partitions.length, config })
    }
    return result
  }

  /** Waits until every partition of the topics has a leader, retrying while their metadata propagates. */
  async function untilLed(names: string[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    for (let attempt = 0; ; attempt += 1) {
      try {
        const metadata = await admin.fetchTopicMetadata({ topics: names })
        const led = metadata.topics.every(
          (topic) =>
            topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0),
        )
        if (led && metadata.topics.length === names.length) return
      } catch (error) {
        if (!isPropagating(error) || Date.now() > deadline) throw error
      }
      if (Date.now() > deadline)
        throw new Error(`topics without a leader after ${String(timeoutMs)} ms: ${names.join(', ')}`)
      await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)))
    }
  }

  return {
    async ensureTopics(topics) {
      const current = await describeTopics(topics.map((topic) => topic.name))
      const missing = topics.filter((topic) => !current.has(topic.name))
      if (missing.length > 0) {
        // kafkajs's own wait for leaders gives up on "does not host this topic-partition", which a broker answers
        // while the new topic's metadata is still propagating (seen in CI): the wait below retries it.
        await admin.createTopics({
          waitForLeaders: false,
          topics: missing.map((topic) => ({
            topic: topic.name,
            numPartitions: topic.partitions,
            replicationFactor: -1,
            configEntries: Object.entries(topic.config).map(([name, value]) => ({ name, value })),
          })),
        })
        await untilLed(missing.map((topic) => topic.name))
      }
      const updated: string[] = []
      for (const topic of topics) {
        const existing = current.get(topic.name)
        if (!existing) continue
        if (existing.partitions < topic.partitions) {
          await admin.createPartitions({ topicPartitions: [{ topic: topic.name, count: topic.partitions }] })
          updated.push(topic.name)
        }
        const drifted = Object.entries(topic.config).filter(
          ([name, value]) => existing.config[name] !== value,
        )
        if (drifted.length > 0) {
          await admin.alterConfigs({
            validateOnly: false,
            // AlterConfigs replaces every override of the topic, so the whole declared set is sent, not just the drift.
            resources: [
              {
                type: ConfigResourceTypes.TOPIC,
                name: topic.name,
                configEntries: Object.entries(topic.config).map(([name, value]) => ({ name, value })),
              },
            ],
          })
          if (!updated.includes(topic.name)) updated.push(topic.name)
        }
      }
      return { created: missing.map((topic) => topic.name), updated }
    },
    describeTopics,
    async deleteTopics(names) {
      if (names.length > 0) await admin.deleteTopics({ topics: names })
    },
    async describeCluster() {
      const cluster = await admin.describeCluster()
      return { clusterId: cluster.clusterId, brokers: cluster.brokers.length, controller: cluster.controller }
    },
    close: () => admin.disconnect(),
  }
}
