import { randomBytes, randomUUID } from 'node:crypto'
import type { Client, estypes } from '@elastic/elasticsearch'
import type { MemoryChanged, UserDataErased, UserErasureReceipt } from '@memory-service/contracts'
import type { EventProducer } from '@memory-service/log'
import type { Logger } from '@memory-service/engines'
import { MEMORIES_ALIAS, MEMORIES_TOPIC, MEMORY_SUBJECT } from '@memory-service/domain'
import type { ErasureReceipts, MemoryExports, MemoryHistory, StoredMemory } from '@memory-service/read-models'
import { activeGraphGeneration } from '@memory-service/read-models'
import type { Keyring, Neo4jStore } from '@memory-service/engines'
import { conversationKey } from '@memory-service/domain'
import type { ConversationStore } from '@memory-service/read-models'
import { readContractSchema } from '@memory-service/contracts/files'
import { CONVERSATIONS_TOPIC } from '@memory-service/domain'

export const USER_DATA_ERASED_SUBJECT = `${CONVERSATIONS_TOPIC}-UserDataErased.v1`
export const userDataErasedSchema = readContractSchema('events/UserDataErased.v1.schema.json')

const graphMemoriesOfUser = `
${activeGraphGeneration}
MATCH (memory:Memory {generation: generation, instance_id: $instanceId, user_id: $userId})
RETURN count(memory) AS memories`

// Entities the erased memories mentioned that no memory mentions any more.
const deleteOrphanEntities = `
${activeGraphGeneration}
MATCH (entity:Entity {generation: generation, instance_id: $instanceId})
WHERE entity.entity_id IN $entityIds AND NOT (entity)<-[:MENTIONS]-(:Memory)
DETACH DELETE entity
RETURN count(*) AS deleted`

/** Memories read, and deletions appended, per page: bounded memory whatever the user's history. */
const pageSize = 1000
const appendChunk = 500
const entityChunk = 5000
/** How often the job looks whether the projectors have applied its deletions. */
const projectionPollMs = 500
/** How often, meanwhile, it looks for memories of the user projected after its scan (documents in flight). */
const lateScanMs = 5_000

const owned = (instanceId: string, userId: string) => [
  { term: { instance_id: instanceId } },
  { term: { 'scope.user_id': userId } },
]

/** What a memory's deletion event is made of: its identity and version, none of its content. */
type ErasedMemory = Pick<
  StoredMemory,
  'id' | 'instance_id' | 'type' | 'confidence' | 'scope' | 'source' | 'created_at' | 'mode' | 'version'
> & { embedding_model: string; entity_ids?: string[] }

const erasedFields = [
  'id',
  'instance_id',
  'type',
  'confidence',
  'scope',
  'source',
  'created_at',
  'mode',
  'version',
  'entity_ids',
  'embedding_model',
]

const emptyRemoved = (): UserErasureReceipt['removed'] => ({
  memories: { elasticsearch: 0, neo4j: 0 },
  entities: { neo4j: 0 },
  conversations: { elasticsearch: 0 },
  turns: { elasticsearch: 0 },
})

/**
 * Erasing a user, the request's part: what must hold at once. First their data key: every record of theirs sealed
 * in the log (documents, turns, memories, compactions, their dead-lettered copies) is unreadable from then on, for
 * every process and every replay. Then the erasure event in the log and its receipt, `running`; the erasure job
 * (`createErasureJob`, in the projectors) removes their data from the read models from that event. The answer never
 * waits on the size of the user's history.
 */
export function createUserErasure(deps: {
  /** Holds the user's data key, which the erasure destroys first: every record sealed under it becomes unreadable. */
  keyring: Keyring
  producer: EventProducer
  conversations: ConversationStore
  receipts: ErasureReceipts
  logger: Logger
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())
  return {
    async erase(instanceId: string, userId: string, correlationId: string): Promise<UserErasureReceipt> {
      const erasedAt = now().toISOString()
      // Counted before the event is appended: the persistence writer erases them from the event, and may be first.
      const found = await deps.conversations.ownedBy(instanceId, userId)
      // From here on no process can read anything of theirs in the log, whatever happens next.
      const keyDestroyed = await deps.keyring.destroy(instanceId, userId)
      const erased: UserDataErased = {
        type: 'user_data_erased',
        event_id: `evt_${randomBytes(16).toString('hex')}`,
        instance_id: instanceId,
        user_id: userId,
        erased_at: erasedAt,
      }
      const receipt: UserErasureReceipt = {
        receipt_id: erased.event_id,
        instance_id: instanceId,
        user_id: userId,
        status: 'running',
        erased_at: erasedAt,
        completed_at: null,
        removed: emptyRemoved(),
        log: { memory_deletions: 0, erasure_event_id: erased.event_id, data_key_destroyed: keyDestroyed },
      }
      // The receipt before the event: the job, which may start at once, finds it and completes it.
      await deps.receipts.save({ receipt, found })
      await deps.producer.append(CONVERSATIONS_TOPIC, [
        {
          key: conversationKey(instanceId, `user:${userId}`),
          subject: USER_DATA_ERASED_SUBJECT,
          payload: erased,
          correlationId,
        },
      ])
      deps.logger.info(
        { instanceId, receiptId: receipt.receipt_id, keyDestroyed, correlationId },
        'user erasure accepted',
      )
      return receipt
    },

    /** The instance's erasure receipt, or null. */
    async receipt(instanceId: string, receiptId: string): Promise<UserErasureReceipt | null> {
      return (await deps.receipts.get(instanceId, receiptId))?.receipt ?? null
    },
  }
}

export type UserErasure = ReturnType<typeof createUserErasure>

/**
 * Erasing a user, the job's part, from their erasure event: through the log, so that replays and rebuilds erase too.
 * Each of their memories gets a deletion event (carrying no personal content), which the projectors apply to
 * Elasticsearch and Neo4j; their turns, conversations, histories and exports are removed; the job waits until the
 * projections hold nothing of theirs, removes the entities only they mentioned and completes the receipt. Run again
 * on the same event (a crash before its offset was committed), it finds what is left and finishes it.
 */
export function createErasureJob(deps: {
  elasticsearch: Client
  neo4j: Neo4jStore
  producer: EventProducer
  conversations: ConversationStore
  /** The memories' histories: an erased user leaves none, not even of memories deleted before. */
  history: MemoryHistory
  /** The user's exports: they name the user and how the user's memories were chosen. */
  exports: Pick<MemoryExports, 'eraseUser'>
  receipts: ErasureReceipts
  logger: Logger
  now?: () => Date
  sleep?: (ms: number) => Promise<void>
}) {
  const now = deps.now ?? (() => new Date())
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))

  /** The user's memories in the projection, a page at a time, with what their deletion events need. */
  async function* memoriesOf(instanceId: string, userId: string): AsyncGenerator<ErasedMemory[]> {
    let after: estypes.SortResults | undefined
    for (;;) {
      const page = await deps.elasticsearch.search<ErasedMemory>({
        index: MEMORIES_ALIAS,
        size: pageSize,
        sort: [{ id: 'asc' }],
        _source: { includes: erasedFields },
        query: { bool: { filter: owned(instanceId, userId) } },
        ...(after ? { search_after: after } : {}),
      })
      const hits = page.hits.hits
      if (hits.length === 0) return
      yield hits.flatMap((hit) => (hit._source ? [hit._source] : []))
      after = hits[hits.length - 1]?.sort
    }
  }

  const countInElasticsearch = async (instanceId: string, userId: string) =>
    (
      await deps.elasticsearch.count({
        index: MEMORIES_ALIAS,
        query: { bool: { filter: owned(instanceId, userId) } },
      })
    ).count
  const countInGraph = async (instanceId: string, userId: string) =>
    (await deps.neo4j.read<{ memories: number }>(graphMemoriesOfUser, { instanceId, userId }))[0]?.memories ??
    0

  /**
   * A memory deleted before the erasure, known only from its history: erased through the log as well, so that a
   * replay of its earlier events cannot bring its history back.
   */
  async function deletedBefore(
    instanceId: string,
    userId: string,
    stored: Set<string>,
  ): Promise<ErasedMemory[]> {
    const ids = (await deps.history.memoryIdsOfUser(instanceId, userId)).filter((id) => !stored.has(id))
    const erased: ErasedMemory[] = []
    for (const id of ids) {
      const changes = await deps.history.of(instanceId, id)
      const last = changes[changes.length - 1]
      if (!last || last.cause?.kind === 'erasure') continue
      erased.push({
        id,
        instance_id: instanceId,
        type: 'fact',
        confidence: 0,
        scope: { user_id: last.user_id, customer_id: last.customer_id, client_id: '' },
        source: { ingestion_id: '', document_type: 'erased', document_created_at: last.changed_at },
        created_at: changes[0]?.changed_at ?? last.changed_at,
        mode: 'fast',
        version: last.version,
        embedding_model: 'erased',
      })
    }
    return erased
  }

  /**
   * The deletion event of a memory: its identity and version, none of its content, and no user: nothing in it is
   * sealed, so the projectors read it after the user's key is gone (and a new key is not made for it).
   */
  function deletionOf(memory: ErasedMemory, changedAt: string): MemoryChanged {
    return {
      type: 'memory_changed',
      change: 'deleted',
      event_id: randomUUID(),
      memory_id: memory.id,
      instance_id: memory.instance_id,
      version: memory.version + 1,
      changed_at: changedAt,
      cause: { kind: 'erasure' },
      memory: {
        id: memory.id,
        instance_id: memory.instance_id,
        type: memory.type,
        content: '[erased]',
        confidence: memory.confidence,
        entities: [],
        relations: [],
        scope: { ...memory.scope, user_id: null },
        source: memory.source,
        metadata: {},
        created_at: memory.created_at,
        updated_at: changedAt,
        occurred_on: null,
        speaker: null,
        mode: memory.mode,
        embedding: { model: memory.embedding_model || 'erased', vector: [] },
      },
    }
  }

  async function appendDeletions(doomed: ErasedMemory[], erasedAt: string, correlationId: string) {
    for (let start = 0; start < doomed.length; start += appendChunk) {
      await deps.producer.append(
        MEMORIES_TOPIC,
        doomed.slice(start, start + appendChunk).map((memory) => ({
          key: memory.id,
          subject: MEMORY_SUBJECT,
          payload: deletionOf(memory, erasedAt),
          correlationId,
        })),
      )
    }
  }

  async function deleteOrphans(instanceId: string, entityIds: string[]): Promise<number> {
    let deleted = 0
    for (let start = 0; start < entityIds.length; start += entityChunk) {
      deleted +=
        (
          await deps.neo4j.write<{ deleted: number }>(deleteOrphanEntities, {
            instanceId,
            entityIds: entityIds.slice(start, start + entityChunk),
          })
        )[0]?.deleted ?? 0
    }
    return deleted
  }

  return {
    async complete(event: UserDataErased, correlationId: string): Promise<UserErasureReceipt> {
      const { instance_id: instanceId, user_id: userId, erased_at: erasedAt } = event
      const log = deps.logger.child({ instanceId, receiptId: event.event_id, correlationId })
      const record = await deps.receipts.get(instanceId, event.event_id)
      if (record?.receipt.status === 'completed') return record.receipt
      const found = record?.found ?? { turns: 0, conversations: 0 }
      const inGraphBefore = await countInGraph(instanceId, userId)

      const known = new Set<string>()
      const entityIds = new Set<string>()
      let deletions = 0
      const scan = async () => {
        let fresh = 0
        for await (const page of memoriesOf(instanceId, userId)) {
          const late = page.filter((memory) => !known.has(memory.id))
          for (const memory of late) {
            known.add(memory.id)
            for (const entityId of memory.entity_ids ?? []) entityIds.add(entityId)
          }
          await appendDeletions(late, erasedAt, correlationId)
          deletions += late.length
          fresh += late.length
        }
        return fresh
      }
      const inElasticsearch = await scan()
      const before = await deletedBefore(instanceId, userId, known)
      await appendDeletions(before, erasedAt, correlationId)
      deletions += before.length

      // The persistence writer does the same from the event; the job does it too so that the receipt can count it.
      const removedNow = await deps.conversations.eraseUser(event)
      await deps.history.eraseUser(instanceId, userId)
      await deps.exports.eraseUser(instanceId, userId)

      // The projectors apply the deletions from the log; the job waits for them. A memory projected after the scan (a
      // document of theirs the pipeline was still turning into memories) gets its deletion too.
      let seenInElasticsearch = inElasticsearch
      let seenInGraph = inGraphBefore
      let lastScan = Date.now()
      for (;;) {
        const left = {
          elasticsearch: await countInElasticsearch(instanceId, userId),
          neo4j: await countInGraph(instanceId, userId),
        }
        if (left.elasticsearch === 0 && left.neo4j === 0) break
        seenInGraph = Math.max(seenInGraph, left.neo4j)
        if (Date.now() - lastScan >= lateScanMs) {
          seenInElasticsearch += await scan()
          lastScan = Date.now()
        }
        await sleep(projectionPollMs)
      }
      const receipt: UserErasureReceipt = {
        receipt_id: event.event_id,
        instance_id: instanceId,
        user_id: userId,
        status: 'completed',
        erased_at: erasedAt,
        completed_at: now().toISOString(),
        removed: {
          memories: { elasticsearch: seenInElasticsearch, neo4j: seenInGraph },
          entities: { neo4j: await deleteOrphans(instanceId, [...entityIds]) },
          conversations: { elasticsearch: Math.max(found.conversations, removedNow.conversations) },
          turns: { elasticsearch: Math.max(found.turns, removedNow.turns) },
        },
        log: {
          memory_deletions: deletions,
          erasure_event_id: event.event_id,
          data_key_destroyed: record?.receipt.log.data_key_destroyed ?? false,
        },
      }
      await deps.receipts.save({ receipt, found })
      log.info(
        { memories: seenInElasticsearch, entities: receipt.removed.entities.neo4j, deletions },
        'user erased',
      )
      return receipt
    },
  }
}

export type ErasureJob = ReturnType<typeof createErasureJob>
