/**
 * The pipeline's lanes on the real stack (docs/decisions.md, "Interactive and bulk lanes"): a document written one
 * at a time is formed while a bulk backlog of another user waits, the batch route says how much bulk is queued, and
 * a user's later statement formed first by the interactive lane still supersedes the earlier one still waiting in
 * bulk — the versions of a fact follow their statements' times, not the order they were formed in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import { type Document } from '@memory-service/contracts'
import { createTestClient } from '../support/http.js'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient

/** Enough short documents that the bulk lane is busy for several seconds after the last is accepted. */
const backlogBatches = 4
const batchSize = 100

const filler = (userId: string, batch: number, index: number): Document => ({
  document: `Note ${String(batch * batchSize + index)}: the printer on floor ${String(index % 9)} was serviced today.`,
  document_type: 'note',
  mode: 'fast',
  user_id: userId,
})

beforeAll(async () => {
  harness = await startGatewayWithInstance('pipeline-lanes', { withWorkers: true })
  client = createTestClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
}, 120_000)

afterAll(async () => {
  await harness.close()
})

describe('interactive and bulk lanes', () => {
  it('forms a later statement written alone ahead of an earlier one queued in bulk, and the later one still wins', async () => {
    const importer = uniqueName('importer')
    const ana = uniqueName('ana')
    const backlog: string[] = []
    for (let batch = 0; batch < backlogBatches; batch += 1) {
      const { results, errors } = await client.memories.ingestBatch(
        Array.from({ length: batchSize }, (_, index) => filler(importer, batch, index)),
      )
      expect(errors).toEqual([])
      backlog.push(...results.map((result) => result.ingestion_id))
    }
    // The batch route reports the bulk lane's backlog (read at most 2 s before); a batch of one invalid document
    // queues nothing and still answers with it.
    const queued = await eventually(async () => {
      const probe = await client.memories.ingestBatch([{ document: '' } as Document])
      expect(probe.results).toEqual([])
      return (probe.bulk_queued ?? 0) > 0 ? probe.bulk_queued : undefined
    })
    expect(queued).toBeLessThanOrEqual(backlogBatches * batchSize)

    // Ana's earlier statement joins the end of the bulk backlog; her later one is written alone.
    const earlier = await client.memories.ingestBatch([
      {
        document: 'Ana: I live in Lisbon, near the river.',
        document_type: 'ai-chat-conversation',
        mode: 'fast',
        user_id: ana,
      },
    ])
    const earlierId = earlier.results[0]?.ingestion_id ?? ''
    const later = await client.memories.ingest({
      document: 'Ana: I relocated to Berlin for the new job.',
      document_type: 'ai-chat-conversation',
      mode: 'fast',
      user_id: ana,
    })

    const laterJob = await completedJob(client, later.ingestion_id)
    // Formed while the backlog (and Ana's earlier statement behind it) still waits.
    const earlierMeanwhile = await client.memories.status(earlierId)
    expect(earlierMeanwhile.status).toBe('queued')
    const stillQueued = await Promise.all(backlog.slice(-20).map((id) => client.memories.status(id)))
    expect(stillQueued.some((job) => job.status === 'queued')).toBe(true)

    const earlierJob = await eventually(async () => {
      const status = await client.memories.status(earlierId)
      return status.status === 'completed' ? status : undefined
    }, 180_000)
    const berlinId = laterJob.memory_ids?.[0] ?? ''
    const lisbonId = earlierJob.memory_ids?.[0] ?? ''
    expect(berlinId).not.toBe('')
    expect(lisbonId).not.toBe('')
    // Lisbon, formed last, is ended by Berlin, formed first: its statement came later.
    const lisbon = await eventually(async () => {
      const memory = await client.memories.get(lisbonId)
      return memory.superseded_by ? memory : undefined
    }, 30_000)
    const berlin = await client.memories.get(berlinId)
    expect(lisbon.superseded_by).toBe(berlinId)
    expect(lisbon.valid_to).toBe(berlin.valid_from)
    expect(berlin).toMatchObject({ valid_to: null, superseded_by: null })
  }, 240_000)
})
