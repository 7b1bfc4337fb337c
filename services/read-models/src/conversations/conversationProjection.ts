import type { ConsumedEvent } from '@memory-service/log'
import type {
  ConversationCompacted,
  ConversationEventRecorded,
  UserDataErased,
} from '@memory-service/contracts'
import type { ConversationStore } from './conversationStore.js'

/** A conversation that received turns, for the automatic compaction to look at. */
export interface GrownConversation {
  instanceId: string
  clientId: string
  conversationId: string
  userId: string
  /** Estimated tokens the batch added to it. */
  tokens: number
}

/**
 * The persistence writer the event acknowledgement promises: conversation turns into the turns index (by event id,
 * so a redelivered event rewrites itself; ordered by log position, which is per conversation since the topic is
 * keyed by conversation), and compactions into the conversation's document (versioned by the position they
 * reach); an erased user's turns and conversations are removed, and older turns of theirs are never stored again.
 * Conversations that grew are reported once written (automatic compaction).
 */
export function createConversationProjection(
  store: ConversationStore,
  onGrown?: (conversations: GrownConversation[]) => void,
) {
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
    if (!onGrown) return
    const grown = new Map<string, GrownConversation>()
    for (const { event } of turns) {
      if (!event.content) continue
      const key = `${event.instance_id}/${event.conversation_id}`
      const entry = grown.get(key) ?? {
        instanceId: event.instance_id,
        clientId: event.client_id,
        conversationId: event.conversation_id,
        userId: event.user_id,
        tokens: 0,
      }
      entry.tokens += Math.ceil(event.content.length / 4)
      grown.set(key, entry)
    }
    if (grown.size > 0) onGrown([...grown.values()])
  }
}

/**
 * Compacts conversations that outgrew their budget, without reading every conversation after every batch: a
 * conversation is looked at once the turns written since its last look add up to a quarter of its budget. One look
 * at a time per conversation and at most `maxConcurrent` in the process (compaction hands turns to extraction: a
 * fleet whose conversations all cross their budget at once must not starve the writer of turns); a compaction
 * already running elsewhere wins.
 */
export function createAutomaticCompaction(deps: {
  budgetOf: (instanceId: string) => number
  compactIfOverBudget: (
    scope: { instanceId: string; clientId: string },
    conversationId: string,
    userId: string,
    correlationId: string,
  ) => Promise<boolean>
  warn: (details: Record<string, unknown>, message: string) => void
  /** Turns are searchable after the index refresh (500 ms): the look waits longer than that after the write. */
  settleMs?: number
  /** Looks running at once. @default 2 */
  maxConcurrent?: number
  /** Runs `look` after `ms` (injected by tests). @default setTimeout, unref'd */
  schedule?: (look: () => void, ms: number) => void
}) {
  const maxConcurrent = deps.maxConcurrent ?? 2
  const schedule =
    deps.schedule ??
    ((look: () => void, ms: number) => {
      setTimeout(look, ms).unref()
    })
  const growth = new Map<string, number>()
  /** Conversations being looked at, waiting to settle or waiting for a slot. */
  const looking = new Set<string>()
  const ready: GrownConversation[] = []
  let running = 0
  let stopped = false
  const idleWaiters: (() => void)[] = []

  function pump(): void {
    if (stopped && running === 0) for (const resolve of idleWaiters.splice(0)) resolve()
    while (!stopped && running < maxConcurrent && ready.length > 0) {
      const conversation = ready.shift() as GrownConversation
      const key = `${conversation.instanceId}/${conversation.conversationId}`
      running += 1
      deps
        .compactIfOverBudget(
          { instanceId: conversation.instanceId, clientId: conversation.clientId },
          conversation.conversationId,
          conversation.userId,
          `automatic-compaction-${conversation.conversationId}`,
        )
        .catch((error: unknown) => {
          if ((error as { code?: string }).code !== 'COMPACTION_IN_PROGRESS')
            deps.warn(
              { err: error, conversationId: conversation.conversationId },
              'automatic compaction failed',
            )
        })
        .finally(() => {
          running -= 1
          looking.delete(key)
          pump()
        })
    }
  }

  return {
    /** Reports conversations the writer just wrote turns to. */
    grown(conversations: GrownConversation[]): void {
      if (stopped) return
      for (const conversation of conversations) {
        const key = `${conversation.instanceId}/${conversation.conversationId}`
        const total = (growth.get(key) ?? 0) + conversation.tokens
        if (total < deps.budgetOf(conversation.instanceId) / 4 || looking.has(key)) {
          growth.set(key, total)
          continue
        }
        growth.delete(key)
        looking.add(key)
        schedule(() => {
          ready.push(conversation)
          pump()
        }, deps.settleMs ?? 1500)
      }
    },
    /** Starts nothing more; resolves once the compactions running now have finished. */
    stop(): Promise<void> {
      stopped = true
      ready.length = 0
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        pump()
      })
    },
  }
}
