/**
 * POST /v1/memories/search on the real stack: memories found by paraphrase (vector), by a rare keyword (BM25) and
 * by entity (graph); scopes never leak across users, customers or instances; filters, limits and invalid bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { USAGE_TOPIC } from '@memory-service/domain'
import { type CreatedInstance, type Memory, type UsageRecorded } from '@memory-service/contracts'
import { eventually, readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let other: CreatedInstance
let agentKey: string

interface Reply {
  status: number
  body: Record<string, unknown>
  text: string
  correlationId: string | null
}

type Hit = Memory & { score: number }

async function call(
  path: string,
  body?: unknown,
  key = instance.api_key.key,
  method = 'POST',
): Promise<Reply> {
  const response = await fetch(`${harness.gateway.addresses.http ?? ''}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return {
    status: response.status,
    text,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    correlationId: response.headers.get('x-correlation-id'),
  }
}

async function search(body: Record<string, unknown>, key = instance.api_key.key): Promise<Hit[]> {
  const reply = await call('/v1/memories/search', body, key)
  expect(reply.status, reply.text).toBe(200)
  return reply.body.results as Hit[]
}

const userId = uniqueName('alice')
const bobId = uniqueName('bob')
const marker = uniqueName('zymurgy').replace('_', '')
// Only one memory holds this word; no embedding model knows it.
const rareWord = uniqueName('quillwort').replace('_', '')

/** Ingests one document and returns the ids of the memories it produced. */
async function remember(
  key: string,
  document: string,
  scope: { user_id?: string; customer_id?: string },
  metadata: Record<string, unknown> = {},
): Promise<string[]> {
  const created = await call(
    '/v1/memories',
    {
      document,
      document_type: 'ai-chat-conversation',
      mode: 'long-range',
      document_created_at: '2024-03-10T10:00:00.000Z',
      ...scope,
      metadata,
    },
    key,
  )
  expect(created.status, created.text).toBe(201)
  const job = await eventually(async () => {
    const reply = await call(
      `/v1/memories/${String(created.body.ingestion_id)}/status`,
      undefined,
      key,
      'GET',
    )
    return reply.body.status === 'completed' ? reply.body : undefined
  }, 60_000)
  return job.memory_ids as string[]
}

const ids: Record<string, string[]> = {}

beforeAll(async () => {
  harness = await startGatewayWithInstance('memory-search', { withWorkers: true })
  instance = harness.instance
  other = await harness.createInstance('memory-search-other')
  agentKey = (
    await harness.tenancy.issueKey(
      instance.instance.instance_id,
      ['memories:read', 'memories:write'],
      'search-e2e',
    )
  ).key
  await harness.untilUsable(other.api_key.key)
  await harness.untilUsable(agentKey)
  const key = instance.api_key.key
  const alice = { user_id: userId, customer_id: 'acme' }
  ids.puppy = await remember(
    key,
    'Alice: We adopted a golden retriever puppy and named him Biscuit.',
    alice,
    {
      topic: 'pets',
    },
  )
  ids.keyword = await remember(
    key,
    `Alice: My favourite words are ${marker} and ${rareWord}, they sound like spells.`,
    alice,
  )
  ids.entity = await remember(
    key,
    'Alice: Professor Okonkwo reviewed the second chapter of my thesis.',
    alice,
  )
  ids.garden = await remember(key, 'Alice: I planted tomatoes and basil on the balcony this weekend.', alice)
  ids.bob = await remember(key, `Bob: I wrote ${marker} on the cover of my blue notebook.`, {
    user_id: bobId,
    customer_id: 'acme',
  })
  ids.shared = await remember(key, `Acme moved its ${marker} laboratory to Rotterdam last year.`, {
    customer_id: 'acme',
  })
  ids.otherCustomer = await remember(key, `Alice: At Globex we never talk about ${marker}.`, {
    user_id: userId,
    customer_id: 'globex',
  })
  ids.otherInstance = await remember(other.api_key.key, `Alice: ${marker} is my favourite word too.`, alice)
}, 300_000)

afterAll(async () => {
  await harness.close()
})

const modes = ['accurate', 'fast'] as const

describe.each(modes)('%s search finds', (mode) => {
  it('a memory by paraphrase (vector similarity, no shared keyword)', async () => {
    const results = await search({
      query: 'Which dog did they get?',
      user_id: userId,
      customer_id: 'acme',
      mode,
    })
    expect(results[0]?.id).toBe(ids.puppy?.[0])
  })

  it('a memory by the entity it mentions, through the graph', async () => {
    const reply = await call('/v1/memories/search', {
      query: 'What did Okonkwo do?',
      user_id: userId,
      customer_id: 'acme',
      mode,
      limit: 3,
    })
    expect(reply.status, reply.text).toBe(200)
    const results = reply.body.results as Hit[]
    expect(ids.entity).toContain(results[0]?.id)
    expect(results[0]?.entities.map((entity) => entity.canonical_name)).toContain('Professor Okonkwo')
    // Usage says what the search did: vector searches and one graph lookup that found the entity.
    const usage = await eventually(async () => {
      const records = await readTopicToEnd<UsageRecorded>(harness.kafka, harness.codec, USAGE_TOPIC)
      const mine = records.filter((record) => record.headers['x-correlation-id'] === reply.correlationId)
      return mine.length >= 2 ? mine.map((record) => record.value) : undefined
    })
    expect(usage.find((event) => event.metric === 'graph_queries')).toMatchObject({
      value: 1,
      instance_id: instance.instance.instance_id,
      dimensions: { mode, user_id: userId, customer_id: 'acme', operation: 'retrieval' },
    })
    expect(usage.find((event) => event.metric === 'vector_queries')?.value).toBeGreaterThanOrEqual(1)
  })
})

describe('accurate search', () => {
  it('finds a memory by a rare keyword (BM25), which fast mode does not search by', async () => {
    const results = await search({ query: rareWord, user_id: userId, customer_id: 'acme', limit: 3 })
    expect(ids.keyword).toContain(results[0]?.id)
  })
})

describe('scopes', () => {
  const visible = async (body: Record<string, unknown>, key?: string) =>
    new Set((await search({ query: marker, limit: 100, ...body }, key)).map((hit) => hit.id))

  it("a user with its customer sees its own memories there and the customer's shared ones, nobody else's", async () => {
    const seen = await visible({ user_id: userId, customer_id: 'acme' })
    for (const id of [...(ids.keyword ?? []), ...(ids.shared ?? [])]) expect(seen).toContain(id)
    for (const id of [...(ids.bob ?? []), ...(ids.otherCustomer ?? []), ...(ids.otherInstance ?? [])])
      expect(seen).not.toContain(id)
  })

  it('a user without a customer sees only its own memories', async () => {
    const seen = await visible({ user_id: userId })
    for (const id of [...(ids.keyword ?? []), ...(ids.otherCustomer ?? [])]) expect(seen).toContain(id)
    for (const id of [...(ids.shared ?? []), ...(ids.bob ?? []), ...(ids.otherInstance ?? [])])
      expect(seen).not.toContain(id)
  })

  it('an instance-level search sees every user of the instance, and never another instance', async () => {
    const seen = await visible({ customer_id: 'acme' })
    for (const id of [...(ids.keyword ?? []), ...(ids.bob ?? []), ...(ids.shared ?? [])])
      expect(seen).toContain(id)
    expect(seen).not.toContain(ids.otherInstance?.[0])
    const fromOther = await visible({}, other.api_key.key)
    expect([...fromOther].some((id) => !(ids.otherInstance ?? []).includes(id))).toBe(false)
  })

  it('an agent key (memories:read without instances:read) must name the user', async () => {
    expect(
      (await search({ query: marker, user_id: userId, customer_id: 'acme' }, agentKey)).length,
    ).toBeGreaterThan(0)
    const reply = await call('/v1/memories/search', { query: marker }, agentKey)
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual({
      error: expect.any(String) as unknown,
      code: 'FORBIDDEN',
      details: {
        required_permission: 'instances:read',
        current_permissions: ['memories:read', 'memories:write'],
      },
    })
  })
})

describe('filters and limits', () => {
  const alice = { user_id: userId, customer_id: 'acme' }

  it('narrows by type, entity, creation time and metadata', async () => {
    const all = await search({ query: 'what happened', ...alice, limit: 100 })
    const type = all[0]?.type ?? 'fact'
    const byType = await search({ query: 'what happened', ...alice, limit: 100, filters: { types: [type] } })
    expect(byType.length).toBeGreaterThan(0)
    expect(byType.every((hit) => hit.type === type)).toBe(true)

    const okonkwo = all
      .flatMap((hit) => hit.entities)
      .find((entity) => entity.canonical_name === 'Professor Okonkwo')
    const byEntity = await search({
      query: 'what happened',
      ...alice,
      filters: { entity_ids: [okonkwo?.entity_id ?? 'ent_0'] },
    })
    expect(byEntity.map((hit) => hit.id).sort()).toEqual([...(ids.entity ?? [])].sort())

    const future = await search({
      query: 'puppy',
      ...alice,
      filters: { created_after: '2999-01-01T00:00:00Z' },
    })
    expect(future).toEqual([])
    const past = await search({
      query: 'puppy',
      ...alice,
      filters: { created_before: '2000-01-01T00:00:00Z' },
    })
    expect(past).toEqual([])

    const pets = await search({
      query: 'anything at all',
      ...alice,
      filters: { metadata: { topic: 'pets' } },
    })
    expect(pets.map((hit) => hit.id).sort()).toEqual([...(ids.puppy ?? [])].sort())
  })

  it('returns at most limit results, every Memory field with a score, best first', async () => {
    for (const mode of modes) {
      const reply = await call('/v1/memories/search', { query: 'what happened', ...alice, limit: 2, mode })
      expect(reply.status).toBe(200)
      expect(reply.body.mode).toBe(mode)
      expect(reply.body.took_ms).toEqual(expect.any(Number))
      const results = reply.body.results as Hit[]
      expect(results).toHaveLength(2)
      expect(Object.keys(results[0] ?? {}).sort()).toEqual(
        [
          'confidence',
          'content',
          'created_at',
          'entities',
          'id',
          'metadata',
          'score',
          'scope',
          'source',
          'type',
          'updated_at',
        ].sort(),
      )
      expect(results[0]?.score).toBeGreaterThanOrEqual(results[1]?.score ?? Infinity)
    }
    const defaults = await call('/v1/memories/search', { query: marker, ...alice })
    expect(defaults.body.mode).toBe('accurate')
  })

  it.each([
    ['no query', { user_id: 'u' }, 'query'],
    ['an empty query', { query: '' }, 'query'],
    ['a blank query', { query: '   ' }, 'query'],
    ['limit 0', { query: 'x', limit: 0 }, 'limit'],
    ['limit 101', { query: 'x', limit: 101 }, 'limit'],
    ['an unknown mode', { query: 'x', mode: 'exhaustive' }, 'mode'],
    ['an unknown field', { query: 'x', sort: 'date' }, 'sort'],
    ['an unknown type', { query: 'x', filters: { types: ['gossip'] } }, 'filters.types'],
    ['a malformed date', { query: 'x', filters: { created_after: 'yesterday' } }, 'filters.created_after'],
    ['nested metadata', { query: 'x', filters: { metadata: { a: { b: 1 } } } }, 'filters.metadata'],
    [
      'an empty time range',
      {
        query: 'x',
        filters: { created_after: '2024-01-02T00:00:00Z', created_before: '2024-01-01T00:00:00Z' },
      },
      'filters.created_before',
    ],
  ])('rejects %s with INVALID_INPUT naming the field', async (_name, body, field) => {
    const reply = await call('/v1/memories/search', body)
    expect(reply.status, reply.text).toBe(400)
    expect(reply.body.code).toBe('INVALID_INPUT')
    const fields = (reply.body.details as { fields: Record<string, string> }).fields
    expect(
      Object.keys(fields).some((name) => name.startsWith(field)),
      JSON.stringify(fields),
    ).toBe(true)
  })
})
