/**
 * POST /v1/memories/search on the real stack: memories found by paraphrase (vector), by a rare keyword (BM25) and
 * by entity (graph); scopes never leak across users, customers or instances; filters, limits and invalid bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import { USAGE_TOPIC } from '@memory-service/domain'
import {
  type CreatedInstance,
  type ErrorBody,
  type MemorySearchRequest,
  type UsageRecorded,
} from '@memory-service/contracts'
import { createTestClient, refusal, request, type Exchange } from '../support/http.js'
import { eventually, readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let other: CreatedInstance
let client: MemoryClient
let otherClient: MemoryClient
let agent: MemoryClient
/** Every response the clients of this file received, for the response headers the library does not return. */
const exchanges: Exchange[] = []

async function search(body: MemorySearchRequest, api = client) {
  return (await api.memories.search(body)).results
}

const userId = uniqueName('alice')
const bobId = uniqueName('bob')
const marker = uniqueName('zymurgy').replace('_', '')
// Only one memory holds this word; no embedding model knows it.
const rareWord = uniqueName('quillwort').replace('_', '')

/** Ingests one document and returns the ids of the memories it produced. */
async function remember(
  api: MemoryClient,
  document: string,
  scope: { user_id?: string; customer_id?: string },
  metadata: Record<string, unknown> = {},
): Promise<string[]> {
  const created = await api.memories.ingest({
    document,
    document_type: 'ai-chat-conversation',
    mode: 'long-range',
    document_created_at: '2024-03-10T10:00:00.000Z',
    ...scope,
    metadata,
  })
  const job = await completedJob(api, created.ingestion_id)
  expect(job.memory_ids).toBeDefined()
  return job.memory_ids ?? []
}

const ids: Record<string, string[]> = {}

beforeAll(async () => {
  harness = await startGatewayWithInstance('memory-search', { withWorkers: true })
  instance = harness.instance
  other = await harness.createInstance('memory-search-other')
  const agentKey = (
    await harness.tenancy.issueKey(
      instance.instance.instance_id,
      ['memories:read', 'memories:write'],
      'search-e2e',
    )
  ).key
  await harness.untilUsable(other.api_key.key)
  await harness.untilUsable(agentKey)
  const baseUrl = harness.gateway.addresses.http ?? ''
  client = createTestClient({ baseUrl, apiKey: instance.api_key.key, exchanges })
  otherClient = createTestClient({ baseUrl, apiKey: other.api_key.key, exchanges })
  agent = createTestClient({ baseUrl, apiKey: agentKey, exchanges })
  const alice = { user_id: userId, customer_id: 'acme' }
  ids.puppy = await remember(
    client,
    'Alice: We adopted a golden retriever puppy and named him Biscuit.',
    alice,
    {
      topic: 'pets',
      dog: { age_weeks: 9, adopted_on: '2024-03-09' },
    },
  )
  ids.keyword = await remember(
    client,
    `Alice: My favourite words are ${marker} and ${rareWord}, they sound like spells.`,
    alice,
  )
  ids.entity = await remember(
    client,
    'Alice: Professor Okonkwo reviewed the second chapter of my thesis.',
    alice,
  )
  ids.garden = await remember(
    client,
    'Alice: I planted tomatoes and basil on the balcony this weekend.',
    alice,
  )
  ids.bob = await remember(client, `Bob: I wrote ${marker} on the cover of my blue notebook.`, {
    user_id: bobId,
    customer_id: 'acme',
  })
  ids.shared = await remember(client, `Acme moved its ${marker} laboratory to Rotterdam last year.`, {
    customer_id: 'acme',
  })
  ids.otherCustomer = await remember(client, `Alice: At Globex we never talk about ${marker}.`, {
    user_id: userId,
    customer_id: 'globex',
  })
  ids.otherInstance = await remember(otherClient, `Alice: ${marker} is my favourite word too.`, alice)
  ids.conversation = await rememberConversation(client, conversationUser, [
    `Carol: I finally signed the endorsement deal with ${sponsor} today!`,
    'Carol: It felt crazy, like all those early training hours were worth every minute.',
  ])
  for (const [index, remark] of distractions.entries())
    await rememberConversation(client, conversationUser, [`Carol: ${remark}`], `distraction-${String(index)}`)
  await rememberDated(client, diarist, diary)
  await rememberDated(client, gardener, gardenChat)
  await rememberDated(client, student, thesisChat)
}, 300_000)

const student = uniqueName('femi')
// A thread through a person: the mentor's suggestion in the last remark never says "thesis", and other people's
// theses say it more often than the student's own remarks do.
const thesisChat = [
  {
    on: '2024-02-01T09:00:00.000Z',
    text: 'User: My thesis supervisor Dr Okonjo wants the first chapter of my thesis by March.',
  },
  {
    on: '2024-02-08T09:00:00.000Z',
    text: 'User: Dr Okonjo liked the outline of my thesis but asked for more sources.',
  },
  {
    on: '2024-02-15T09:00:00.000Z',
    text: 'User: Dr Okonjo suggested I present at the spring colloquium in Ibadan.',
  },
  {
    on: '2024-02-16T09:00:00.000Z',
    text: 'User: My cousin defended his thesis on soil chemistry last week.',
  },
  {
    on: '2024-02-17T09:00:00.000Z',
    text: 'User: A thesis on river erosion won the faculty prize this year.',
  },
  {
    on: '2024-02-18T09:00:00.000Z',
    text: 'User: The library keeps printed theses from the last fifty years.',
  },
  { on: '2024-02-19T09:00:00.000Z', text: 'User: My flatmate is writing a thesis about jazz in Lagos.' },
  { on: '2024-02-20T09:00:00.000Z', text: 'User: I bought a new bike helmet for the ride to campus.' },
  { on: '2024-02-21T09:00:00.000Z', text: 'User: The canteen now serves jollof rice on Fridays.' },
]

const gardener = uniqueName('erin')
// A user's remarks about their garden over three days, between a long reply and small talk: a question about the
// order they came up in needs each remark once, not the reply's many statements.
const gardenChat = [
  {
    on: '2024-04-02T09:00:00.000Z',
    text: 'User: I want to rebuild my garden around three raised vegetable beds.',
  },
  {
    on: '2024-04-02T09:01:00.000Z',
    text: 'Assistant: Raised beds in a garden warm up early in spring. Cedar boards last long in a garden bed. Fill each garden bed with compost and topsoil. Water a raised garden bed more often in summer. Leave paths wide enough for a wheelbarrow between the garden beds.',
  },
  { on: '2024-04-09T18:00:00.000Z', text: 'User: My neighbour lent me a ladder for the roof gutters.' },
  {
    on: '2024-04-16T08:30:00.000Z',
    text: 'User: For the garden I now plan a small wildlife pond by the hedge.',
  },
  {
    on: '2024-04-16T08:31:00.000Z',
    text: 'Assistant: A pond needs a sunny spot and a shallow edge for frogs.',
  },
  {
    on: '2024-04-23T19:00:00.000Z',
    text: 'User: The old garden fence has to be replaced before the summer.',
  },
]

/**
 * Ingests one user's dated entries (diary lines, the messages of a chat), each a document on its day, in one batch,
 * and waits until search sees every one; their metadata names the day and the entry's place.
 */
async function rememberDated(api: MemoryClient, user: string, entries: { on: string; text: string }[]) {
  await ingestAndFinish(
    api,
    entries.map(({ on, text }, message) => ({
      document: text,
      document_type: 'ai-chat-conversation' as const,
      mode: 'fast' as const,
      document_created_at: on,
      user_id: user,
      metadata: { on, message },
    })),
  )
  // A finished job's memories are stored; search sees them after the index's next refresh.
  await eventually(async () => {
    const found = await api.memories.search({ query: 'message', user_id: user, limit: 50, mode: 'fast' })
    return new Set(found.results.map((memory) => memory.metadata.message)).size === entries.length
      ? found
      : undefined
  }, 30_000)
}

const diarist = uniqueName('dana')
// Evenings out, each on its day; the one of 14 July 2023 shares the fewest words with the question asked about it.
const diary = [
  { on: '2023-05-02T20:00:00.000Z', text: 'Dana: I watched a film at the cinema with my friends tonight.' },
  { on: '2023-07-14T21:00:00.000Z', text: 'Dana: Saw a spooky thriller on the big screen this evening.' },
  { on: '2023-09-20T19:30:00.000Z', text: 'Dana: We watched an old film at the cinema downtown.' },
  { on: '2023-11-05T20:15:00.000Z', text: 'Dana: I watched a documentary film at the cinema after work.' },
]

const conversationUser = uniqueName('carol')
// A word only the first turn of the conversation holds: the reply after it says nothing of it.
const sponsor = uniqueName('fizzwhorl').replace('_', '')
const distractions = [
  'My sister is learning to play the cello.',
  'We repainted the kitchen a pale green colour.',
  'The new bakery downtown sells great rye bread.',
  'I have been reading a mystery novel set in Oslo.',
  'Our team lost the quiz night by a single point.',
  'I started waking up at six to go running.',
]

/** Ingests the turns of one conversation in one batch, in order; returns the memory ids of each turn. */
async function rememberConversation(
  api: MemoryClient,
  user: string,
  turns: string[],
  label = 'conversation',
): Promise<string[]> {
  return ingestAndFinish(
    api,
    turns.map((document, turn) => ({
      document,
      document_type: 'ai-chat-conversation' as const,
      mode: 'fast' as const,
      document_created_at: '2024-03-12T18:00:00.000Z',
      user_id: user,
      metadata: { label, turn },
    })),
  )
}

/** Ingests documents in one batch, waits for every job to complete, and returns their memory ids in order. */
async function ingestAndFinish(
  api: MemoryClient,
  documents: Parameters<MemoryClient['memories']['ingestBatch']>[0],
): Promise<string[]> {
  const { results } = await api.memories.ingestBatch(documents)
  const memoryIds: string[] = []
  for (const accepted of results) {
    const job = await completedJob(api, accepted.ingestion_id)
    memoryIds.push(...(job.memory_ids ?? []))
  }
  return memoryIds
}

afterAll(async () => {
  await harness.close()
})

const modes = ['accurate', 'fast'] as const

describe('a turn of a conversation ingested turn by turn, in one batch', () => {
  it('is found by what the turns around it say (accurate search reads each memory in its conversation)', async () => {
    const results = await search({ query: sponsor, user_id: conversationUser, limit: 3, mode: 'accurate' })
    const reply = results.find(
      (memory) => memory.metadata.turn === 1 && memory.metadata.label === 'conversation',
    )
    // The reply holds no word of the query; only its context, the turn before it, does.
    expect(reply?.content).toMatch(/felt crazy/)
    expect(results[0]?.content).toContain(sponsor)
  })
})

describe('a question about a whole history ("the order in which I brought up…")', () => {
  it('finds what the asker said, one memory per message, whatever the answer instructions say', async () => {
    const results = await search({
      query:
        'Can you list the order in which I brought up different aspects of my garden throughout our conversations? Mention ONLY and ONLY three items.',
      user_id: gardener,
      limit: 5,
      mode: 'accurate',
    })
    const messages = results.map((memory) => memory.metadata.message)
    // The long reply holds five statements about gardens; the page takes one of them at most.
    expect(new Set(messages).size).toBe(messages.length)
    // The three remarks about the garden, each once.
    expect(messages).toEqual(expect.arrayContaining([0, 3, 5]))
  })
})

describe('a question about a whole history, through a person it does not name', () => {
  it('follows the people the best answers share to what else was said of them', async () => {
    const results = await search({
      query:
        'Can you list the order in which I brought up different aspects of my thesis across our conversations?',
      user_id: student,
      limit: 6,
      mode: 'accurate',
    })
    const messages = results.map((memory) => memory.metadata.message)
    // The supervisor's suggestion shares no word with the question; the two remarks before it name the supervisor.
    // Without the thread it ranks seventh, below every remark that says "thesis".
    expect(messages).toEqual(expect.arrayContaining([0, 1, 2]))
  })
})

describe('a question that names a period', () => {
  it('finds what was written then first (accurate), and nothing changes for a period nobody wrote in', async () => {
    const dated = await search({
      query: 'What film did Dana watch on 14 July 2023?',
      user_id: diarist,
      limit: 4,
      mode: 'accurate',
    })
    expect(dated[0]?.metadata.on).toBe('2023-07-14T21:00:00.000Z')
    // Without a date the same question ranks the entries that share its words first.
    const undated = await search({
      query: 'What film did Dana watch?',
      user_id: diarist,
      limit: 4,
      mode: 'accurate',
    })
    expect(undated[0]?.metadata.on).not.toBe('2023-07-14T21:00:00.000Z')
    // A period with no entry: the question is answered as if it named none.
    const empty = await search({
      query: 'What film did Dana watch in March 2021?',
      user_id: diarist,
      limit: 4,
      mode: 'accurate',
    })
    expect(empty).toHaveLength(4)
  })
})

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
    const results = await search({
      query: 'What did Okonkwo do?',
      user_id: userId,
      customer_id: 'acme',
      mode,
      limit: 3,
    })
    const correlationId = exchanges.at(-1)?.headers.get('x-correlation-id')
    expect(correlationId).toBeTruthy()
    expect(ids.entity).toContain(results[0]?.id)
    expect(results[0]?.entities.map((entity) => entity.canonical_name)).toContain('Professor Okonkwo')
    // Usage says what the search did: vector searches and one graph lookup that found the entity.
    const usage = await eventually(async () => {
      const records = await readTopicToEnd<UsageRecorded>(harness.kafka, harness.codec, USAGE_TOPIC)
      const mine = records.filter((record) => record.headers['x-correlation-id'] === correlationId)
      return mine.length >= 2 ? mine.map((record) => record.value) : undefined
    })
    // The user appears by their keyed pseudonym, which an erasure makes unlinkable.
    const pseudonym = await harness.keyring.pseudonymOf(instance.instance.instance_id, userId)
    expect(pseudonym).toMatch(/^psn_[0-9a-f]{32}$/)
    expect(usage.find((event) => event.metric === 'graph_queries')).toMatchObject({
      value: 1,
      instance_id: instance.instance.instance_id,
      dimensions: { mode, user_id: pseudonym, customer_id: 'acme', operation: 'retrieval' },
    })
    expect(usage.find((event) => event.metric === 'vector_queries')?.value).toBeGreaterThanOrEqual(1)
  })
})

describe('keywords', () => {
  it.each(modes)(
    '%s search finds a memory by a rare keyword (BM25) that no embedding knows',
    async (mode) => {
      const results = await search({ query: rareWord, user_id: userId, customer_id: 'acme', limit: 3, mode })
      expect(ids.keyword).toContain(results[0]?.id)
    },
  )
})

describe('scopes', () => {
  const visible = async (scope: Partial<MemorySearchRequest>, api?: MemoryClient) =>
    new Set((await search({ query: marker, limit: 100, ...scope }, api)).map((hit) => hit.id))

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
    const fromOther = await visible({}, otherClient)
    expect([...fromOther].some((id) => !(ids.otherInstance ?? []).includes(id))).toBe(false)
  })

  it('an agent key (memories:read without instances:read) must name the user', async () => {
    expect(
      (await search({ query: marker, user_id: userId, customer_id: 'acme' }, agent)).length,
    ).toBeGreaterThan(0)
    expect(await refusal(agent.memories.search({ query: marker }))).toEqual({
      status: 403,
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

  it('combines conditions with and, or and not, metadata compared by type at any depth', async () => {
    const puppyOrEntity = await search({
      query: 'anything at all',
      ...alice,
      limit: 100,
      filters: { or: [{ 'metadata.topic': 'pets' }, { entity_name: 'professor okonkwo' }] },
    })
    expect(puppyOrEntity.map((hit) => hit.id).sort()).toEqual(
      [...(ids.puppy ?? []), ...(ids.entity ?? [])].sort(),
    )
    const entityNotPets = await search({
      query: 'anything at all',
      ...alice,
      limit: 100,
      filters: { entity_name: { contains: 'okonkwo' }, not: { 'metadata.topic': 'pets' } },
    })
    expect(entityNotPets.map((hit) => hit.id).sort()).toEqual([...(ids.entity ?? [])].sort())
    // As text "9" sorts after "10"; as numbers it does not.
    const older = await search({
      query: 'puppy',
      ...alice,
      filters: { 'metadata.dog.age_weeks': { gt: 10 } },
    })
    expect(older).toEqual([])
    const young = await search({
      query: 'puppy',
      ...alice,
      filters: { metadata: { dog: { age_weeks: { gte: 8, lt: 10 }, adopted_on: { gte: '2024-03-01' } } } },
    })
    expect(young.map((hit) => hit.id).sort()).toEqual([...(ids.puppy ?? [])].sort())
  })

  it('filters the list with the same language, sent as JSON text', async () => {
    const listed = await client.memories.list({
      user_id: userId,
      filters: {
        AND: [
          { 'metadata.topic': { in: ['pets', 'cars'] } },
          { created_at: { lte: new Date().toISOString() } },
        ],
      },
    })
    expect(listed.items.map((item) => item.id).sort()).toEqual([...(ids.puppy ?? [])].sort())
    expect(listed.total).toBe(ids.puppy?.length)
    const url = harness.gateway.addresses.http ?? ''
    for (const [filters, field] of [
      ['{"type":', 'filters'],
      ['{"type":"gossip"}', 'filters.type'],
      ['[1]', 'filters'],
    ] as const) {
      const reply = await request<ErrorBody>(
        url,
        'GET',
        `/v1/memories?filters=${encodeURIComponent(filters)}`,
        {
          apiKey: instance.api_key.key,
        },
      )
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body?.code).toBe('INVALID_INPUT')
      expect(Object.keys((reply.body?.details as { fields: Record<string, string> }).fields)).toEqual([field])
    }
  })

  it('returns at most limit results, every Memory field with a score, best first', async () => {
    for (const mode of modes) {
      const reply = await client.memories.search({ query: 'what happened', ...alice, limit: 2, mode })
      expect(exchanges.at(-1)?.status).toBe(200)
      expect(reply.mode).toBe(mode)
      expect(reply.took_ms).toEqual(expect.any(Number))
      const results = reply.results
      expect(results).toHaveLength(2)
      expect(Object.keys(results[0] ?? {}).sort()).toEqual(
        [
          'confidence',
          'content',
          'created_at',
          'entities',
          'expires_at',
          'feedback',
          'id',
          'metadata',
          'score',
          'scope',
          'source',
          'superseded_by',
          'type',
          'updated_at',
          'valid_from',
          'valid_to',
        ].sort(),
      )
      expect(results[0]?.score).toBeGreaterThanOrEqual(results[1]?.score ?? Infinity)
    }
    const defaults = await client.memories.search({ query: marker, ...alice })
    expect(defaults.mode).toBe('accurate')
  })

  /** Requests the client library sends: well typed, invalid by value. */
  const invalid: [string, MemorySearchRequest, string][] = [
    ['an empty query', { query: '' }, 'query'],
    ['a blank query', { query: '   ' }, 'query'],
    ['limit 0', { query: 'x', limit: 0 }, 'limit'],
    ['limit 101', { query: 'x', limit: 101 }, 'limit'],
    ['a malformed date', { query: 'x', filters: { created_after: 'yesterday' } }, 'filters.created_after'],
    [
      'an empty time range',
      {
        query: 'x',
        filters: { created_after: '2024-01-02T00:00:00Z', created_before: '2024-01-01T00:00:00Z' },
      },
      'filters.created_before',
    ],
  ]
  it.each(invalid)('rejects %s with INVALID_INPUT naming the field', async (_name, body, field) => {
    const refused = await refusal(client.memories.search(body))
    expect(refused).toMatchObject({ status: 400, code: 'INVALID_INPUT' })
    const fields = (refused.details as { fields: Record<string, string> }).fields
    expect(
      Object.keys(fields).some((name) => name.startsWith(field)),
      JSON.stringify(fields),
    ).toBe(true)
  })

  /** Bodies the typed client cannot send: a field missing, unknown or of the wrong type. */
  const malformed: [string, Record<string, unknown>, string][] = [
    ['no query', { user_id: 'u' }, 'query'],
    ['an unknown mode', { query: 'x', mode: 'exhaustive' }, 'mode'],
    ['an unknown field', { query: 'x', sort: 'date' }, 'sort'],
    ['an unknown type', { query: 'x', filters: { types: ['gossip'] } }, 'filters.types'],
    [
      'a comparison metadata cannot take',
      { query: 'x', filters: { metadata: { a: { gt: 'soon' } } } },
      'filters.metadata.a.gt',
    ],
    [
      'a filter nested too deep',
      { query: 'x', filters: { not: { not: { not: { not: { not: { type: 'fact' } } } } } } },
      'filters.not.not.not.not.not',
    ],
    [
      'an unknown field in an or',
      { query: 'x', filters: { or: [{ type: 'fact' }, { colour: 'red' }] } },
      'filters.or.1.colour',
    ],
  ]
  it.each(malformed)('rejects %s with INVALID_INPUT naming the field', async (_name, body, field) => {
    const reply = await request<ErrorBody>(
      harness.gateway.addresses.http ?? '',
      'POST',
      '/v1/memories/search',
      {
        apiKey: instance.api_key.key,
        json: body,
      },
    )
    expect(reply.status, reply.text).toBe(400)
    expect(reply.body?.code).toBe('INVALID_INPUT')
    const fields = (reply.body?.details as { fields: Record<string, string> }).fields
    expect(
      Object.keys(fields).some((name) => name.startsWith(field)),
      JSON.stringify(fields),
    ).toBe(true)
  })
})
