/**
 * Memory over time on the real stack: a fact that changes supersedes its earlier version (valid_to, superseded_by),
 * reads take `as_of`, every memory has a history from the log, and the end state does not depend on the order a
 * history was ingested in. PATCH, DELETE and erasure keep the versions consistent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNeo4jDriver, createNeo4jStore, type Neo4jStore } from '@memory-service/engines'
import { activeGraphGeneration } from '@memory-service/read-models'
import { type MemoryClient } from '@memory-service/client'
import { type Memory } from '@memory-service/contracts'
import { createTestClient, refusal } from '../support/http.js'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedErasure } from '../support/erasure.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
let graph: Neo4jStore

const lisbon = { text: 'Ana: I live in Lisbon, near the river.', at: '2023-01-10T09:00:00.000Z' }
const porto = { text: 'Ana: We finally moved to Porto last month!', at: '2024-03-10T09:00:00.000Z' }
const berlin = { text: 'Ana: I relocated to Berlin for the new job.', at: '2025-06-01T09:00:00.000Z' }
const filler = { text: 'Ana: I baked a lemon cake for the neighbours.', at: '2024-04-02T09:00:00.000Z' }

/** Ingests one document; resolves with its ingestion id and the memory it produced. */
async function remember(userId: string, { text, at }: { text: string; at: string }) {
  const { ingestion_id } = await client.memories.ingest({
    document: text,
    document_type: 'ai-chat-conversation',
    document_created_at: at,
    mode: 'fast',
    user_id: userId,
  })
  const job = await completedJob(client, ingestion_id)
  const [memoryId] = job.memory_ids ?? []
  expect(memoryId).toBeDefined()
  return { ingestionId: ingestion_id, memoryId: memoryId ?? '' }
}

/** Each memory of a user as content → [valid_from, valid_to, content of what superseded it]. */
async function validityOf(userId: string) {
  const { items } = await client.memories.list({ user_id: userId, page_size: 100 })
  const byId = new Map(items.map((memory) => [memory.id, memory]))
  return Object.fromEntries(
    items.map((memory) => [
      memory.content,
      [memory.valid_from, memory.valid_to, byId.get(memory.superseded_by ?? '')?.content ?? null],
    ]),
  )
}

/** Supersession settles once the new memory is visible: resolves with the memory once something has ended it. */
const supersededOnceSettled = (memoryId: string) =>
  eventually(async () => {
    const memory = await client.memories.get(memoryId)
    return memory.superseded_by ? memory : undefined
  }, 30_000)

const where = (userId: string, extra: { as_of?: string; include_superseded?: boolean } = {}) =>
  client.memories.search({ query: 'Where does Ana live?', user_id: userId, limit: 5, ...extra })

beforeAll(async () => {
  harness = await startGatewayWithInstance('memory-time', { withWorkers: true })
  client = createTestClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
  graph = createNeo4jStore(createNeo4jDriver(harness.config.neo4j), harness.config.neo4j.database)
}, 120_000)

afterAll(async () => {
  await graph.close()
  await harness.close()
})

describe('memory over time', () => {
  const userId = uniqueName('ana')
  let lisbonMemory: { ingestionId: string; memoryId: string }
  let portoMemory: { ingestionId: string; memoryId: string }

  beforeAll(async () => {
    lisbonMemory = await remember(userId, lisbon)
    await remember(userId, filler)
    portoMemory = await remember(userId, porto)
  }, 120_000)

  it('Lisbon → Porto: Porto answers "where does she live", Lisbon ends where Porto begins', async () => {
    const current = await where(userId)
    expect(current.results[0]?.id).toBe(portoMemory.memoryId)
    expect(current.results.map((memory) => memory.id)).not.toContain(lisbonMemory.memoryId)

    const movedOn = await client.memories.get(portoMemory.memoryId)
    expect(movedOn).toMatchObject({
      valid_from: '2024-02-01T00:00:00.000Z',
      valid_to: null,
      superseded_by: null,
    })
    const lived = await client.memories.get(lisbonMemory.memoryId)
    expect(lived).toMatchObject({
      valid_from: lisbon.at,
      valid_to: movedOn.valid_from,
      superseded_by: portoMemory.memoryId,
    })
    // Asked for, the superseded version is found, weighed down below the version that superseded it.
    const all = await where(userId, { include_superseded: true })
    const ids = all.results.map((memory) => memory.id)
    expect(ids).toContain(lisbonMemory.memoryId)
    expect(ids.indexOf(portoMemory.memoryId)).toBeLessThan(ids.indexOf(lisbonMemory.memoryId))
    // The graph holds the same interval on the memory (its projection follows on its own consumer).
    const node = await eventually(async () => {
      const [row] = await graph.read<{ validTo: string | null; supersededBy: string | null }>(
        `${activeGraphGeneration}
         MATCH (memory:Memory {generation: generation, id: $id}) WHERE memory.version >= 2
         RETURN memory.valid_to AS validTo, memory.superseded_by AS supersededBy`,
        { id: lisbonMemory.memoryId },
      )
      return row
    })
    expect(node).toEqual({ validTo: movedOn.valid_from, supersededBy: portoMemory.memoryId })
  })

  it('as_of before the move answers Lisbon, in search, get and list', async () => {
    const asOf = '2023-09-01T00:00:00.000Z'
    const then = await where(userId, { as_of: asOf })
    expect(then.results[0]?.id).toBe(lisbonMemory.memoryId)
    expect(then.results.map((memory) => memory.id)).not.toContain(portoMemory.memoryId)
    expect((await client.memories.get(lisbonMemory.memoryId, { as_of: asOf })).id).toBe(lisbonMemory.memoryId)
    const notYet = await refusal(client.memories.get(portoMemory.memoryId, { as_of: asOf }))
    expect(notYet.status).toBe(404)
    expect(notYet).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'not_valid_at' } })
    const listed = await client.memories.list({ user_id: userId, as_of: asOf })
    expect(listed.items.map((memory: Memory) => memory.id)).toEqual([lisbonMemory.memoryId])
    const invalid = await refusal(client.memories.search({ query: 'x', user_id: userId, as_of: 'yesterday' }))
    expect(invalid.status).toBe(400)
    expect(invalid.code).toBe('INVALID_INPUT')
  })

  it('history shows both changes with their ingestion ids and correlation ids', async () => {
    const lived = await client.memories.history(lisbonMemory.memoryId)
    expect(lived.changes.map((change) => change.change)).toEqual(['created', 'superseded'])
    expect(lived.changes[0]).toMatchObject({
      version: 1,
      cause: { kind: 'ingestion', ingestion_id: lisbonMemory.ingestionId },
      valid_to: null,
    })
    expect(lived.changes[1]).toMatchObject({
      version: 2,
      cause: { kind: 'supersession', memory_id: portoMemory.memoryId },
      superseded_by: portoMemory.memoryId,
    })
    expect(lived.changes.every((change) => typeof change.correlation_id === 'string')).toBe(true)
    const moved = await client.memories.history(portoMemory.memoryId)
    expect(moved.changes).toHaveLength(1)
    expect(moved.changes[0]).toMatchObject({
      change: 'created',
      cause: { kind: 'ingestion', ingestion_id: portoMemory.ingestionId },
    })
    // The supersession travelled with the correlation id of the request that ingested Porto.
    expect(lived.changes[1]?.correlation_id).toBe(moved.changes[0]?.correlation_id)
    const missing = await refusal(client.memories.history(`mem_${'0'.repeat(24)}`))
    expect(missing.status).toBe(404)
  })

  it('a shuffled backfill ends in the same state as the history ingested as it happened', async () => {
    const inOrder = uniqueName('ana-in-order')
    const shuffled = uniqueName('ana-shuffled')
    for (const document of [lisbon, porto, berlin]) await remember(inOrder, document)
    for (const document of [berlin, lisbon, porto]) await remember(shuffled, document)
    const expected = await validityOf(inOrder)
    expect(Object.values(expected).filter(([, validTo]) => validTo === null)).toHaveLength(1)
    expect(await validityOf(shuffled)).toEqual(expected)
  })

  it('PATCH keeps a version in its fact; DELETE of the newer version reinstates the older one', async () => {
    const owner = uniqueName('ana-edits')
    const first = await remember(owner, lisbon)
    const second = await remember(owner, porto)
    const edited = await client.memories.update(second.memoryId, {
      content: 'Ana moved to Braga last month.',
      merge_strategy: 'replace',
    })
    expect(edited).toMatchObject({ valid_to: null, superseded_by: null })
    expect((await client.memories.get(first.memoryId)).superseded_by).toBe(second.memoryId)
    const editedHistory = await client.memories.history(second.memoryId)
    expect(editedHistory.changes.at(-1)).toMatchObject({
      change: 'updated',
      cause: { kind: 'api', operation: 'update', merge_strategy: 'replace' },
      content: 'Ana moved to Braga last month.',
    })

    await client.memories.delete(second.memoryId)
    const reinstated = await client.memories.get(first.memoryId)
    expect(reinstated).toMatchObject({ valid_to: null, superseded_by: null })
    expect((await where(owner)).results[0]?.id).toBe(first.memoryId)
    const deleted = await client.memories.history(second.memoryId)
    expect(deleted.changes.at(-1)).toMatchObject({
      change: 'deleted',
      cause: { kind: 'api', operation: 'delete' },
      content: null,
    })
    const restored = await client.memories.history(first.memoryId)
    expect(restored.changes.map((change) => change.change)).toEqual(['created', 'superseded', 'reinstated'])
    expect(restored.changes.at(-1)?.cause).toEqual({ kind: 'supersession', memory_id: second.memoryId })
  })

  it('an erased user leaves no history, not even of memories deleted before', async () => {
    const erased = uniqueName('ana-erased')
    const kept = await remember(erased, lisbon)
    const gone = await remember(erased, porto)
    await client.memories.delete(gone.memoryId)
    expect((await client.memories.history(gone.memoryId)).changes.length).toBeGreaterThan(0)
    const receipt = await completedErasure(client, erased)
    expect(receipt.status).toBe('completed')
    expect(receipt.log.memory_deletions).toBe(2)
    for (const memoryId of [kept.memoryId, gone.memoryId]) {
      expect((await refusal(client.memories.history(memoryId))).status).toBe(404)
    }
  })
})

describe('a change told in other words (issue 30)', () => {
  it('ends the older statement that named the employer in passing, and answers with the new one', async () => {
    const userId = uniqueName('tomasz')
    const before = await remember(userId, {
      // Names the employer only in passing: no fact on its own, read as one once the new employer is stated. (Told as
      // "We just pushed the hotfix at CD Projekt and I'm running on 3 hrs sleep" the classifier reads it as about a car
      // and it stays current: docs/benchmarks.md#memory-formation lists such misses.)
      text: 'Tomasz: Another crunch week at CD Projekt, the whole studio is exhausted.',
      at: '2022-05-01T09:00:00.000Z',
    })
    const after = await remember(userId, {
      text: 'Tomasz: First week at Revolut done, the team is great.',
      at: '2023-01-09T09:00:00.000Z',
    })
    const ended = await supersededOnceSettled(before.memoryId)
    expect(ended).toMatchObject({ superseded_by: after.memoryId, valid_to: '2023-01-09T09:00:00.000Z' })
    const now = await client.memories.search({
      query: 'Where does Tomasz work now?',
      user_id: userId,
      limit: 5,
    })
    expect(now.results[0]?.id).toBe(after.memoryId)
    const then = await client.memories.search({
      query: 'Where does Tomasz work now?',
      user_id: userId,
      limit: 5,
      as_of: '2022-06-01T00:00:00.000Z',
    })
    expect(then.results[0]?.id).toBe(before.memoryId)
  })

  // A known miss of the learned readers (issue 55): the decision reads "Akira works at Sony in Tokyo." as an employer
  // at 0.06, and the Kyoto move no longer ends it as a residence (versions need 0.9 since LoCoMo's small talk was
  // ended at 0.5), so the older statement answers by similarity. Expected to fail until the readers read it; it
  // fails loudly here once they do.
  it.fails(
    'answers with the newest statement of the asked attribute even when it was read as stating another',
    async () => {
      const userId = uniqueName('akira')
      await remember(userId, { text: 'Akira: I work at Sony in Tokyo.', at: '2022-03-01T09:00:00.000Z' })
      // Two facts in one statement: read as the move, it also names the new employer.
      const moved = await remember(userId, {
        text: 'Akira: I moved to Kyoto for work - Nintendo!',
        at: '2023-04-01T09:00:00.000Z',
      })
      const now = await client.memories.search({
        query: 'Who is Akira working for now?',
        user_id: userId,
        limit: 5,
      })
      expect(now.results[0]?.id).toBe(moved.memoryId)
    },
  )

  it('ends a pet the speaker says died, keeps the others, and answers with the new one by its name', async () => {
    const userId = uniqueName('lani')
    const goldfish = await remember(userId, {
      text: 'Lani: My goldfish Bubbles turned 6 today, he is getting slow.',
      at: '2022-03-01T09:00:00.000Z',
    })
    const cat = await remember(userId, {
      text: 'Lani: We also adopted a grumpy cat named Miso.',
      at: '2022-06-01T09:00:00.000Z',
    })
    const canteen = await remember(userId, {
      text: 'Lani: The canteen at Google is honestly the best part of the job.',
      at: '2022-07-01T09:00:00.000Z',
    })
    await remember(userId, {
      text: 'Lani: Left Google in march. RIP Bubbles. But we got a puppy!! An 8 week old corgi named Taro, he already ate a sock.',
      at: '2023-05-01T09:00:00.000Z',
    })
    const ended = await supersededOnceSettled(goldfish.memoryId)
    expect(ended.valid_to).toBe('2023-05-01T09:00:00.000Z')
    expect((await client.memories.get(cat.memoryId)).superseded_by ?? null).toBeNull()
    // What else the message says ended is no pet: the workplace's statement is not ended by the puppy.
    expect((await client.memories.get(canteen.memoryId)).superseded_by ?? null).toBeNull()
    // The profile read model answers "now" first: its projection follows the memories' on its own.
    await eventually(async () => {
      const { subjects } = await client.users.profile(userId)
      const pets = subjects.flatMap(({ attributes }) =>
        attributes.filter(({ attribute }) => attribute === 'pet'),
      )
      return pets.some(({ content }) => content.includes('Taro')) ? true : undefined
    })
    const now = await client.memories.search({
      query: "What's the name of Lani's pet now?",
      user_id: userId,
      limit: 5,
    })
    expect(now.results[0]?.content).toContain('Taro')
  })
})
