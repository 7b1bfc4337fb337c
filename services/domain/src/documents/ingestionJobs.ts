import type { DocumentAccepted, IngestionJobChanged } from '@memory-service/contracts'
import { readContractSchema } from '@memory-service/contracts/files'
import { INGESTION_JOBS_TOPIC } from '../topology.js'

export const INGESTION_JOB_SUBJECT = `${INGESTION_JOBS_TOPIC}-value`
export const ingestionJobChangedSchema = readContractSchema('events/IngestionJobChanged.v1.schema.json')

export const jobStages = ['extraction', 'categorization', 'entity_resolution', 'storage'] as const
export type JobStage = (typeof jobStages)[number]
export type JobStatus = IngestionJobChanged['status']
export type StageError = IngestionJobChanged['errors'][number]

const terminalStatuses: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'partial_success'])

export function isTerminal(status: JobStatus): boolean {
  return terminalStatuses.has(status)
}

/**
 * The job as the document's acceptance defines it (version 1, queued). The acceptance event itself is the queued
 * transition: the gateway writes this state at once and the job projection derives the same from the event.
 */
export function queuedJobOf(accepted: DocumentAccepted): IngestionJobChanged {
  return {
    type: 'ingestion_job_changed',
    ingestion_id: accepted.ingestion_id,
    instance_id: accepted.instance_id,
    version: 1,
    status: 'queued',
    progress: { extraction: 0, categorization: 0, entity_resolution: 0, storage: 0 },
    errors: [],
    memory_ids: [],
    document_type: accepted.document_type,
    mode: accepted.mode,
    user_id: accepted.user_id,
    customer_id: accepted.customer_id,
    changed_at: accepted.accepted_at,
  }
}

/**
 * The version of every finishing transition, above any progress version: a document processed again after a crash
 * may take a shorter path (a stage failing this time), and its end must still win over the progress written before.
 */
export const FINISHED_JOB_VERSION = 100

function next(
  job: IngestionJobChanged,
  change: Partial<IngestionJobChanged>,
  at: string,
): IngestionJobChanged {
  if (isTerminal(job.status)) {
    throw new Error(`ingestion job ${job.ingestion_id} is ${job.status}; a finished job does not change`)
  }
  const version =
    change.status !== undefined && isTerminal(change.status) ? FINISHED_JOB_VERSION : job.version + 1
  return { ...job, ...change, version, changed_at: at }
}

/** queued → processing: a pipeline worker took the document. */
export function startProcessing(job: IngestionJobChanged, at: string): IngestionJobChanged {
  if (job.status !== 'queued')
    throw new Error(`ingestion job ${job.ingestion_id} is ${job.status}, not queued`)
  return next(job, { status: 'processing' }, at)
}

/** processing → processing: one stage finished (fraction 1) or advanced, with the errors it met. */
export function recordStage(
  job: IngestionJobChanged,
  stage: JobStage,
  fraction: number,
  errors: StageError[],
  at: string,
): IngestionJobChanged {
  if (job.status !== 'processing') {
    throw new Error(`ingestion job ${job.ingestion_id} is ${job.status}, not processing`)
  }
  return next(
    job,
    {
      progress: { ...job.progress, [stage]: Math.min(1, Math.max(0, fraction)) },
      errors: [...job.errors, ...errors],
    },
    at,
  )
}

export type JobReason = NonNullable<IngestionJobChanged['reason']>

export const nothingToRemember: JobReason = {
  code: 'NOTHING_TO_REMEMBER',
  message: 'The document holds no statement worth remembering (greetings, fillers or questions only)',
}

/**
 * processing → completed | partial_success | failed. A job completes when memories were stored and no stage
 * reported an error, or when the document held nothing worth remembering (`reason` says so: processing did not
 * fail, there was nothing to store); memories with errors is a partial success; otherwise no memory stored is a
 * failure, and a failure always says why.
 */
export function finishJob(
  job: IngestionJobChanged,
  outcome: { memoryIds: string[]; errors: StageError[]; reason?: JobReason },
  at: string,
): IngestionJobChanged {
  if (job.status !== 'processing') {
    throw new Error(`ingestion job ${job.ingestion_id} is ${job.status}, not processing`)
  }
  const errors = [...job.errors, ...outcome.errors]
  const stored = outcome.memoryIds.length > 0
  if (outcome.reason && !stored && errors.length === 0) {
    const done = { extraction: 1, categorization: 1, entity_resolution: 1, storage: 1 }
    return next(
      job,
      { status: 'completed', errors, memory_ids: [], progress: done, reason: outcome.reason },
      at,
    )
  }
  if (!stored && errors.length === 0) {
    errors.push({
      stage: 'storage',
      code: 'NO_MEMORIES_STORED',
      message: 'No memory was stored for this document',
    })
  }
  const status: JobStatus = !stored ? 'failed' : errors.length > 0 ? 'partial_success' : 'completed'
  return next(job, { status, errors, memory_ids: outcome.memoryIds }, at)
}
