import { randomBytes } from 'node:crypto'
import type { Admin, IHeaders, Kafka } from 'kafkajs'

/** One record as read back: its offset, key, bytes and headers. */
export interface ReadRecord {
  offset: number
  key: string | undefined
  rawKey: Buffer | null
  value: Buffer | null
  headers: IHeaders | undefined
}

export interface PartitionReader {
  /**
   * The next offset `groupId` will consume in a partition: every record before it was handled. A group that never
   * committed there starts at the first record kept.
   */
  committedOffset(groupId: string, topic: string, partition: number): Promise<number>
  /**
   * Reads the records of one partition in [from, to) in order. Resolves `true` once all were visited, `false` when
   * `timeoutMs` passed first (what was visited stays visited).
   */
  read(
    range: { topic: string; partition: number; from: number; to: number },
    visit: (record: ReadRecord) => void,
    timeoutMs: number,
  ): Promise<boolean>
  close(): Promise<void>
}

/**
 * Reads short ranges of a partition on demand, for the rare answer that must come from the log itself rather than
 * from a projection (which may lag). Each read joins a consumer group of its own for the time of the read (kafkajs
 * has no manual assignment) and commits nothing.
 */
export function createPartitionReader(kafka: Kafka): PartitionReader {
  let admin: Promise<Admin> | undefined
  const connectedAdmin = (): Promise<Admin> => {
    admin ??= (async () => {
      const client = kafka.admin()
      await client.connect()
      return client
    })().catch((error: unknown) => {
      admin = undefined
      throw error
    })
    return admin
  }

  return {
    async committedOffset(groupId, topic, partition) {
      const client = await connectedAdmin()
      const [committed] = await client.fetchOffsets({ groupId, topics: [topic] })
      const offset = Number(
        committed?.partitions.find((entry) => entry.partition === partition)?.offset ?? -1,
      )
      if (offset >= 0) return offset
      const ends = await client.fetchTopicOffsets(topic)
      return Number(ends.find((entry) => entry.partition === partition)?.low ?? 0)
    },

    async read({ topic, partition, from, to }, visit, timeoutMs) {
      if (from >= to) return true
      const consumer = kafka.consumer({
        groupId: `partition-reader-${randomBytes(6).toString('hex')}`,
        allowAutoTopicCreation: false,
        maxWaitTimeInMs: 200,
      })
      let finish!: (complete: boolean) => void
      const finished = new Promise<boolean>((resolve) => (finish = resolve))
      const timer = setTimeout(() => finish(false), timeoutMs)
      let next = from
      try {
        await consumer.connect()
        await consumer.subscribe({ topics: [topic], fromBeginning: false })
        consumer.on(consumer.events.GROUP_JOIN, () =>
          consumer.seek({ topic, partition, offset: String(next) }),
        )
        await consumer.run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            if (batch.topic !== topic || batch.partition !== partition) return
            for (const message of batch.messages) {
              const offset = Number(message.offset)
              if (offset < next) continue
              if (offset >= to) break
              visit({
                offset,
                key: message.key?.toString('utf8'),
                rawKey: message.key,
                value: message.value,
                headers: message.headers,
              })
              next = offset + 1
            }
            // Compacted or aborted records leave gaps: the range is read once the batch reached past its end.
            const last = Number(batch.lastOffset())
            if (last + 1 >= to) next = to
            if (next >= to) finish(true)
          },
        })
        return await finished
      } finally {
        clearTimeout(timer)
        await consumer.disconnect().catch(() => undefined)
      }
    },

    async close() {
      const client = admin
      admin = undefined
      if (client) await (await client.catch(() => undefined))?.disconnect()
    },
  }
}

/**
 * Visits every record of a topic up to its end as of the call, partition by partition (verification reads the whole
 * log; what is appended meanwhile is for the next run).
 */
export async function readTopicToEnd(
  kafka: Kafka,
  topic: string,
  visit: (record: ReadRecord, partition: number) => void,
  options: { timeoutMs?: number } = {},
): Promise<{ records: number }> {
  const admin = kafka.admin()
  await admin.connect()
  const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect())
  const reader = createPartitionReader(kafka)
  let records = 0
  try {
    for (const { partition, low, high } of ends) {
      const complete = await reader.read(
        { topic, partition, from: Number(low), to: Number(high) },
        (record) => {
          records += 1
          visit(record, partition)
        },
        options.timeoutMs ?? 600_000,
      )
      if (!complete) throw new Error(`${topic}[${String(partition)}] not read to its end in time`)
    }
  } finally {
    await reader.close()
  }
  return { records }
}
