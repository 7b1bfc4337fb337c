/**
 * The client library against the real stack: its typed methods across the routes, the error mapping of real error
 * answers, and the retry policy on a real 429 (a free-tier key out of tokens) — retried after Retry-After, while
 * 4xx answers and the compaction conflict are not retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AuthenticationError,
  ConflictError,
  createMemoryClient,
  InvalidInputError,
  NotFoundError,
  RateLimitError,
  type MemoryClient,
} from '@memory-service/client'
import { allPermissions, IDEMPOTENCY_INDEX } from '@memory-service/domain'
import { createClaimStore } from '@memory-service/commands'
import { createElasticsearchClient } from '@memory-service/engines'
import { type CreatedInstance, type TranscriptRequest } from '@memory-service/contracts'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let client: MemoryClient
let baseUrl: string
/** Every request the library sent, by method and path. */
const sent: string[] = []
const counting: typeof fetch = async (input, init) => {
  sent.push(
    `${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : input.toString()).pathname}`,
  )
  return fetch(input, init)
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('client-library', { withWorkers: true })
  instance = harness.instance
  baseUrl = harness.gateway.addresses.http ?? ''
  client = createMemoryClient({ baseUrl, apiKey: instance.api_key.key, fetch: counting })
})

afterAll(async () => {
  await harness.close()
})

const user = uniqueName('client-user')

describe('typed methods on the real stack', () => {
  it('ingests a document, follows its job, reads and searches its memories', async () => {
    const accepted = await client.memories.ingest({
      document: 'My sister Clara works as a nurse in Lisbon. I love spicy ramen.',
      document_type: 'note',
      mode: 'fast',
      user_id: user,
    })
    const job = await completedJob(client, accepted.ingestion_id)
    const [memoryId] = job.memory_ids ?? []
    expect(memoryId).toBeDefined()
    const memory = await client.memories.get(memoryId ?? '')
    expect(memory.scope.user_id).toBe(user)
    // Search and list are near real time (the index refresh); a single read is real time.
    const found = await eventually(async () => {
      const reply = await client.memories.search({
        query: 'where does Clara work',
        user_id: user,
        mode: 'fast',
      })
      return reply.results.some((hit) => hit.id === memoryId) ? reply : undefined
    })
    expect(found.mode).toBe('fast')
    const listed = await client.memories.list({ user_id: user })
    expect(listed.total).toBeGreaterThan(0)
  })

  it('sends events, ingests a transcript, fetches context and compacts', async () => {
    const conversationId = uniqueName('client-conv')
    const events = await client.events.send([
      { event_type: 'user_message', conversation_id: conversationId, user_id: user, content: 'Hello there.' },
    ])
    expect(events.accepted).toBe(1)
    const transcriptId = uniqueName('client-transcript')
    const messages = Array.from({ length: 8 }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Statement number ${String(index)} about the Lisbon trip with Clara.`,
    })) as TranscriptRequest['messages']
    expect(await client.conversations.ingestTranscript(transcriptId, { user_id: user, messages })).toEqual({
      conversation_id: transcriptId,
      status: 'accepted',
      messages: 8,
    })
    expect(
      (await client.conversations.ingestTranscript(transcriptId, { user_id: user, messages })).status,
    ).toBe('duplicate')
    await expect(
      client.conversations.ingestTranscript(transcriptId, {
        user_id: user,
        messages: messages.slice(1) as TranscriptRequest['messages'],
      }),
    ).rejects.toMatchObject({
      code: 'TRANSCRIPT_CONFLICT',
      status: 409,
      details: { code: 'transcript_conflict' },
    })
    const context = await eventually(async () => {
      const fetched = await client.conversations.context(transcriptId, { user_id: user })
      return fetched.recent_turns.length === 8 ? fetched : undefined
    })
    expect(context.summary).toBeNull()
    const compacted = await client.conversations.compact(transcriptId, { user_id: user, keep_recent: 2 })
    expect(compacted).toMatchObject({ status: 'compacted', compacted_turns: 6 })
  })

  it('drives a configuration through its lifecycle', async () => {
    const instanceId = instance.instance.instance_id
    const reviewer = createMemoryClient({
      baseUrl,
      apiKey: (await harness.tenancy.issueKey(instanceId, allPermissions, 'client-e2e')).key,
    })
    await harness.untilUsable(
      (await harness.tenancy.issueKey(instanceId, ['configs:read'], 'client-e2e')).key,
    )
    expect((await client.configs.init(instanceId)).status).toBe('active')
    const proposed = await client.configs.propose(instanceId, 'retrieval:\n  max_results: 5\n')
    expect(proposed.status).toBe('pending_review')
    await expect(client.configs.apply(instanceId, proposed.config_id)).rejects.toMatchObject({
      code: 'CONFIG_CONFLICT',
    })
    await reviewer.configs.review(instanceId, proposed.config_id, { decision: 'approve', comment: 'fine' })
    expect((await reviewer.configs.apply(instanceId, proposed.config_id)).status).toBe('active')
    expect((await client.configs.current(instanceId)).config.config_id).toBe(proposed.config_id)
    expect((await client.configs.list(instanceId, { status: 'superseded' })).total).toBe(1)
    const invalid = await client.configs
      .propose(instanceId, { retrieval: { context_budget: 10 } })
      .catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(InvalidInputError)
    expect(invalid).toMatchObject({ code: 'CONFIG_VALIDATION_ERROR' })
  })

  it('reads analytics and dashboard routes', async () => {
    const instanceId = instance.instance.instance_id
    const summary = await client.analytics.summary({ instance_id: instanceId, period: '24h' })
    expect(summary.instance_id).toBe(instanceId)
    const instances = await client.instances.list()
    expect(instances.items.map((item) => item.instance_id)).toContain(instanceId)
  })
})

describe('errors and retries', () => {
  it('maps real error answers to the library’s errors, without retrying them', async () => {
    sent.length = 0
    await expect(client.memories.get('mem_000000000000000000000000')).rejects.toBeInstanceOf(NotFoundError)
    await expect(client.memories.search({ query: '', user_id: user })).rejects.toBeInstanceOf(
      InvalidInputError,
    )
    const stranger = createMemoryClient({
      baseUrl,
      apiKey: 'msk_0000000000000000_not-a-key',
      fetch: counting,
    })
    await expect(stranger.liveness()).resolves.toEqual({ status: 'ok' })
    await expect(stranger.instances.list()).rejects.toBeInstanceOf(AuthenticationError)
    expect(sent).toHaveLength(4)
  })

  it('a compaction conflict is permanent: one request, ConflictError', async () => {
    const conversationId = uniqueName('client-locked')
    await client.events.send([
      { event_type: 'user_message', conversation_id: conversationId, user_id: user, content: 'One.' },
    ])
    const elasticsearch = createElasticsearchClient(harness.config.elasticsearch)
    const claims = createClaimStore(elasticsearch, { index: IDEMPOTENCY_INDEX, owner: 'client-e2e' })
    const [held] = await claims.claim([
      {
        instance_id: instance.instance.instance_id,
        kind: 'compaction',
        client_id: conversationId,
        record_id: 'cmp_00000000000000000000000000000002',
      },
    ])
    sent.length = 0
    const error = await client.conversations
      .compact(conversationId, { user_id: user })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ConflictError)
    expect(error).toMatchObject({ code: 'COMPACTION_IN_PROGRESS', status: 409 })
    expect(sent).toHaveLength(1)
    if (held) await claims.release([held.claim])
    await elasticsearch.close()
  })

  it('a real 429 is retried after Retry-After and then answered', async () => {
    const free = await harness.tenancy.createInstance(
      { clientId: uniqueName('cli'), name: 'client-free', tier: 'free' },
      'client-e2e',
    )
    await harness.untilUsable(free.api_key.key)
    const impatient = createMemoryClient({ baseUrl, apiKey: free.api_key.key, retry: { maxAttempts: 1 } })
    // The burst is 10: the key runs dry within a few requests.
    let limited: unknown
    for (let index = 0; index < 15 && !limited; index += 1) {
      limited = await impatient.instances.list().then(
        () => undefined,
        (error: unknown) => error,
      )
    }
    expect(limited).toBeInstanceOf(RateLimitError)
    const retryAfter = (limited as RateLimitError).retryAfterSeconds
    expect(retryAfter).toBeGreaterThan(0)

    const retries: { status: number | null; delayMs: number }[] = []
    const patient = createMemoryClient({
      baseUrl,
      apiKey: free.api_key.key,
      onRetry: ({ status, delayMs }) => retries.push({ status, delayMs }),
    })
    const started = Date.now()
    const listed = await patient.instances.list()
    expect(listed.items.map((item) => item.instance_id)).toContain(free.instance.instance_id)
    expect(retries.length).toBeGreaterThan(0)
    expect(retries[0]?.status).toBe(429)
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1000)
    expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]?.delayMs ?? 0)
  })
})
