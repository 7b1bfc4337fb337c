import { hash } from 'node:crypto'
import type { Client } from '@elastic/elasticsearch'
import { deleteMatchingDocuments, distinctValuesOf, sourcesOf, totalHitsOf } from '@memory-service/engines'
import type {
  ConversationCompacted,
  ConversationEventRecorded,
  UserDataErased,
} from '@memory-service/contracts'
import type { Turn } from '@memory-service/domain'
import {
  CONVERSATION_TURNS_INDEX,
  CONVERSATIONS_INDEX,
  ERASURES_INDEX,
  storeIdOf,
} from '@memory-service/domain'

/** A turn's document id: event ids are unique within a conversation, not across conversations or instances. */
export function turnDocumentId(instanceId: string, conversationId: string, eventId: string): string {
  return hash('sha1', JSON.stringify([instanceId, conversationId, eventId]), 'base64url')
}

export interface StoredTurn extends Turn {
  event_id: string
  instance_id: string
  conversation_id: string
  user_id: string
  customer_id: string | null
  event_type: string
  received_at: string
}

export interface StoredConversation {
  instance_id: string
  conversation_id: string
  user_id: string
  customer_id: string | null
  summary: string
  compacted_through: number
  compacted_turns: number
  compactions: number
  compression_ratio: number
  validation_score: number
  compacted_at: string
  compaction_id: string
}

const turnsAfterQuery = (instanceId: string, conversationId: string, position: number) => ({
  bool: {
    filter: [
      { term: { instance_id: instanceId } },
      { term: { conversation_id: conversationId } },
      { range: { position: { gt: position } } },
      // Session events carry no role and no content (content is stored, not indexed).
      { exists: { field: 'role' } },
    ],
  },
})

const conversationDocumentId = storeIdOf

/** The most turns a context fetch or a compaction reads at once (a conversation beyond it is compacted first). */
const maxTurnsRead = 10_000

/**
 * Conversations in Elasticsearch: turns by event id (a replayed event rewrites the same document) and one document
 * per conversation with its summary, versioned by the position it reaches, so an older compaction arriving late
 * cannot replace a newer one.
 */
export function createConversationStore(client: Client) {
  const deleteMatching = (index: string, filter: object[]) => deleteMatchingDocuments(client, index, filter)
  /** Every conversation id among the turns matching a filter, however many. */
  const conversationIdsMatching = (filter: object[]) =>
    distinctValuesOf(client, CONVERSATION_TURNS_INDEX, filter, 'conversation_id')
  /** When the user was erased (null: never). */
  async function erasureOf(instanceId: string, userId: string): Promise<string | null> {
    const response = await client.get<{ erased_at: string }>(
      { index: ERASURES_INDEX, id: storeIdOf(instanceId, userId) },
      { ignore: [404] },
    )
    return response.found ? (response._source?.erased_at ?? null) : null
  }

  return {
    /**
     * Erases a user's conversations: the erasure is recorded first (so turns still on their way are not stored
     * after it), then their turns and conversation documents are deleted. Idempotent.
     */
    /** How many turns and conversation documents the user has now (after a refresh, so the latest count). */
    async ownedBy(instanceId: string, userId: string): Promise<{ turns: number; conversations: number }> {
      const owned = [{ term: { instance_id: instanceId } }, { term: { user_id: userId } }]
      await client.indices.refresh({ index: [CONVERSATION_TURNS_INDEX, CONVERSATIONS_INDEX] })
      const [turns, conversations] = await Promise.all(
        [CONVERSATION_TURNS_INDEX, CONVERSATIONS_INDEX].map(
          async (index) => (await client.count({ index, query: { bool: { filter: owned } } })).count,
        ),
      )
      return { turns: turns ?? 0, conversations: conversations ?? 0 }
    },

    async eraseUser(event: UserDataErased): Promise<{ turns: number; conversations: number }> {
      const owned = [{ term: { instance_id: event.instance_id } }, { term: { user_id: event.user_id } }]
      // A turn or a compaction indexed a moment ago is not searchable before a refresh; the erasure must see it.
      await client.indices.refresh({ index: [CONVERSATION_TURNS_INDEX, CONVERSATIONS_INDEX] })
      // Which conversations were theirs, so that those ids stay not found after the erasure.
      const conversationIds = await conversationIdsMatching(owned)
      const id = storeIdOf(event.instance_id, event.user_id)
      const previous = await client.get<{ conversation_ids?: string[] }>(
        { index: ERASURES_INDEX, id },
        { ignore: [404] },
      )
      await client.index({
        index: ERASURES_INDEX,
        id,
        document: {
          instance_id: event.instance_id,
          user_id: event.user_id,
          erased_at: event.erased_at,
          conversation_ids: [...new Set([...(previous._source?.conversation_ids ?? []), ...conversationIds])],
        },
        refresh: true,
      })
      const turns = await deleteMatching(CONVERSATION_TURNS_INDEX, owned)
      const conversations = await deleteMatching(CONVERSATIONS_INDEX, owned)
      return { turns, conversations }
    },

    async writeTurns(turns: { event: ConversationEventRecorded; position: number }[]): Promise<void> {
      if (turns.length === 0) return
      // Turns of an erased user received before the erasure are not stored (a replay of the log, a late delivery).
      const keys = [...new Set(turns.map(({ event }) => storeIdOf(event.instance_id, event.user_id)))]
      const { docs } = await client.mget<{ erased_at: string }>({ index: ERASURES_INDEX, ids: keys })
      const erasures = new Map(
        docs.flatMap((doc) =>
          'found' in doc && doc.found && doc._source ? [[doc._id, doc._source.erased_at]] : [],
        ),
      )
      turns = turns.filter(({ event }) => {
        const erased = erasures.get(storeIdOf(event.instance_id, event.user_id))
        return erased === undefined || event.received_at > erased
      })
      if (turns.length === 0) return
      // The first record of an event in the log wins: a later copy (a duplicate two gateways raced to append, or a
      // repeat older than the dedupe window) is not stored again, and a replay rewrites nothing.
      const response = await client.bulk({
        operations: turns.flatMap(({ event, position }) => [
          {
            create: {
              _index: CONVERSATION_TURNS_INDEX,
              _id: turnDocumentId(event.instance_id, event.conversation_id, event.event_id),
            },
          },
          {
            event_id: event.event_id,
            instance_id: event.instance_id,
            conversation_id: event.conversation_id,
            user_id: event.user_id,
            customer_id: event.customer_id,
            event_type: event.event_type,
            role: event.role,
            content: event.content,
            occurred_at: event.occurred_at,
            received_at: event.received_at,
            position,
          } satisfies Omit<StoredTurn, 'role' | 'content'> & { role: string | null; content: string | null },
        ]),
      })
      if (response.errors) {
        const failed = response.items.filter((item) => item.create?.error && item.create.status !== 409)
        if (failed.length > 0) throw new Error(`turns not stored: ${JSON.stringify(failed.slice(0, 3))}`)
      }
    },

    /** Applies a compaction; `false` when a compaction reaching as far or further was stored before. */
    async writeCompaction(event: ConversationCompacted): Promise<boolean> {
      const erased = await erasureOf(event.instance_id, event.user_id)
      if (erased !== null && event.occurred_at <= erased) return false
      const document: StoredConversation = {
        instance_id: event.instance_id,
        conversation_id: event.conversation_id,
        user_id: event.user_id,
        customer_id: event.customer_id,
        summary: event.summary,
        compacted_through: event.through_position,
        compacted_turns: event.compacted_turns,
        compactions: 0,
        compression_ratio: event.compression_ratio,
        validation_score: event.validation_score,
        compacted_at: event.occurred_at,
        compaction_id: event.compaction_id,
      }
      const previous = await this.conversation(event.instance_id, event.conversation_id)
      document.compactions =
        (previous?.compactions ?? 0) + (previous?.compaction_id === event.compaction_id ? 0 : 1)
      try {
        await client.index({
          index: CONVERSATIONS_INDEX,
          id: conversationDocumentId(event.instance_id, event.conversation_id),
          version: event.through_position + 1,
          version_type: 'external_gte',
          document,
        })
        return true
      } catch (error) {
        if ((error as { meta?: { statusCode?: number } }).meta?.statusCode === 409) return false
        throw error
      }
    },

    async conversation(instanceId: string, conversationId: string): Promise<StoredConversation | null> {
      const response = await client.get<StoredConversation>(
        { index: CONVERSATIONS_INDEX, id: conversationDocumentId(instanceId, conversationId) },
        { ignore: [404] },
      )
      return response.found ? (response._source ?? null) : null
    },

    /** Whether the conversation belonged to a user erased since (then it stays not found). */
    async purged(instanceId: string, conversationId: string): Promise<boolean> {
      const { count } = await client.count({
        index: ERASURES_INDEX,
        query: {
          bool: {
            filter: [{ term: { instance_id: instanceId } }, { term: { conversation_ids: conversationId } }],
          },
        },
      })
      return count > 0
    },

    /** Whether the conversation id holds turns of another instance or another user (then it is not theirs). */
    async belongsElsewhere(instanceId: string, conversationId: string, userId: string): Promise<boolean> {
      const response = await client.search({
        index: CONVERSATION_TURNS_INDEX,
        size: 0,
        track_total_hits: 1,
        query: {
          bool: {
            filter: [{ term: { conversation_id: conversationId } }],
            must_not: [
              { bool: { filter: [{ term: { instance_id: instanceId } }, { term: { user_id: userId } }] } },
            ],
          },
        },
      })
      return totalHitsOf(response.hits.total) > 0
    },

    /**
     * The newest turns after a position, oldest first, at most `limit` of them, and how many there are in all (a
     * context never holds more turns than a budget of 32 768 tokens can, so the rest is only counted).
     */
    async recentTurnsAfter(
      instanceId: string,
      conversationId: string,
      position: number,
      limit: number,
    ): Promise<{ turns: StoredTurn[]; total: number }> {
      const response = await client.search<StoredTurn>({
        index: CONVERSATION_TURNS_INDEX,
        size: limit,
        track_total_hits: true,
        sort: [{ position: 'desc' }],
        query: turnsAfterQuery(instanceId, conversationId, position),
      })
      return { turns: sourcesOf(response.hits.hits).reverse(), total: totalHitsOf(response.hits.total) }
    },

    /** Turns after a position, oldest first. */
    async turnsAfter(instanceId: string, conversationId: string, position: number): Promise<StoredTurn[]> {
      const response = await client.search<StoredTurn>({
        index: CONVERSATION_TURNS_INDEX,
        size: maxTurnsRead,
        sort: [{ position: 'asc' }],
        query: turnsAfterQuery(instanceId, conversationId, position),
      })
      return sourcesOf(response.hits.hits)
    },
  }
}

export type ConversationStore = ReturnType<typeof createConversationStore>
