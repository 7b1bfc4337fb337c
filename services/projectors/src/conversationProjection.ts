import type {
  ConsumedEvent,
  ConversationCompacted,
  ConversationEventRecorded,
  ConversationStore,
  UserDataErased,
} from '@memory-service/shared'

/**
 * The persistence writer the event acknowledgement promises: conversation turns into the turns index (by event id,
 * so a redelivered event rewrites itself; ordered by log position, which is per conversation since the topic is
 * keyed by conversation), and compactions into the conversation's document (versioned by the position they reach); an erased user's
 * turns and conversations are removed, and older turns of theirs are never stored again.
 */
export function createConversationProjection(store: ConversationStore) {
  return async (
    events: ConsumedEvent<ConversationEventRecorded | ConversationCompacted | UserDataErased>[],
  ): Promise<void> => {
    const turns = events.flatMap(({ payload, offset }) =>
      payload.type === 'conversation_event_recorded' ? [{ event: payload, position: Number(offset) }] : [],
    )
    await store.writeTurns(turns)
    for (const { payload } of events) {
      if (payload.type === 'conversation_compacted') await store.writeCompaction(payload)
      if (payload.type === 'user_data_erased') await store.eraseUser(payload)
    }
  }
}
