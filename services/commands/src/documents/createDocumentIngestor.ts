import { randomBytes } from 'node:crypto'
import type { Document, DocumentAccepted } from '@memory-service/contracts'
import type { ElasticsearchStore } from '@memory-service/engines'
import { AppError } from '@memory-service/domain'
import type { ClaimStore } from '../idempotency/createClaimStore.js'
import type { EventProducer } from '@memory-service/log'
import type { Logger } from '@memory-service/engines'
import {
  batchContextsOf,
  documentExpiryOf,
  DOCUMENT_SUBJECT,
  documentsTopicOf,
  type DocumentLane,
  ingestionIdFor,
  jobDocumentOf,
  toDocumentAccepted,
  type IngestionJob,
} from '@memory-service/domain'
import { queuedJobOf } from '@memory-service/domain'

export type IngestOutcome = { ingestionId: string } | { error: AppError }

export interface DocumentIngestor {
  /**
   * Queues valid documents of one instance: a document_id is claimed first (reuse → 409 DOCUMENT_ALREADY_INGESTED;
   * while the first request has not confirmed its append → 503 SERVICE_UNAVAILABLE `document_in_flight`), each document is appended to Kafka on its own (acks=all), and
   * its job is recorded as queued. One outcome per document, in order. The claim keeps a second request out; what
   * keeps a second *append* harmless (after an ambiguous send, a released or taken-over claim) is the ingestion id,
   * derived from the document_id: the pipeline skips a finished ingestion and derives memory ids from it.
   * `lane` says which of the pipeline's lanes forms them: `interactive` for what an agent writes one at a time,
   * `bulk` for batches and imports.
   * @throws AppError SERVICE_UNAVAILABLE from the claim store when it cannot be reached (nothing was queued)
   */
  ingest(
    scope: { instanceId: string; clientId: string },
    documents: (Document & Pick<DocumentAccepted, 'imported'>)[],
    correlationId: string,
    lane: DocumentLane,
  ): Promise<IngestOutcome[]>
}

export interface DocumentIngestorOptions {
  producer: EventProducer
  claims: ClaimStore
  jobs: ElasticsearchStore<IngestionJob>
  logger: Logger
  /**
   * The instance's default time to live of memories in days (its active configuration's storage.expiry), or null:
   * a document that names no expires_at gets it from its acceptance. Never expire without it.
   */
  defaultTtlDaysOf?: (instanceId: string) => number | null
  now?: () => Date
  newIngestionId?: () => string
}

export function createDocumentIngestor(options: DocumentIngestorOptions): DocumentIngestor {
  const now = options.now ?? (() => new Date())
  const newIngestionId = options.newIngestionId ?? (() => `ing_${randomBytes(16).toString('hex')}`)

  return {
    async ingest(scope, documents, correlationId, lane) {
      const topic = documentsTopicOf(lane)
      const ingestionIds = documents.map((document) =>
        document.document_id ? ingestionIdFor(scope.instanceId, document.document_id) : newIngestionId(),
      )
      const identified = documents.flatMap((document, index) =>
        document.document_id ? [{ document, index }] : [],
      )
      const claimOutcomes = await options.claims.claim(
        identified.map(({ document, index }) => ({
          instance_id: scope.instanceId,
          kind: 'document' as const,
          client_id: document.document_id ?? '',
          record_id: ingestionIds[index] ?? '',
        })),
      )
      const outcomes: (IngestOutcome | undefined)[] = new Array<IngestOutcome | undefined>(documents.length)
      const claimOf = new Map<number, NonNullable<typeof claimOutcomes>[number]>()
      identified.forEach(({ document, index }, position) => {
        const outcome = claimOutcomes[position]
        if (!outcome) return
        if (outcome.outcome === 'claimed') claimOf.set(index, outcome)
        else if (outcome.inFlight) {
          // Not a 409: that answer is final, and the first request may never append (its gateway may have died
          // holding the claim). The client retries under the same id; once the lease runs out, the retry takes over.
          outcomes[index] = {
            error: new AppError(
              'SERVICE_UNAVAILABLE',
              `document_id ${document.document_id ?? ''} is still being written by an earlier request; retry`,
              {
                // The first request usually confirms within milliseconds; a dead one's lease ends in seconds.
                retry_after_seconds: 1,
                reason: 'document_in_flight',
              },
            ),
          }
        } else {
          outcomes[index] = {
            error: new AppError(
              'DOCUMENT_ALREADY_INGESTED',
              `document_id ${document.document_id ?? ''} was already ingested`,
              {
                document_id: document.document_id,
                ingestion_id: outcome.claim.record_id,
              },
            ),
          }
        }
      })

      const acceptedAt = now().toISOString()
      const contexts = batchContextsOf(documents, acceptedAt)
      const defaultTtlDays = options.defaultTtlDaysOf?.(scope.instanceId) ?? null
      const pending = documents.flatMap((document, index) => (outcomes[index] ? [] : [{ document, index }]))
      // One send per document: its own key, its own partition batch, so each document's fate is known exactly.
      const acceptedEvents = pending.map(({ document, index }) =>
        toDocumentAccepted(document, {
          ingestionId: ingestionIds[index] ?? '',
          instanceId: scope.instanceId,
          clientId: scope.clientId,
          acceptedAt,
          expiresAt: documentExpiryOf(document.expires_at, acceptedAt, defaultTtlDays),
          conversation: contexts[index],
        }),
      )
      const sends = await Promise.allSettled(
        pending.map(({ document, index }, position) => {
          const ingestionId = ingestionIds[index] ?? ''
          return options.producer.append(topic, [
            {
              key: `${scope.instanceId}/${document.document_id ?? ingestionId}`,
              subject: DOCUMENT_SUBJECT,
              payload: acceptedEvents[position],
              correlationId,
              headers: { 'event-type': 'document_accepted' },
            },
          ])
        }),
      )
      const confirmed = []
      const released = []
      const jobs = []
      for (const [position, { index }] of pending.entries()) {
        const claim = claimOf.get(index)?.claim
        const ingestionId = ingestionIds[index] ?? ''
        if (sends[position]?.status === 'fulfilled') {
          outcomes[index] = { ingestionId }
          jobs.push({
            id: ingestionId,
            document: jobDocumentOf(queuedJobOf(acceptedEvents[position] as DocumentAccepted)),
            version: 1,
          })
          if (claim) confirmed.push(claim)
        } else {
          options.logger.error(
            { err: (sends[position] as PromiseRejectedResult).reason, correlationId },
            'document not appended',
          )
          outcomes[index] = {
            error: new AppError('SERVICE_UNAVAILABLE', 'The event log is unavailable; retry the document', {
              retry_after_seconds: 5,
              reason: 'kafka_unavailable',
            }),
          }
          if (claim) released.push(claim)
        }
      }
      await Promise.all([
        options.claims
          .confirm(confirmed)
          .catch((error: unknown) => options.logger.error({ err: error }, 'claims not confirmed')),
        options.claims
          .release(released)
          .catch((error: unknown) => options.logger.error({ err: error }, 'claims not released')),
        // The job's first state, written here so that a status request right after the 201 finds it; version 1
        // makes the projection of the same event a no-op.
        options.jobs
          .upsert(jobs)
          .catch((error: unknown) =>
            options.logger.error({ err: error, correlationId }, 'queued jobs not recorded'),
          ),
      ])
      return outcomes.map(
        (outcome) => outcome ?? { error: new AppError('INTERNAL_ERROR', 'document outcome missing') },
      )
    },
  }
}
