import { createHash, randomBytes } from 'node:crypto'
import type {
  Compaction,
  ConversationCompacted,
  ConversationContext,
  Memory,
  TranscriptAccepted,
  TranscriptRequest,
} from '../contracts/generated/index.js'
import type { ArchitectureConfig } from '../configs/architectureConfig.js'
import type { DocumentIngestor } from '../documents/createDocumentIngestor.js'
import { AppError } from '../errors/appError.js'
import type { ClaimStore } from '../idempotency/createClaimStore.js'
import type { EventProducer, OutgoingEvent } from '../kafka/eventProducer.js'
import type { Logger } from '../logging/createLogger.js'
import { publicMemoryOf } from '../memories/memories.js'
import type { MemorySearch } from '../search/memorySearch.js'
import { readContractSchema } from '../contracts/schemaFiles.js'
import { usageEvent } from '../usage/usageEvents.js'
import {
  contextShares,
  fitContext,
  measureSummary,
  summarizeExtractively,
  transcriptOf,
  type CompactedSummary,
} from './compaction.js'
import type { Summarizer } from './llmSummarizer.js'
import { conversationKey } from './conversationEvents.js'
import type { EventRecorder } from './createEventRecorder.js'
import type { ConversationStore, StoredTurn } from './conversationStore.js'

export const CONVERSATIONS_TOPIC = 'mem.conversations.v1'
export const CONVERSATION_COMPACTED_SUBJECT = `${CONVERSATIONS_TOPIC}-value`
export const conversationCompactedSchema = readContractSchema('events/ConversationCompacted.v1.schema.json')

/** Newest uncompacted turns a context fetch reads; more cannot fit the largest budget with any useful content. */
const maxTurnsInContext = 1000

const conversationIdPattern = /^[A-Za-z0-9._:@-]{1,200}$/
const eventTypeOfRole = {
  user: 'user_message',
  assistant: 'assistant_message',
  system: 'system_message',
  tool: 'tool_message',
} as const

export interface ConversationScope {
  instanceId: string
  clientId: string
}

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

const notFound = (conversationId: string) =>
  new AppError('CONVERSATION_NOT_FOUND', 'Conversation not found', { conversation_id: conversationId })

const round = (value: number, digits = 2) => Number(value.toFixed(digits))

/**
 * Conversations as agents use them: whole transcripts, context fetches fitted to a token budget, and compaction
 * of the older turns into a summary whose turns then go to memory extraction.
 */
export function createConversations(deps: ConversationDependencies) {
  const now = deps.now ?? (() => new Date())
  const log = deps.logger.child({ component: 'conversations' })

  /** A malformed id, or one whose turns belong to another instance or user, is not found (never told apart). */
  async function requireOwn(instanceId: string, conversationId: string, userId: string): Promise<void> {
    if (!conversationIdPattern.test(conversationId)) throw notFound(conversationId)
    const [elsewhere, purged] = await Promise.all([
      deps.store.belongsElsewhere(instanceId, conversationId, userId),
      deps.store.purged(instanceId, conversationId),
    ])
    if (elsewhere || purged) throw notFound(conversationId)
  }

  const measured = (
    instanceId: string,
    metric: 'context_fetch' | 'context_compact',
    latencyMs: number,
    correlationId: string,
    dimensions: Record<string, string>,
    compaction?: { compression_ratio: number; validation_score: number },
  ) =>
    deps.recordUsage([
      usageEvent(
        {
          instanceId,
          metric,
          value: 1,
          measuredBy: `${metric}:${randomBytes(12).toString('hex')}`,
          occurredAt: now().toISOString(),
          latencyMs: round(latencyMs, 3),
          dimensions,
          ...(compaction ? { compaction } : {}),
        },
        correlationId,
      ),
    ])

  async function compact(
    scope: ConversationScope,
    conversationId: string,
    request: { user_id: string; keep_recent?: number },
    correlationId: string,
  ): Promise<Compaction> {
    const started = performance.now()
    await requireOwn(scope.instanceId, conversationId, request.user_id)
    const compactionId = `cmp_${randomBytes(16).toString('hex')}`
    const [lock] = await deps.claims.claim([
      {
        instance_id: scope.instanceId,
        kind: 'compaction',
        client_id: conversationId,
        record_id: compactionId,
      },
    ])
    if (lock?.outcome !== 'claimed') {
      throw new AppError('COMPACTION_IN_PROGRESS', 'A compaction of this conversation is already running', {
        conversation_id: conversationId,
        compaction_id: lock?.claim.record_id ?? null,
        started_at: lock?.claim.claimed_at ?? null,
      })
    }
    try {
      const previous = await deps.store.conversation(scope.instanceId, conversationId)
      const pending = await deps.store.turnsAfter(
        scope.instanceId,
        conversationId,
        previous?.compacted_through ?? -1,
      )
      const keepRecent = request.keep_recent ?? 6
      const span = pending.slice(0, Math.max(pending.length - keepRecent, 0))
      const last = span.at(-1)
      const tookMs = () => round(performance.now() - started)
      if (!last) {
        return {
          conversation_id: conversationId,
          status: 'nothing_to_compact',
          compaction_id: null,
          compacted_turns: 0,
          summary: previous?.summary ?? null,
          compression_ratio: null,
          validation_score: null,
          method: null,
          ingestion_id: null,
          took_ms: tookMs(),
        }
      }
      const config = deps.configOf(scope.instanceId)
      const summaryRequest = {
        previousSummary: previous?.summary ?? null,
        turns: span,
        // The summary's share of the budget; the rest is for memories and recent turns.
        maxTokens: Math.floor(config.retrieval.context_budget * contextShares.summary),
      }
      let summarized: CompactedSummary | undefined
      let method: 'llm' | 'extractive' = 'extractive'
      if (deps.summarizer) {
        try {
          const written = await deps.summarizer(summaryRequest)
          summarized = measureSummary({ ...summaryRequest, summary: written.summary })
          method = 'llm'
          deps.recordUsage(
            (
              [
                ['llm_input_tokens', written.inputTokens],
                ['llm_output_tokens', written.outputTokens],
              ] as const
            ).map(([metric, value]) =>
              usageEvent(
                {
                  instanceId: scope.instanceId,
                  metric,
                  value,
                  measuredBy: `compaction:${compactionId}`,
                  occurredAt: now().toISOString(),
                  dimensions: { user_id: request.user_id, operation: 'compaction', model: written.model },
                },
                correlationId,
              ),
            ),
          )
        } catch (error) {
          log.warn({ err: error, conversationId }, 'LLM summary failed; summarizing extractively')
        }
      }
      summarized ??= summarizeExtractively(summaryRequest)
      // Extraction happens after compaction: the compacted turns become a document of the conversation.
      const customerId = span.find((turn) => turn.customer_id)?.customer_id ?? undefined
      const [queued] = await deps.documents.ingest(
        scope,
        [
          {
            document: transcriptOf(span),
            document_type: 'ai-chat-conversation',
            mode: config.extraction.default_mode,
            document_id: `conversation:${createHash('sha256').update(conversationId).digest('hex').slice(0, 32)}:${String(last.position)}`,
            document_created_at: last.occurred_at,
            user_id: request.user_id,
            ...(customerId ? { customer_id: customerId } : {}),
            metadata: { conversation_id: conversationId, compaction_id: compactionId },
          },
        ],
        correlationId,
      )
      const ingestionId = queued && 'ingestionId' in queued ? queued.ingestionId : null
      if (queued && 'error' in queued && queued.error.code !== 'DOCUMENT_ALREADY_INGESTED') throw queued.error
      const event: ConversationCompacted = {
        type: 'conversation_compacted',
        event_id: `evt_${randomBytes(16).toString('hex')}`,
        compaction_id: compactionId,
        instance_id: scope.instanceId,
        conversation_id: conversationId,
        user_id: request.user_id,
        customer_id: customerId ?? null,
        through_position: last.position,
        compacted_turns: (previous?.compacted_turns ?? 0) + span.length,
        summary: summarized.summary,
        original_tokens: summarized.originalTokens,
        summary_tokens: summarized.summaryTokens,
        compression_ratio: summarized.compressionRatio,
        validation_score: summarized.validationScore,
        method,
        ingestion_id: ingestionId,
        occurred_at: now().toISOString(),
      }
      await deps.producer.append(CONVERSATIONS_TOPIC, [
        {
          key: conversationKey(scope.instanceId, conversationId),
          subject: CONVERSATION_COMPACTED_SUBJECT,
          payload: event,
          correlationId,
        },
      ])
      // The projector writes the same document from the event; writing it here too lets the caller read its write.
      await deps.store.writeCompaction(event)
      const tookMsValue = tookMs()
      measured(
        scope.instanceId,
        'context_compact',
        tookMsValue,
        correlationId,
        { user_id: request.user_id, operation: 'compaction' },
        { compression_ratio: event.compression_ratio, validation_score: event.validation_score },
      )
      log.info(
        { conversationId, compactionId, turns: span.length, ratio: event.compression_ratio, correlationId },
        'conversation compacted',
      )
      return {
        conversation_id: conversationId,
        status: 'compacted',
        compaction_id: compactionId,
        compacted_turns: span.length,
        summary: event.summary,
        compression_ratio: event.compression_ratio,
        validation_score: event.validation_score,
        method: event.method,
        ingestion_id: ingestionId,
        took_ms: tookMsValue,
      }
    } finally {
      await deps.claims.release([lock.claim]).catch((error: unknown) => {
        log.warn({ err: error, conversationId }, 'compaction lock not released; it expires with its lease')
      })
    }
  }

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
      if (!conversationIdPattern.test(conversationId)) throw notFound(conversationId)
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
      if (!conversationIdPattern.test(conversationId)) throw notFound(conversationId)
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

export { createLlmSummarizer, type Summarizer } from './llmSummarizer.js'
