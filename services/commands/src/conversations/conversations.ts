import { createHash } from 'node:crypto'
import type {
  ConversationContext,
  Memory,
  TranscriptAccepted,
  TranscriptRequest,
} from '@memory-service/contracts'
import type { ArchitectureConfig } from '@memory-service/domain'
import type { DocumentIngestor } from '../documents/createDocumentIngestor.js'
import { AppError } from '@memory-service/domain'
import type { ClaimStore } from '../idempotency/createClaimStore.js'
import type { EventProducer } from '@memory-service/log'
import type { OutgoingEvent } from '@memory-service/domain'
import type { Logger } from '@memory-service/engines'
import { publicMemoryOf } from '@memory-service/domain'
import type { MemorySearch } from '@memory-service/read-models'
import { fitContext } from '@memory-service/domain'
import { createCompactor, type ConversationScope } from './compactor.js'
import { externalIdPattern, notFound } from '@memory-service/domain'
import type { ConversationStore, StoredTurn } from '@memory-service/read-models'
import type { EventRecorder } from '@memory-service/log'
import type { Summarizer } from '@memory-service/engines'

export {
  CONVERSATIONS_TOPIC,
  CONVERSATION_COMPACTED_SUBJECT,
  conversationCompactedSchema,
} from '@memory-service/domain'

/** Newest uncompacted turns a context fetch reads; more cannot fit the largest budget with any useful content. */
const maxTurnsInContext = 1000

const eventTypeOfRole = {
  user: 'user_message',
  assistant: 'assistant_message',
  system: 'system_message',
  tool: 'tool_message',
} as const

export type { ConversationScope } from './compactor.js'

export interface ConversationDependencies {
  store: ConversationStore
  events: EventRecorder
  claims: ClaimStore
  producer: EventProducer
  documents: DocumentIngestor
  search: MemorySearch
  /** The instance's active configuration (budget, extraction mode). */
  configOf: (instanceId: string) => ArchitectureConfig
  recordUsage: (events: OutgoingEvent[]) => void
  /** The configured language model; without one (or when it fails) compaction summarizes extractively. */
  summarizer?: Summarizer
  logger: Logger
  now?: () => Date
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits))

/**
 * Conversations as agents use them: whole transcripts, context fetches fitted to a token budget, and compaction
 * of the older turns into a summary whose turns then go to memory extraction.
 */
export function createConversations(deps: ConversationDependencies) {
  const log = deps.logger.child({ component: 'conversations' })
  const compactor = createCompactor(deps)
  const { measured, compact } = compactor

  return {
    /**
     * A whole conversation at once, recorded as its turns (ids derived from the conversation and the turn number).
     * The transcript's fingerprint is claimed under the conversation id: the same transcript again is a duplicate,
     * another one a conflict.
     */
    async ingestTranscript(
      scope: ConversationScope,
      conversationId: string,
      request: TranscriptRequest,
      correlationId: string,
    ): Promise<TranscriptAccepted> {
      if (!externalIdPattern.test(conversationId)) throw notFound(conversationId)
      const fingerprint = createHash('sha256')
        .update(
          JSON.stringify({
            user_id: request.user_id,
            customer_id: request.customer_id ?? null,
            messages: request.messages.map((m) => [m.role, m.content, m.occurred_at ?? null]),
            metadata: request.metadata ?? {},
          }),
        )
        .digest('hex')
      const [claimed] = await deps.claims.claim([
        {
          instance_id: scope.instanceId,
          kind: 'transcript',
          client_id: conversationId,
          record_id: fingerprint,
        },
      ])
      if (!claimed) throw new Error('no claim outcome')
      const answer = (status: TranscriptAccepted['status']): TranscriptAccepted => ({
        conversation_id: conversationId,
        status,
        messages: request.messages.length,
      })
      if (claimed.outcome === 'duplicate') {
        if (claimed.claim.record_id === fingerprint) return answer('duplicate')
        throw new AppError(
          'TRANSCRIPT_CONFLICT',
          'A different transcript was already ingested for this conversation; a transcript is immutable',
          {
            code: 'transcript_conflict',
            message: 'conversation_id was ingested with a different transcript',
            conversation_id: conversationId,
          },
        )
      }
      const idPrefix = `tr.${createHash('sha256').update(`${scope.instanceId}/${conversationId}`).digest('hex').slice(0, 32)}`
      try {
        const recorded = await deps.events.record(
          scope,
          request.messages.map((message, index) => ({
            event_id: `${idPrefix}.${String(index)}`,
            event_type: eventTypeOfRole[message.role],
            conversation_id: conversationId,
            user_id: request.user_id,
            ...(request.customer_id ? { customer_id: request.customer_id } : {}),
            role: message.role,
            content: message.content,
            ...(message.occurred_at ? { occurred_at: message.occurred_at } : {}),
            metadata: { ...(request.metadata ?? {}), transcript: true },
          })),
          correlationId,
        )
        if (recorded.rejected > 0)
          throw new Error(`transcript turns rejected: ${JSON.stringify(recorded.results)}`)
      } catch (error) {
        await deps.claims.release([claimed.claim])
        throw error
      }
      await deps.claims.confirm([claimed.claim])
      return answer('accepted')
    },

    async context(
      scope: ConversationScope,
      conversationId: string,
      query: { user_id: string; customer_id?: string; query?: string; max_tokens?: number },
      correlationId: string,
    ): Promise<ConversationContext> {
      const started = performance.now()
      if (!externalIdPattern.test(conversationId)) throw notFound(conversationId)
      const config = deps.configOf(scope.instanceId)
      const budget = query.max_tokens ?? config.retrieval.context_budget
      const searchFor = (question: string) =>
        deps.search.search(scope.instanceId, {
          query: question.slice(0, 2000),
          user_id: query.user_id,
          ...(query.customer_id ? { customer_id: query.customer_id } : {}),
          limit: config.retrieval.max_results,
          mode: 'fast',
          graph: config.retrieval.graph_queries && config.storage.graph.enabled,
        })
      // One round of reads: whose the conversation is, its summary, its newest turns (and the memories, when the
      // question is given; otherwise the last user turn is the question).
      const [elsewhere, purged, conversation, searched] = await Promise.all([
        deps.store.belongsElsewhere(scope.instanceId, conversationId, query.user_id),
        deps.store.purged(scope.instanceId, conversationId),
        deps.store.conversation(scope.instanceId, conversationId),
        query.query ? searchFor(query.query) : undefined,
      ])
      if (elsewhere || purged) throw notFound(conversationId)
      const recent = await deps.store.recentTurnsAfter(
        scope.instanceId,
        conversationId,
        conversation?.compacted_through ?? -1,
        maxTurnsInContext,
      )
      const turns = recent.turns
      const lastUserTurn = turns.filter((turn) => turn.role === 'user').at(-1)?.content
      const found = searched ?? (lastUserTurn ? await searchFor(lastUserTurn) : { hits: [] })
      const fitted = fitContext<Memory & { score: number }>({
        summary: conversation?.summary ?? null,
        turns,
        memories: found.hits.map(({ memory, score }) => ({
          memory: { ...publicMemoryOf(memory), score },
          text: memory.content,
        })),
        budget,
      })
      const tookMs = round(performance.now() - started)
      measured(scope.instanceId, 'context_fetch', tookMs, correlationId, { user_id: query.user_id })
      if (fitted.omittedTurns > 0 || recent.total > turns.length) {
        // The conversation outgrew the budget: it is compacted in the background, keeping the turns that fit, so
        // the next fetch gets the rest as summary (and extraction gets the older turns). One already running wins.
        compact(
          scope,
          conversationId,
          { user_id: query.user_id, keep_recent: fitted.turns.length },
          correlationId,
        )
          .then((outcome) => log.info({ conversationId, status: outcome.status }, 'automatic compaction'))
          .catch((error: unknown) => {
            if ((error as { code?: string }).code !== 'COMPACTION_IN_PROGRESS')
              log.warn({ err: error, conversationId }, 'automatic compaction failed')
          })
      }
      return {
        conversation_id: conversationId,
        summary:
          conversation && fitted.summary !== null
            ? {
                text: conversation.summary,
                compacted_turns: conversation.compacted_turns,
                compression_ratio: conversation.compression_ratio,
                validation_score: conversation.validation_score,
                compacted_at: conversation.compacted_at,
              }
            : null,
        recent_turns: fitted.turns.map((turn) => ({
          role: turn.role,
          content: turn.content,
          occurred_at: turn.occurred_at,
        })),
        memories: fitted.memories,
        token_budget: budget,
        tokens_used: fitted.tokensUsed,
        omitted_turns: fitted.omittedTurns + (recent.total - turns.length),
        took_ms: tookMs,
      }
    },

    compact,
  }
}

export type Conversations = ReturnType<typeof createConversations>
export type { StoredTurn }

export { createLlmSummarizer, type Summarizer } from '@memory-service/engines'
