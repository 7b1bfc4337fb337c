/**
 * Bulk update and delete on the real stack: by ids with per-memory results, by filter after a dry run and a
 * confirmed count, every change an event and a history entry, and a retried request changing nothing twice (the
 * memories topic read back from Kafka).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import { MEMORIES_TOPIC } from '@memory-service/domain'
import type {
  CreatedInstance,
  ErrorBody,
  MemoryBulkUpdateRequest,
  MemoryChanged,
  MemoryFilter,
} from '@memory-service/contracts'
import { createTestClient, refusal, request } from '../support/http.js'
import { eventually, readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let client: MemoryClient
let otherClient: MemoryClient
const user = uniqueName('bulk-user')
const ids: Record<string, string[]> = {}

async function remember(
  document: string,
  metadata: Record<string, unknown>,
  api = client,
): Promise<string[]> {
  const created = await api.memories.ingest({
    document,
    document_type: 'note',
    mode: 'fast',
    user_id: user,
    metadata,
  })
  const job = await completedJob(api, created.ingestion_id)
  return job.memory_ids ?? []
}

/** A list the API takes only non-empty. */
function nonEmpty(list: string[]): [string, ...string[]] {
  const [first, ...rest] = list
  if (first === undefined) throw new Error('an empty list')
  return [first, ...rest]
}

/** The memories topic's changes of these memories, as Kafka holds them. */
async function changesOf(memoryIds: string[]): Promise<MemoryChanged[]> {
  const records = await readTopicToEnd<MemoryChanged>(harness.kafka, harness.codec, MEMORIES_TOPIC, {
    keys: new Set(memoryIds),
  })
  return records.map((record) => record.value)
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('memory-bulk', { withWorkers: true })
  instance = harness.instance
  const other = await harness.createInstance('memory-bulk-other')
  await harness.untilUsable(other.api_key.key)
  const baseUrl = harness.gateway.addresses.http ?? ''
  client = createTestClient({ baseUrl, apiKey: instance.api_key.key })
  otherClient = createTestClient({ baseUrl, apiKey: other.api_key.key })
  ids.coffee = await remember('I drink two espressos every morning.', { source: 'legacy', batch: 1 })
  ids.cello = await remember('I play the cello in a community orchestra.', { source: 'legacy', batch: 2 })
  ids.lisbon = await remember('I moved to Lisbon in March.', { source: 'chat', batch: 3 })
  ids.foreign = await remember('I collect vintage maps.', { source: 'legacy' }, otherClient)
}, 240_000)

afterAll(async () => {
  await harness.close()
})

describe('bulk update', () => {
  it('updates by id with a result per memory, and a retry changes nothing twice', async () => {
    const coffee = ids.coffee?.[0] ?? ''
    const cello = ids.cello?.[0] ?? ''
    const updates: NonNullable<MemoryBulkUpdateRequest['updates']> = [
      { memory_id: coffee, content: 'Drinks one espresso every morning.', confidence: 0.95 },
      { memory_id: cello, metadata: { reviewed: true } },
      { memory_id: ids.foreign?.[0] ?? '', metadata: { reviewed: true } },
      { memory_id: 'mem_000000000000000000000000', confidence: 0.5 },
      { memory_id: 'not-a-memory', confidence: 0.5 },
    ]
    const first = await client.memories.bulkUpdate({ updates })
    expect(first.results.map((result) => result.status)).toEqual([
      'updated',
      'updated',
      'not_found',
      'not_found',
      'not_found',
    ])
    expect(first.summary).toMatchObject({ updated: 2, not_found: 3, failed: 0 })
    expect((await client.memories.get(coffee)).content).toBe('Drinks one espresso every morning.')
    expect((await client.memories.get(cello)).metadata).toMatchObject({ source: 'legacy', reviewed: true })
    // Another instance's memory is untouched.
    expect((await otherClient.memories.get(ids.foreign?.[0] ?? '')).metadata).not.toHaveProperty('reviewed')

    const retried = await client.memories.bulkUpdate({ updates })
    expect(retried.results.map((result) => result.status).slice(0, 2)).toEqual(['unchanged', 'unchanged'])
    const changes = await changesOf([coffee, cello])
    expect(
      changes.filter((change) => change.change === 'updated' && change.cause?.kind === 'api'),
    ).toHaveLength(2)
    const history = await client.memories.history(cello)
    expect(history.changes.map((change) => change.change)).toEqual(['created', 'updated'])
  })

  it('sets metadata on what a filter matches, after a dry run and the confirmed count', async () => {
    const filters = { 'metadata.source': 'legacy' }
    const dry = await client.memories.bulkUpdate({ user_id: user, filters, dry_run: true })
    const legacy = [...(ids.coffee ?? []), ...(ids.cello ?? [])]
    expect(dry).toEqual({
      dry_run: true,
      matched: legacy.length,
      results: [],
      summary: { updated: 0, unchanged: 0, deleted: 0, already_deleted: 0, not_found: 0, failed: 0 },
    })
    const set = { metadata: { migrated: '2026-11' } }
    expect(await refusal(client.memories.bulkUpdate({ user_id: user, filters, set }))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { fields: { confirm_count: expect.any(String) } },
    })
    expect(
      await refusal(
        client.memories.bulkUpdate({ user_id: user, filters, set, confirm_count: legacy.length + 1 }),
      ),
    ).toMatchObject({
      status: 409,
      code: 'BULK_COUNT_MISMATCH',
      details: { matched: legacy.length, confirm_count: legacy.length + 1 },
    })
    const done = await client.memories.bulkUpdate({
      user_id: user,
      filters,
      set,
      confirm_count: legacy.length,
    })
    expect(done.results.map((result) => result.memory_id).sort()).toEqual([...legacy].sort())
    expect(done.summary.updated).toBe(legacy.length)
    // Search and list see a change once the index has refreshed (within a second).
    const listed = await eventually(async () => {
      const page = await client.memories.list({ user_id: user, filters: { 'metadata.migrated': '2026-11' } })
      return page.total === legacy.length ? page : undefined
    }, 10_000)
    expect(listed.items.map((item) => item.id).sort()).toEqual([...legacy].sort())
  })
})

describe('bulk delete', () => {
  it('deletes by id; a retry answers already_deleted and appends nothing', async () => {
    const lisbon = ids.lisbon ?? []
    const first = await client.memories.bulkDelete({
      memory_ids: nonEmpty([...lisbon, 'mem_000000000000000000000000']),
    })
    expect(first.results.map((result) => result.status)).toEqual([
      ...lisbon.map(() => 'deleted'),
      'not_found',
    ])
    const retried = await client.memories.bulkDelete({ memory_ids: nonEmpty(lisbon) })
    expect(retried.results.map((result) => result.status)).toEqual(lisbon.map(() => 'already_deleted'))
    for (const memoryId of lisbon) expect((await refusal(client.memories.get(memoryId))).status).toBe(404)
    const deletions = (await changesOf(lisbon)).filter((change) => change.change === 'deleted')
    expect(deletions.map((change) => change.memory_id).sort()).toEqual([...lisbon].sort())
  })

  it('deletes what a filter matches once its count is confirmed, within the key and the user', async () => {
    const filters: MemoryFilter = { and: [{ 'metadata.source': 'legacy' }, { 'metadata.batch': { gte: 2 } }] }
    const dry = await client.memories.bulkDelete({ user_id: user, filters, dry_run: true })
    expect(dry.matched).toBe(ids.cello?.length)
    const done = await client.memories.bulkDelete({ user_id: user, filters, confirm_count: dry.matched })
    expect(done.summary).toMatchObject({ deleted: dry.matched, failed: 0 })
    await eventually(async () => {
      const again = await client.memories.bulkDelete({ user_id: user, filters, dry_run: true })
      return again.matched === 0 ? again : undefined
    }, 10_000)
    // The other instance's legacy memory is still there.
    expect((await otherClient.memories.get(ids.foreign?.[0] ?? '')).id).toBe(ids.foreign?.[0])
  })

  it('refuses bodies that mix ids and filters or name neither, naming the field', async () => {
    const url = harness.gateway.addresses.http ?? ''
    for (const [body, field] of [
      [{ memory_ids: ['mem_000000000000000000000000'], filters: { type: 'fact' } }, 'filters'],
      [{}, 'memory_ids'],
      [{ filters: { colour: 'red' }, dry_run: true, user_id: user }, 'filters.colour'],
      [{ memory_ids: Array.from({ length: 1001 }, (_, index) => `mem_${String(index)}`) }, 'memory_ids'],
    ] as const) {
      const reply = await request<ErrorBody>(url, 'POST', '/v1/memories/bulk-delete', {
        apiKey: instance.api_key.key,
        json: body,
      })
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body?.code).toBe('INVALID_INPUT')
      expect(Object.keys((reply.body?.details as { fields: Record<string, string> }).fields)).toEqual([field])
    }
  })
})
