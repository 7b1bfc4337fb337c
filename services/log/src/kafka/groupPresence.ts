import type { Consumer, Kafka } from 'kafkajs'
import type { Logger } from '@memory-service/engines'
import { idleFetchWaitMs } from './idleFetchWait.js'
import { restartWhenStoppedForGood } from './restartWhenStopped.js'

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
  options: { groupId: string; topic: string; logger: Logger; refreshMs?: number },
): Promise<GroupPresence> {
  const consumer: Consumer = kafka.consumer({
    groupId: options.groupId,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: idleFetchWaitMs,
  })
  const admin = kafka.admin()
  await Promise.all([consumer.connect(), admin.connect()])
  const join = async (): Promise<void> => {
    await consumer.subscribe({ topics: [options.topic], fromBeginning: false })
    // Membership is what counts; messages are skipped without work and nothing is committed.
    await consumer.run({ autoCommit: false, eachMessage: async () => undefined })
  }
  // A member stopped for good (seen when Kafka restarts) would leave the count one short until the next start.
  const restarts = restartWhenStoppedForGood(consumer, {
    groupId: options.groupId,
    logger: options.logger,
    start: join,
  })
  await join()
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
      restarts.stop()
      clearInterval(timer)
      await Promise.allSettled([consumer.disconnect(), admin.disconnect()])
    },
  }
}
