import { createHash, randomBytes } from 'node:crypto'
import type { Compaction, ConversationCompacted } from '@memory-service/contracts'
import type { ArchitectureConfig } from '@memory-service/domain'
import type { DocumentIngestor } from '../documents/createDocumentIngestor.js'
import { AppError } from '@memory-service/domain'
import type { ClaimStore } from '../idempotency/createClaimStore.js'
import type { EventProducer } from '@memory-service/log'
import type { OutgoingEvent } from '@memory-service/domain'
import type { Logger } from '@memory-service/engines'
import { usageEvent } from '@memory-service/domain'
import {
  contextShares,
  estimateTokens,
  measureSummary,
  summarizeExtractively,
  transcriptOf,
  type CompactedSummary,
} from '@memory-service/domain'
import { conversationKey } from '@memory-service/domain'
import type { ConversationStore } from '@memory-service/read-models'
import {
  CONVERSATION_COMPACTED_SUBJECT,
  CONVERSATIONS_TOPIC,
  externalIdPattern,
  notFound,
} from '@memory-service/domain'
import type { Summarizer } from '@memory-service/engines'

export interface ConversationScope {
  instanceId: string
  clientId: string
}

export interface CompactorDependencies {
  store: ConversationStore
  claims: ClaimStore
  producer: EventProducer
  documents: DocumentIngestor
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
 * Compaction of conversations: the older turns summarized (by the configured language model, else extractively),
 * handed to memory extraction, one compaction at a time per conversation. Used by the routes and by the
 * persistence writer when a conversation outgrows its budget.
 */
export function createCompactor(deps: CompactorDependencies) {
  const now = deps.now ?? (() => new Date())
  const log = deps.logger.child({ component: 'compaction' })

  /** A malformed id, or one whose turns belong to another instance or user, is not found (never told apart). */
  async function requireOwn(instanceId: string, conversationId: string, userId: string): Promise<void> {
    if (!externalIdPattern.test(conversationId)) throw notFound(conversationId)
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
      summarized ??= await summarizeExtractively(summaryRequest)
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
        // A conversation going on now: its memories are wanted in its next turns.
        'interactive',
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
    requireOwn,
    measured,
    compact,
    /**
     * Compacts a conversation whose uncompacted turns no longer fit its instance's budget, keeping the newest turns
     * that fit the share a context gives them. Answers whether it compacted.
     */
    async compactIfOverBudget(
      scope: ConversationScope,
      conversationId: string,
      userId: string,
      correlationId: string,
    ): Promise<boolean> {
      const budget = deps.configOf(scope.instanceId).retrieval.context_budget
      const previous = await deps.store.conversation(scope.instanceId, conversationId)
      const pending = await deps.store.turnsAfter(
        scope.instanceId,
        conversationId,
        previous?.compacted_through ?? -1,
      )
      const tokens = pending.reduce((sum, turn) => sum + estimateTokens(turn.content), 0)
      if (tokens <= budget) return false
      const turnsShare = budget * (1 - contextShares.summary - contextShares.memories)
      let keep = 0
      for (let used = 0; keep < pending.length; keep += 1) {
        used += estimateTokens(pending[pending.length - 1 - keep]?.content ?? '')
        if (used > turnsShare) break
      }
      const outcome = await compact(
        scope,
        conversationId,
        { user_id: userId, keep_recent: keep },
        correlationId,
      )
      return outcome.status === 'compacted'
    },
  }
}

export type Compactor = ReturnType<typeof createCompactor>
