/**
 * Import on the real stack: mem0's and Zep's records, as their APIs return them (test/fixtures/import), stored as
 * given through the log and the pipeline, found by search with the validity they came with; a repeated import
 * changes nothing (the memories topic read back from Kafka); bad records answered one by one.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import { MEMORIES_TOPIC } from '@memory-service/domain'
import type { ErrorBody, MemoryChanged, MemoryImportResponse } from '@memory-service/contracts'
import { createTestClient, refusal, request } from '../support/http.js'
import { eventually, readTopicToEnd, startGatewayWithInstance } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
let baseUrl: string
let apiKey: string

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/import/${name}`, import.meta.url)), 'utf8')

/** Waits for every imported record's job, and answers the memory ids by source id. */
async function stored(response: MemoryImportResponse): Promise<Map<string, string>> {
  for (const result of response.results)
    await completedJob(client, result.ingestion_id)
  return new Map(response.results.map((result) => [result.external_id, result.memory_id]))
}

async function createdEventsOf(memoryIds: string[]): Promise<MemoryChanged[]> {
  const records = await readTopicToEnd<MemoryChanged>(harness.kafka, harness.codec, MEMORIES_TOPIC, {
    keys: new Set(memoryIds),
  })
  return records.map((record) => record.value).filter((event) => event.change === 'created')
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('memory-import', { withWorkers: true })
  baseUrl = harness.gateway.addresses.http ?? ''
  apiKey = harness.instance.api_key.key
  client = createTestClient({ baseUrl, apiKey })
}, 240_000)

afterAll(async () => {
  await harness.close()
})

describe('memory import', () => {
  it('imports a mem0 get_all page as given, finds it by search, and a repeat imports nothing twice', async () => {
    const page = JSON.parse(fixture('mem0-platform-v3-list.json')) as Record<string, unknown>
    const first = await client.memories.import(page, { format: 'mem0' })
    expect(first.errors).toEqual([])
    expect(first.results.map((result) => [result.index, result.status])).toEqual([
      [1, 'queued'],
      [2, 'queued'],
      [3, 'queued'],
    ])
    // Its expiration date (2024-07-11, counted in full) has passed: mem0 hides it, and nothing here would show it.
    expect(first.skipped).toEqual([
      {
        index: 0,
        external_id: 'f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c',
        reason: 'expired in the source (2024-07-12T00:00:00.000Z)',
      },
    ])
    const ids = await stored(first)

    const vegetarian = await client.memories.get(ids.get('a6e1d9c2-3b1f-4c55-9a0e-2f1d7b8c4e11') ?? '')
    expect(vegetarian).toMatchObject({
      content: 'Alex prefers vegetarian restaurants',
      type: 'preference',
      created_at: '2024-07-05T15:30:00.000Z',
      metadata: { source: 'chat', mem0: { categories: ['food', 'user_preferences'] } },
    })
    const found = await eventually(async () => {
      const answer = await client.memories.search({
        query: 'Where does Alex like to eat?',
        user_id: 'alex',
        limit: 3,
      })
      return answer.results.some((result) => result.id === vegetarian.id) ? answer : undefined
    })
    expect(found.results[0]?.content).toBe('Alex prefers vegetarian restaurants')
    // mem0 replaced "Alex lives in New York": it ended when it was replaced, and search now leaves it out.
    const newYork = ids.get('9e2b7c44-1a6d-4f0e-8b5a-c3d2e1f0a9b8') ?? ''
    expect((await client.memories.get(newYork)).valid_to).toBe('2026-01-15T10:30:00.000Z')
    // An import's memories become searchable at the index's refresh (the bulk lane's are not refreshed one by one):
    // the one that replaced New York is waited for, then New York must not be beside it.
    const movedTo = ids.get('5d0c1e7a-8f2b-4a9d-b6e3-71c4f09a2d58')
    const whereNow = await eventually(async () => {
      const answer = await client.memories.search({ query: 'Where does Alex live?', user_id: 'alex' })
      return answer.results.some((result) => result.id === movedTo) ? answer : undefined
    })
    expect(whereNow.results.map((result) => result.id)).not.toContain(newYork)

    const again = await client.memories.import(page, { format: 'mem0' })
    expect(again.results.map((result) => [result.status, result.ingestion_id])).toEqual(
      first.results.map((result) => ['duplicate', result.ingestion_id]),
    )
    const created = await createdEventsOf([...ids.values()])
    expect(created.map((event) => event.memory_id).sort()).toEqual([...ids.values()].sort())
  })

  it('imports Zep edges sent as JSON Lines, each valid when Zep says it held', async () => {
    const bundle = JSON.parse(fixture('zep-v3-user-graph.json')) as { edges: unknown[] }
    const lines = `${bundle.edges.map((edge) => JSON.stringify(edge)).join('\n')}\n`
    const response = await request<MemoryImportResponse>(
      baseUrl,
      'POST',
      '/v1/memories/import?format=zep&user_id=kendra',
      {
        apiKey,
        body: lines,
        contentType: 'application/x-ndjson',
      },
    )
    expect(response.status).toBe(200)
    expect(response.body?.errors).toEqual([])
    const ids = await stored(response.body as MemoryImportResponse)
    const adidas = ids.get('e1a0c3f2-1111-4b6a-9d1e-000000000001') ?? ''
    const puma = ids.get('e1a0c3f2-1111-4b6a-9d1e-000000000002') ?? ''
    expect(await client.memories.get(adidas)).toMatchObject({
      content: 'Kendra loves Adidas shoes',
      valid_from: '2025-05-01T09:00:00.000Z',
      valid_to: '2025-06-10T18:20:00.000Z',
      metadata: { zep: { name: 'LOVES', target_node_uuid: 'n-adidas' } },
    })
    const question = { query: 'Which shoes does Kendra like?', user_id: 'kendra', limit: 3 }
    const now = await eventually(async () => {
      const answer = await client.memories.search(question)
      return answer.results.some((result) => result.id === puma) ? answer : undefined
    })
    expect(now.results.map((result) => result.id)).not.toContain(adidas)
    // Each memory is searchable once the index has refreshed after its projection (within a second).
    const inMay = await eventually(async () => {
      const answer = await client.memories.search({ ...question, as_of: '2025-05-15T00:00:00Z' })
      return answer.results.some((result) => result.id === adidas) ? answer : undefined
    })
    expect(inMay.results.map((result) => result.id)).not.toContain(puma)
  })

  it('answers each bad record on its own and refuses a body it cannot read, naming the record', async () => {
    const mixed = await client.memories.import(
      {
        records: [
          {
            id: 'ok-1',
            content: 'Prefers invoices in EUR',
            type: 'preference',
            user_id: 'u-9',
            // Another model's vector: sealed in the log with the user's key like the text, then not used.
            embedding: { model: 'other/model', vector: [0.1, 0.2, 0.3] },
          },
          { id: 'bad-1', content: '' },
          { id: 'bad-2', content: 'Has a dog', valid_to: 'last week' },
          { id: 'ok-1', content: 'Prefers invoices in EUR', type: 'preference', user_id: 'u-9' },
        ],
      },
      {},
    )
    expect(mixed.results.map((result) => [result.index, result.status])).toEqual([
      [0, 'queued'],
      [3, 'duplicate'],
    ])
    expect(mixed.results[1]?.ingestion_id).toBe(mixed.results[0]?.ingestion_id)
    await stored({ ...mixed, results: mixed.results.slice(0, 1) })
    expect((await client.memories.get(mixed.results[0]?.memory_id ?? '')).content).toBe(
      'Prefers invoices in EUR',
    )
    expect(
      mixed.errors.map((error) => [error.index, error.code, Object.keys(error.details.fields as object)]),
    ).toEqual([
      [1, 'INVALID_INPUT', ['records.1.content']],
      [2, 'INVALID_INPUT', ['records.2.valid_to']],
    ])

    const badLine = await request<ErrorBody>(baseUrl, 'POST', '/v1/memories/import', {
      apiKey,
      body: '{"id":"a","content":"fine"}\n{not json\n',
      contentType: 'application/x-ndjson',
    })
    expect([badLine.status, badLine.body?.code, badLine.body?.details]).toEqual([
      400,
      'INVALID_INPUT',
      { fields: { 'records.1': 'is not a line of JSON' } },
    ])
    const tooMany = Array.from({ length: 1001 }, (_, index) => ({ id: `r-${String(index)}`, content: 'x' }))
    expect((await refusal(client.memories.import(tooMany as never))).details).toEqual({
      fields: { body: expect.stringMatching(/1000/) },
    })
    expect((await refusal(client.memories.import({ count: 0 }))).code).toBe('INVALID_INPUT')
    expect(
      (await refusal(client.memories.import([{ id: 'a', content: 'b' }], { format: 'letta' as never }))).code,
    ).toBe('INVALID_INPUT')
  })
})
