import type { UserDataErased } from '@memory-service/contracts'
import { CONVERSATIONS_TOPIC, serviceConsumerGroups } from '@memory-service/domain'
import type { Engines, Logger } from '@memory-service/engines'
import { createEventConsumer, type EventProducer } from '@memory-service/log'
import { createErasureJob } from '@memory-service/commands'
import {
  createConversationStore,
  createErasureReceipts,
  createMemoryExports,
  createMemoryHistory,
  createMemoryStore,
} from '@memory-service/read-models'

const isErasure = (payload: { type?: string }): payload is UserDataErased =>
  payload.type === 'user_data_erased'

/**
 * The erasure job in the projectors process: its own consumer group over the conversations topic, where
 * DELETE /v1/users/{user_id} appends each erasure. Each erasure event is handled to the end (every memory's
 * deletion appended and applied, the receipt completed) before its offset is committed, so a crash resumes it.
 * Partitions are handled side by side: one large erasure holds only the erasures behind it in its partition.
 */
export async function startErasures(options: {
  engines: Engines
  producer: EventProducer
  logger: Logger
  groupPrefix?: string
}): Promise<{ close(): Promise<void> }> {
  const { engines } = options
  const logger = options.logger.child({ component: 'erasures' })
  const history = createMemoryHistory(engines.elasticsearch)
  const job = createErasureJob({
    elasticsearch: engines.elasticsearch,
    neo4j: engines.neo4j,
    producer: options.producer,
    conversations: createConversationStore(engines.elasticsearch),
    history,
    exports: createMemoryExports(engines.elasticsearch, { store: createMemoryStore(engines.elasticsearch), history }),
    receipts: createErasureReceipts(engines.elasticsearch),
    logger,
  })
  // From the beginning: an erasure appended while a new group joins must not be missed; a completed one is not
  // redone (its receipt says so), and one from before receipts existed finds nothing left to remove.
  const consumer = await createEventConsumer<{ type?: string }>({
    kafka: engines.kafka,
    codec: engines.schemaCodec,
    logger,
    groupId: `${options.groupPrefix ?? ''}${serviceConsumerGroups.erasures}`,
    topics: [CONVERSATIONS_TOPIC],
    fromBeginning: true,
    partitionsConsumedConcurrently: 3,
    // The topic's other records (compactions) are not this job's: one it cannot read (sealed under an erased user's
    // key) is passed over; the conversations projection dead-letters it.
    onUndecodable: async (record, error) => {
      logger.debug({ topic: record.topic, offset: record.offset, err: error }, 'record passed over')
    },
    handle: async (event, log) => {
      if (!isErasure(event.payload)) return
      const receipt = await job.complete(event.payload, event.correlationId ?? event.payload.event_id)
      log.debug({ receiptId: receipt.receipt_id }, 'erasure completed')
    },
  })
  return consumer
}
