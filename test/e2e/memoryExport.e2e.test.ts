/**
 * Export on the real stack: an export names a user's memories (and a filter) at a moment; its JSON Lines carry each
 * memory with its validity, entities, metadata and history, in id order, resumable after any line; the lines import
 * back into another instance as they are; an export goes with its user's erasure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parquetReadObjects } from 'hyparquet'
import { type MemoryClient } from '@memory-service/client'
import type { MemoryImportResponse } from '@memory-service/contracts'
import { createTestClient, refusal, request } from '../support/http.js'
import { eventually, startGatewayWithInstance } from '../support/testEngines.js'
import { completedErasure } from '../support/erasure.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
let otherClient: MemoryClient
let baseUrl: string
const memoryIds: Record<string, string> = {}

interface Line {
  id: string
  content: string
  user_id: string | null
  valid_to: string | null
  metadata: Record<string, unknown>
  history?: { version: number; change: string; content: string | null }[]
}

const linesOf = (text: string): Line[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line)

async function importedAll(api: MemoryClient, response: MemoryImportResponse): Promise<void> {
  expect(response.errors).toEqual([])
  for (const result of response.results)
    await completedJob(api, result.ingestion_id)
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('memory-export', { withWorkers: true })
  baseUrl = harness.gateway.addresses.http ?? ''
  client = createTestClient({ baseUrl, apiKey: harness.instance.api_key.key })
  const other = await harness.createInstance('memory-export-other')
  otherClient = createTestClient({ baseUrl, apiKey: other.api_key.key })
  const records = [
    ...['Plays the cello', 'Lives in Porto', 'Drinks oat milk', 'Runs on Sundays', 'Speaks Finnish'].map(
      (content, index) => ({
        id: `ana-${String(index)}`,
        content,
        user_id: 'ana',
        metadata: { batch: index < 3 ? 'first' : 'second' },
        created_at: `2025-0${String(index + 1)}-01T10:00:00Z`,
      }),
    ),
    { id: 'ana-ended', content: 'Worked at Globex', user_id: 'ana', valid_to: '2025-06-30T00:00:00Z' },
    { id: 'ben-0', content: 'Collects stamps', user_id: 'ben' },
  ]
  const imported = await client.memories.import(records)
  await importedAll(client, imported)
  for (const result of imported.results) memoryIds[result.external_id] = result.memory_id
  await client.memories.update(memoryIds['ana-1'] ?? '', { content: 'Lives in Lisbon' })
}, 240_000)

afterAll(async () => {
  await harness.close()
})

describe('memory export', () => {
  it('takes a user’s memories with their history and validity, in id order, resumable after any line', async () => {
    const anas = Object.entries(memoryIds)
      .filter(([source]) => source.startsWith('ana'))
      .map(([, id]) => id)
      .sort()
    const created = await eventually(async () => {
      const made = await client.memories.exports.create({ user_id: 'ana' })
      return made.matched === anas.length ? made : undefined
    })
    expect(created).toMatchObject({ status: 'ready', format: 'jsonl', include_history: true, user_id: 'ana' })
    expect(await client.memories.exports.get(created.export_id)).toEqual(created)

    const response = await request<null>(baseUrl, 'GET', created.download, {
      apiKey: harness.instance.api_key.key,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/)
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="memories-${created.export_id}.jsonl"`,
    )
    const lines = linesOf(response.text)
    expect(lines.map((line) => line.id)).toEqual(anas)
    expect(lines.every((line) => line.user_id === 'ana')).toBe(true)
    const porto = lines.find((line) => line.id === memoryIds['ana-1'])
    expect(porto?.content).toBe('Lives in Lisbon')
    expect(porto?.history?.map((change) => [change.version, change.change, change.content])).toEqual([
      [1, 'created', 'Lives in Porto'],
      [2, 'updated', 'Lives in Lisbon'],
    ])
    expect(lines.find((line) => line.id === memoryIds['ana-ended'])?.valid_to).toBe(
      '2025-06-30T00:00:00.000Z',
    )

    // A download cut after the third line goes on from there.
    const rest = linesOf(await client.memories.exports.download(created.export_id, { after: anas[2] ?? '' }))
    expect(rest.map((line) => line.id)).toEqual(anas.slice(3))

    // With a filter, and without histories.
    const second = await client.memories.exports.create({
      user_id: 'ana',
      filters: { 'metadata.batch': 'second' },
      include_history: false,
    })
    const secondLines = linesOf(await client.memories.exports.download(second.export_id))
    expect(secondLines.map((line) => line.content).sort()).toEqual(['Runs on Sundays', 'Speaks Finnish'])
    expect(secondLines.every((line) => line.history === undefined)).toBe(true)
  })

  it('as Parquet: the same memories as the lines, a row each, dates as timestamps, nested fields as JSON', async () => {
    const jsonl = await client.memories.exports.create({ user_id: 'ana' })
    const lines = linesOf(await client.memories.exports.download(jsonl.export_id))
    const made = await client.memories.exports.create({ user_id: 'ana', format: 'parquet' })
    expect(made).toMatchObject({ format: 'parquet', matched: lines.length })
    const response = await fetch(`${baseUrl}${made.download}`, {
      headers: { authorization: `Bearer ${harness.instance.api_key.key}` },
    })
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.parquet')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="memories-${made.export_id}.parquet"`,
    )
    const { file, nextAfter } = await client.memories.exports.downloadParquet(made.export_id)
    expect(nextAfter).toBeNull()
    const rows = await parquetReadObjects({ file: file.buffer as ArrayBuffer })
    expect(rows.map((row) => String(row.id))).toEqual(lines.map((line) => line.id))
    expect(rows.map((row) => String(row.content))).toEqual(lines.map((line) => line.content))
    const lisbon = rows.find((row) => row.id === memoryIds['ana-1'])
    expect(lisbon).toMatchObject({ user_id: 'ana', feedback_rating: null, expires_at: null })
    expect((lisbon?.history as { change: string }[]).map((change) => change.change)).toEqual([
      'created',
      'updated',
    ])
    expect(rows.find((row) => row.id === memoryIds['ana-ended'])?.valid_to).toEqual(
      new Date('2025-06-30T00:00:00.000Z'),
    )
    // After a memory id, the rest, as the lines resume.
    const rest = await client.memories.exports.downloadParquet(made.export_id, { after: lines[2]?.id ?? '' })
    const restRows = await parquetReadObjects({ file: rest.file.buffer as ArrayBuffer })
    expect(restRows.map((row) => String(row.id))).toEqual(lines.slice(3).map((line) => line.id))
    // An after that is no memory id (the fuzzer's emoji) is not put into the file's name.
    const odd = await fetch(`${baseUrl}${made.download}?after=${encodeURIComponent('👍🏻')}`, {
      headers: { authorization: `Bearer ${harness.instance.api_key.key}` },
    })
    expect(odd.status).toBe(200)
    expect(odd.headers.get('content-disposition')).toBe(
      `attachment; filename="memories-${made.export_id}.parquet"`,
    )
  })

  it('imports back into another instance as it is, once', async () => {
    const made = await client.memories.exports.create({ user_id: 'ana', include_history: false })
    const text = await client.memories.exports.download(made.export_id)
    const sent = await request<MemoryImportResponse>(baseUrl, 'POST', '/v1/memories/import', {
      apiKey: (await harness.createInstance('memory-export-target')).api_key.key,
      body: text,
      contentType: 'application/x-ndjson',
    })
    expect(sent.status).toBe(200)
    // The same lines into the other instance through the client, then again: the repeat imports nothing.
    const first = await otherClient.memories.import(linesOf(text) as never)
    await importedAll(otherClient, first)
    const again = await otherClient.memories.import(linesOf(text) as never)
    expect(again.results.every((result) => result.status === 'duplicate')).toBe(true)
    const found = await eventually(async () => {
      const answer = await otherClient.memories.search({
        query: 'Which instrument does she play?',
        user_id: 'ana',
      })
      return answer.results.some((result) => result.content === 'Plays the cello') ? answer : undefined
    })
    const cello = found.results.find((result) => result.content === 'Plays the cello')
    expect(cello?.created_at).toBe('2025-01-01T10:00:00.000Z')
    expect(cello?.metadata).toEqual({ batch: 'first' })
  })

  it('is the key’s instance’s alone, refuses a bad filter by its key, and goes with its user’s erasure', async () => {
    const made = await client.memories.exports.create({ user_id: 'ben' })
    expect((await refusal(otherClient.memories.exports.get(made.export_id))).code).toBe('NOT_FOUND')
    expect((await refusal(otherClient.memories.exports.download(made.export_id))).code).toBe('NOT_FOUND')
    expect((await refusal(client.memories.exports.get('exp_nope'))).code).toBe('NOT_FOUND')
    const badFilter = await refusal(
      client.memories.exports.create({ user_id: 'ben', filters: { colour: 'red' } }),
    )
    expect([badFilter.code, Object.keys(badFilter.details.fields as object)]).toEqual([
      'INVALID_INPUT',
      ['filters.colour'],
    ])
    await completedErasure(client, 'ben')
    expect((await refusal(client.memories.exports.get(made.export_id))).code).toBe('NOT_FOUND')
  })
})
