import { jobDocumentOf, queuedJobOf, type IngestionJob } from '@memory-service/domain'
import { type ConsumedEvent } from '@memory-service/log'
import { type DocumentAccepted, type IngestionJobChanged } from '@memory-service/contracts'
import { type ElasticsearchStore } from '@memory-service/engines'

/**
 * Job status projection: a document's acceptance is its queued state (version 1), every later transition carries
 * the full state with a higher version. The highest version wins, whatever order the events arrive in.
 */
export function createJobProjection(jobs: ElasticsearchStore<IngestionJob>) {
  return async (events: ConsumedEvent<DocumentAccepted | IngestionJobChanged>[]): Promise<void> => {
    const latest = new Map<string, IngestionJobChanged>()
    for (const { payload } of events) {
      const job = payload.type === 'document_accepted' ? queuedJobOf(payload) : payload
      const known = latest.get(job.ingestion_id)
      if (!known || known.version < job.version) latest.set(job.ingestion_id, job)
    }
    await jobs.upsert(
      [...latest.values()].map((job) => ({
        id: job.ingestion_id,
        document: jobDocumentOf(job),
        version: job.version,
      })),
    )
  }
}
