import { randomBytes, randomUUID } from 'node:crypto'
import type { Client, estypes } from '@elastic/elasticsearch'
import type { MemoryChanged, UserDataErased, UserErasureReceipt } from '@memory-service/contracts'
import type { EventProducer } from '@memory-service/log'
import type { Logger } from '@memory-service/engines'
import { MEMORIES_ALIAS, MEMORIES_TOPIC, MEMORY_SUBJECT } from '@memory-service/domain'
import type { MemoryExports, MemoryHistory, StoredMemory } from '@memory-service/read-models'
import { activeGraphGeneration, derivedFields } from '@memory-service/read-models'
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

/**
 * How long an erasure waits for the projectors to apply its memory deletions: within a common client timeout (30 s)
 * even with the rest of the request's work. After it the receipt says `partial`; the deletions are in the log and
 * applied anyway, and repeating the DELETE (idempotent) gives a fresh receipt.
 */
const projectionWaitMs = 20_000

/**
 * Erases everything of one user of an instance. First their data key: every record of theirs sealed in the log
 * (documents, turns, memories, compactions, their dead-lettered copies) is unreadable from then on, for every process
 * and every replay. Then through the log, so that replays and rebuilds erase too: each of
 * their memories gets a deletion event (carrying no personal content), which the projectors apply to Elasticsearch
 * and Neo4j; a UserDataErased event makes the persistence writer drop their turns and conversations and never store
 * an older turn of theirs again. The receipt counts what each store held and no longer holds.
 */
export function createUserErasure(deps: {
  elasticsearch: Client
  /** Holds the user's data key, which the erasure destroys first: every record sealed under it becomes unreadable. */
  keyring: Keyring
  neo4j: Neo4jStore
  producer: EventProducer
  conversations: ConversationStore
  /** The memories' histories: an erased user leaves none, not even of memories deleted before. */
  history: MemoryHistory
  /** The user's exports: they name the user and how the user's memories were chosen. */
  exports: Pick<MemoryExports, 'eraseUser'>
  logger: Logger
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())
  const owned = (instanceId: string, userId: string) => [
    { term: { instance_id: instanceId } },
    { term: { 'scope.user_id': userId } },
  ]

  async function memoriesOf(instanceId: string, userId: string): Promise<StoredMemory[]> {
    const found: StoredMemory[] = []
    let after: estypes.SortResults | undefined
    for (;;) {
      const page = await deps.elasticsearch.search<StoredMemory>({
        index: MEMORIES_ALIAS,
        size: 1000,
        sort: [{ id: 'asc' }],
        _source: { excludes: derivedFields },
        query: { bool: { filter: owned(instanceId, userId) } },
        ...(after ? { search_after: after } : {}),
      })
      const hits = page.hits.hits
      if (hits.length === 0) return found
      for (const hit of hits) if (hit._source) found.push(hit._source)
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

  type ErasedMemory = Pick<
    StoredMemory,
    'id' | 'instance_id' | 'type' | 'confidence' | 'scope' | 'source' | 'created_at' | 'mode' | 'version'
  > & { embedding_model: string }

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
        embedding: { model: memory.embedding_model, vector: [] },
      },
    }
  }

  return {
    async erase(instanceId: string, userId: string, correlationId: string): Promise<UserErasureReceipt> {
      const erasedAt = now().toISOString()
      // Counted before the event is appended: the persistence writer erases from the event too, and may be first.
      const conversationsBefore = await deps.conversations.ownedBy(instanceId, userId)
      const memories = await memoriesOf(instanceId, userId)
      const inGraphBefore = await countInGraph(instanceId, userId)
      const entityIds = new Set(memories.flatMap((memory) => memory.entity_ids))
      const erasedMemories: ErasedMemory[] = [
        ...memories,
        ...(await deletedBefore(instanceId, userId, new Set(memories.map((memory) => memory.id)))),
      ]
      // First the key: from here on no process can read anything of theirs in the log, whatever happens next.
      const keyDestroyed = await deps.keyring.destroy(instanceId, userId)
      const appendDeletions = async (doomed: ErasedMemory[]) => {
        for (let start = 0; start < doomed.length; start += 100) {
          await deps.producer.append(
            MEMORIES_TOPIC,
            doomed.slice(start, start + 100).map((memory) => ({
              key: memory.id,
              subject: MEMORY_SUBJECT,
              payload: deletionOf(memory, erasedAt),
              correlationId,
            })),
          )
        }
      }
      await appendDeletions(erasedMemories)
      const erased: UserDataErased = {
        type: 'user_data_erased',
        event_id: `evt_${randomBytes(16).toString('hex')}`,
        instance_id: instanceId,
        user_id: userId,
        erased_at: erasedAt,
      }
      await deps.producer.append(CONVERSATIONS_TOPIC, [
        {
          key: conversationKey(instanceId, `user:${userId}`),
          subject: USER_DATA_ERASED_SUBJECT,
          payload: erased,
          correlationId,
        },
      ])
      // The persistence writer does the same from the event; doing it here too means they are gone on return.
      const removedNow = await deps.conversations.eraseUser(erased)
      await deps.history.eraseUser(instanceId, userId)
      await deps.exports.eraseUser(instanceId, userId)
      const removedConversations = {
        turns: Math.max(conversationsBefore.turns, removedNow.turns),
        conversations: Math.max(conversationsBefore.conversations, removedNow.conversations),
      }

      // The projectors apply the memory deletions from the log; the receipt waits for them. A memory projected after
      // the first read (a document of theirs the pipeline was still turning into memories) gets its deletion too.
      let left = { elasticsearch: memories.length, neo4j: inGraphBefore }
      let seen = { elasticsearch: memories.length, neo4j: inGraphBefore }
      const known = new Set(erasedMemories.map((memory) => memory.id))
      for (const deadline = Date.now() + projectionWaitMs; Date.now() < deadline;) {
        left = {
          elasticsearch: await countInElasticsearch(instanceId, userId),
          neo4j: await countInGraph(instanceId, userId),
        }
        if (left.elasticsearch === 0 && left.neo4j === 0) break
        const late = (await memoriesOf(instanceId, userId)).filter((memory) => !known.has(memory.id))
        if (late.length > 0) {
          for (const memory of late) known.add(memory.id)
          erasedMemories.push(...late)
          for (const memory of late) for (const entityId of memory.entity_ids) entityIds.add(entityId)
          seen = { ...seen, elasticsearch: seen.elasticsearch + late.length }
          await appendDeletions(late)
        }
        seen = { ...seen, neo4j: Math.max(seen.neo4j, left.neo4j) }
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      const entities =
        entityIds.size > 0
          ? ((
              await deps.neo4j.write<{ deleted: number }>(deleteOrphanEntities, {
                instanceId,
                entityIds: [...entityIds],
              })
            )[0]?.deleted ?? 0)
          : 0
      const complete = left.elasticsearch === 0 && left.neo4j === 0
      deps.logger.info(
        {
          instanceId,
          memories: seen.elasticsearch,
          entities,
          ...removedConversations,
          keyDestroyed,
          complete,
          correlationId,
        },
        'user erased',
      )
      return {
        instance_id: instanceId,
        user_id: userId,
        status: complete ? 'completed' : 'partial',
        erased_at: erasedAt,
        completed_at: now().toISOString(),
        removed: {
          memories: {
            elasticsearch: Math.max(0, seen.elasticsearch - left.elasticsearch),
            neo4j: Math.max(0, seen.neo4j - left.neo4j),
          },
          entities: { neo4j: entities },
          conversations: { elasticsearch: removedConversations.conversations },
          turns: { elasticsearch: removedConversations.turns },
        },
        log: {
          memory_deletions: erasedMemories.length,
          erasure_event_id: erased.event_id,
          data_key_destroyed: keyDestroyed,
        },
      }
    },
  }
}

export type UserErasure = ReturnType<typeof createUserErasure>
