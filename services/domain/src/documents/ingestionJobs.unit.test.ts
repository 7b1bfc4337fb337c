import { describe, expect, it } from 'vitest'
import type { DocumentAccepted } from '@memory-service/contracts'
import {
  finishJob,
  isTerminal,
  nothingToRemember,
  queuedJobOf,
  recordStage,
  startProcessing,
} from './ingestionJobs.js'

const accepted: DocumentAccepted = {
  type: 'document_accepted',
  ingestion_id: `ing_${'a'.repeat(32)}`,
  instance_id: `inst_${'b'.repeat(16)}`,
  client_id: 'cli_1',
  document_id: null,
  document: 'Caroline: I went hiking.',
  document_type: 'ai-chat-conversation',
  mode: 'fast',
  document_created_at: '2023-05-08T13:56:00.000Z',
  user_id: 'u1',
  customer_id: null,
  metadata: {},
  accepted_at: '2023-05-08T13:56:01.000Z',
}
const at = '2023-05-08T13:56:02.000Z'
const processing = () => startProcessing(queuedJobOf(accepted), at)
const extractionError = { stage: 'extraction' as const, code: 'EXTRACTION_FAILED', message: 'boom' }

describe('ingestion job transitions', () => {
  it('starts queued at version 1 with nothing done', () => {
    const job = queuedJobOf(accepted)
    expect(job).toMatchObject({ status: 'queued', version: 1, errors: [], memory_ids: [] })
    expect(Object.values(job.progress)).toEqual([0, 0, 0, 0])
  })

  it('queued → processing, one version later', () => {
    expect(processing()).toMatchObject({ status: 'processing', version: 2, changed_at: at })
  })

  it('records stage progress and errors while processing', () => {
    const job = recordStage(processing(), 'extraction', 1, [extractionError], at)
    expect(job).toMatchObject({ status: 'processing', version: 3, errors: [extractionError] })
    expect(job.progress.extraction).toBe(1)
    expect(recordStage(job, 'storage', 7, [], at).progress.storage).toBe(1)
  })

  it('processing → completed when memories were stored without errors', () => {
    const job = finishJob(processing(), { memoryIds: ['mem_1'], errors: [] }, at)
    expect(job).toMatchObject({ status: 'completed', memory_ids: ['mem_1'], errors: [], version: 100 })
    expect(isTerminal(job.status)).toBe(true)
  })

  it('processing → partial_success when memories were stored and a stage failed', () => {
    const job = finishJob(processing(), { memoryIds: ['mem_1'], errors: [extractionError] }, at)
    expect(job).toMatchObject({ status: 'partial_success', errors: [extractionError] })
  })

  it('processing → failed when nothing was stored, and a failure always carries a reason', () => {
    expect(finishJob(processing(), { memoryIds: [], errors: [extractionError] }, at)).toMatchObject({
      status: 'failed',
      errors: [extractionError],
    })
    const silent = finishJob(processing(), { memoryIds: [], errors: [] }, at)
    expect(silent.status).toBe('failed')
    expect(silent.errors.map((error) => error.code)).toEqual(['NO_MEMORIES_STORED'])
    // A short path (failing early) ends at the same version as a long one, above every progress version.
    expect(silent.version).toBe(100)
  })

  it('processing → completed with no memory when the document held nothing to remember, saying so', () => {
    const job = finishJob(processing(), { memoryIds: [], errors: [], reason: nothingToRemember }, at)
    expect(job).toMatchObject({ status: 'completed', memory_ids: [], errors: [], reason: nothingToRemember })
    expect(Object.values(job.progress)).toEqual([1, 1, 1, 1])
    // A stage that failed is still a failure, whatever else is said about the document.
    const failed = finishJob(
      processing(),
      { memoryIds: [], errors: [extractionError], reason: nothingToRemember },
      at,
    )
    expect(failed.status).toBe('failed')
  })

  it('refuses transitions out of order or out of a finished job', () => {
    const done = finishJob(processing(), { memoryIds: ['mem_1'], errors: [] }, at)
    expect(() => startProcessing(processing(), at)).toThrow(/not queued/)
    expect(() => recordStage(queuedJobOf(accepted), 'storage', 1, [], at)).toThrow(/not processing/)
    expect(() => finishJob(done, { memoryIds: [], errors: [] }, at)).toThrow(/not processing/)
    expect(isTerminal('processing')).toBe(false)
  })
})
