import type { Consumer, Kafka } from 'kafkajs'
import { idleFetchWaitMs } from './idleFetchWait.js'

export interface GroupPresence {
  /** Live members of the group as last seen (at least 1: this process). */
  count(): number
  close(): Promise<void>
}

/**
 * Counts the processes of one kind (say, every gateway) through Kafka's group membership: each joins the same
 * consumer group on a topic it does not process, and the group coordinator knows who is alive. Used to split a
 * per-key rate limit between N gateways without a shared counter store.
 */
export async function createGroupPresence(
  kafka: Kafka,
  options: { groupId: string; topic: string; refreshMs?: number },
): Promise<GroupPresence> {
  const consumer: Consumer = kafka.consumer({
    groupId: options.groupId,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: idleFetchWaitMs,
  })
  const admin = kafka.admin()
  await Promise.all([consumer.connect(), admin.connect()])
  await consumer.subscribe({ topics: [options.topic], fromBeginning: false })
  // Membership is what counts; messages are skipped without work and nothing is committed.
  await consumer.run({ autoCommit: false, eachMessage: async () => undefined })
  let members = 1
  const refresh = async (): Promise<void> => {
    const { groups } = await admin.describeGroups([options.groupId])
    members = Math.max(1, groups[0]?.members.length ?? 1)
  }
  await refresh().catch(() => undefined)
  const timer = setInterval(() => void refresh().catch(() => undefined), options.refreshMs ?? 10_000)
  timer.unref()
  return {
    count: () => members,
    async close() {
      clearInterval(timer)
      await Promise.allSettled([consumer.disconnect(), admin.disconnect()])
    },
  }
}
