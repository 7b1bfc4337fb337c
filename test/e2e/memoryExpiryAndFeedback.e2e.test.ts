/**
 * Expiry and feedback on the real stack. Expiry: a document's expires_at (or the instance's default time to live)
 * reaches its memories; an expired memory leaves search, list, context and GET, its deletion is appended to the log
 * caused by expiry (read back from Kafka) and shown in its history, and a rebuild from the log keeps it deleted.
 * Feedback: a change in the log with its history entry, a memory rated down ranked below one that is not, the same
 * feedback twice appended once, withdrawn, filtered on, and counted in analytics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import { allPermissions, MEMORIES_TOPIC } from '@memory-service/domain'
import { runReplay } from '@memory-service/cli'
import type { ErrorBody, MemoryChanged, Document } from '@memory-service/contracts'
import { createTestClient, refusal, request } from '../support/http.js'
import { eventually, readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
/** Another key: the one that proposes a configuration cannot approve it. */
let reviewer: MemoryClient
let baseUrl: string
let apiKey: string
let instanceId: string
const user = uniqueName('expiry-user')

async function remember(document: string, extra: Partial<Document> = {}): Promise<string> {
  const created = await client.memories.ingest({
    document,
    document_type: 'note',
    mode: 'fast',
    user_id: user,
    ...extra,
  })
  const job = await completedJob(client, created.ingestion_id)
  const [memoryId] = job.memory_ids ?? []
  if (!memoryId) throw new Error(`no memory of "${document}"`)
  return memoryId
}

const searched = async (query: string, mode: 'fast' | 'accurate' = 'accurate') =>
  (await client.memories.search({ query, user_id: user, mode, limit: 10 })).results.map((result) => result.id)

async function changesOf(memoryId: string): Promise<MemoryChanged[]> {
  const records = await readTopicToEnd<MemoryChanged>(harness.kafka, harness.codec, MEMORIES_TOPIC, {
    keys: new Set([memoryId]),
  })
  return records.map((record) => record.value)
}

beforeAll(async () => {
  // Sweeps every second, so the deletion follows an expiry within a test's patience.
  harness = await startGatewayWithInstance('memory-expiry', {
    withWorkers: true,
    env: { MEMORY_EXPIRY_SWEEP_SECONDS: '1' },
  })
  instanceId = harness.instance.instance.instance_id
  const key = await harness.tenancy.issueKey(instanceId, allPermissions, 'expiry-e2e')
  await harness.untilUsable(key.key)
  baseUrl = harness.gateway.addresses.http ?? ''
  apiKey = key.key
  client = createTestClient({ baseUrl, apiKey })
  const reviewerKey = await harness.tenancy.issueKey(instanceId, allPermissions, 'expiry-e2e-reviewer')
  await harness.untilUsable(reviewerKey.key)
  reviewer = createTestClient({ baseUrl, apiKey: reviewerKey.key })
}, 240_000)

afterAll(async () => {
  await harness.close()
})

describe('memory expiry', () => {
  it("gives a document's memories its expires_at, and refuses one that is not later than now", async () => {
    const tomorrow = new Date(Date.now() + 86_400_000)
    const memoryId = await remember('I keep my bike in the courtyard shed.', {
      expires_at: tomorrow.toISOString().replace('Z', '+00:00'),
    })
    expect((await client.memories.get(memoryId)).expires_at).toBe(tomorrow.toISOString())

    const past = await request<ErrorBody>(baseUrl, 'POST', '/v1/memories', {
      apiKey,
      json: {
        document: 'Old news.',
        document_type: 'note',
        mode: 'fast',
        expires_at: '2020-01-01T00:00:00Z',
      },
    })
    expect(past.status).toBe(400)
    expect(past.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { expires_at: expect.stringMatching(/later than now/) } },
    })
    const batch = await client.memories.ingestBatch([
      { document: 'Fresh news.', document_type: 'note', mode: 'fast' },
      { document: 'Old news.', document_type: 'note', mode: 'fast', expires_at: '2020-01-01T00:00:00Z' },
    ])
    expect(batch.results.map((result) => result.index)).toEqual([0])
    expect(batch.errors).toMatchObject([
      { index: 1, code: 'INVALID_INPUT', details: { fields: { expires_at: expect.any(String) } } },
    ])
    expect(
      await refusal(
        client.memories.update(memoryId, { expires_at: new Date(Date.now() - 1000).toISOString() }),
      ),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { fields: { expires_at: expect.any(String) } },
    })
  })

  it('leaves an expired memory out of search, list, context and GET, deletes it through the log, and a rebuild keeps it so', async () => {
    const since = new Date(Date.now() - 1000)
    const trial = await remember('I am on the Pro plan trial until Friday.')
    const lasting = await remember('I pay for the Team plan every month.')
    await eventually(async () =>
      (await searched('Which plan trial am I on?')).includes(trial) ? true : undefined,
    )
    const expiresAt = new Date(Date.now() + 4_000).toISOString()
    expect((await client.memories.update(trial, { expires_at: expiresAt })).expires_at).toBe(expiresAt)
    const conversation = uniqueName('expiry-conversation')
    const context = async () =>
      (
        await client.conversations.context(conversation, {
          user_id: user,
          query: 'Which plan trial am I on?',
        })
      ).memories.map((memory) => memory.id)
    const listed = async () =>
      (await client.memories.list({ user_id: user, page_size: 100 })).items.map((m) => m.id)
    expect(await listed()).toContain(trial)
    expect(await context()).toContain(trial)

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now())))
    // From its expiry on no reader shows it, whether or not its deletion is in the log yet.
    for (const mode of ['accurate', 'fast'] as const)
      expect(await searched('Which plan trial am I on?', mode)).not.toContain(trial)
    expect(await listed()).not.toContain(trial)
    expect(await listed()).toContain(lasting)
    expect(await context()).not.toContain(trial)
    expect(await refusal(client.memories.get(trial))).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect(await refusal(client.memories.update(trial, { confidence: 0.2 }))).toMatchObject({ status: 404 })

    // The sweep appends its deletion, caused by expiry, once (within the lease's time if another gateway held it).
    const deletion = await eventually(async () => {
      const last = (await changesOf(trial)).at(-1)
      return last?.change === 'deleted' ? last : undefined
    }, 90_000)
    expect(deletion).toMatchObject({ cause: { kind: 'expiry' }, memory: { expires_at: expiresAt } })
    expect((await changesOf(trial)).filter((change) => change.change === 'deleted')).toHaveLength(1)
    const history = await client.memories.history(trial)
    expect(history.changes.at(-1)).toMatchObject({ change: 'deleted', cause: { kind: 'expiry' } })
    expect(history.changes.at(-1)?.correlation_id).toMatch(/^expiry-/)

    const [vector] = await runReplay(
      harness.config,
      ['--projection', 'vector', '--from', since.toISOString()],
      harness.logger,
    )
    expect(vector?.events).toBeGreaterThanOrEqual(3)
    expect(await refusal(client.memories.get(trial))).toMatchObject({ status: 404 })
    expect((await client.memories.get(lasting)).id).toBe(lasting)
  })

  it("gives memories the instance's default time to live when their document names no expiry", async () => {
    const proposed = await client.configs.propose(instanceId, {
      storage: { expiry: { default_ttl_days: 30 } },
    })
    await reviewer.configs.review(instanceId, proposed.config_id, {
      decision: 'approve',
      comment: 'expiry e2e',
    })
    await reviewer.configs.apply(instanceId, proposed.config_id)
    const before = Date.now()
    const memoryId = await eventually(async () => {
      const id = await remember('I rent a locker at the gym near work.')
      const expires = (await client.memories.get(id)).expires_at
      // The gateway applies the version once it has read it back from the control topic.
      return expires ? id : undefined
    }, 60_000)
    const expiresAt = Date.parse((await client.memories.get(memoryId)).expires_at ?? '')
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000)
    const own = await remember('I water the office plants on Mondays.', {
      expires_at: '2099-06-01T00:00:00.000Z',
    })
    expect((await client.memories.get(own)).expires_at).toBe('2099-06-01T00:00:00.000Z')
  })
})

describe('memory feedback', () => {
  it('ranks a memory rated down below one that is not, as a change in the log and its history, once', async () => {
    const blue = await remember('I buy my coffee beans at Blue Bottle on Fridays.')
    const ritual = await remember('I buy my coffee beans at Ritual on Fridays.')
    const question = 'Where do I buy coffee beans at Blue Bottle?'
    await eventually(async () => {
      const found = await searched(question)
      return found.includes(blue) && found.includes(ritual) ? true : undefined
    })
    for (const mode of ['accurate', 'fast'] as const) {
      const unrated = await searched(question, mode)
      expect(unrated.indexOf(blue)).toBeLessThan(unrated.indexOf(ritual))
    }
    const rated = await client.memories.feedback(blue, { rating: 'very_negative', reason: 'Closed down' })
    expect(rated.feedback).toMatchObject({ rating: 'very_negative', reason: 'Closed down' })
    for (const mode of ['accurate', 'fast'] as const) {
      const ranked = await eventually(async () => {
        const found = await searched(question, mode)
        return found.indexOf(ritual) < found.indexOf(blue) ? found : undefined
      })
      expect(ranked).toContain(blue)
    }
    // The same feedback again: nothing appended.
    await client.memories.feedback(blue, { rating: 'very_negative', reason: 'Closed down' })
    const changes = await changesOf(blue)
    expect(changes.filter((change) => change.cause?.operation === 'feedback')).toHaveLength(1)
    expect((await client.memories.history(blue)).changes.at(-1)).toMatchObject({
      change: 'feedback',
      cause: { kind: 'api', operation: 'feedback' },
      feedback: { rating: 'very_negative', reason: 'Closed down' },
    })
    expect(
      (
        await client.memories.list({
          user_id: user,
          filters: { feedback: { in: ['negative', 'very_negative'] } },
        })
      ).items.map((memory) => memory.id),
    ).toEqual([blue])

    const withdrawn = await client.memories.feedback(blue, { rating: null })
    expect(withdrawn.feedback).toBeNull()
    const restored = await eventually(async () => {
      const found = await searched(question)
      return found.indexOf(blue) < found.indexOf(ritual) ? found : undefined
    })
    expect(restored).toContain(ritual)

    // Counted in analytics by rating (operation), once each.
    const hour = 3_600_000
    const window = {
      bucket: 'hour' as const,
      start: new Date(Date.now() - hour).toISOString(),
      end: new Date(Date.now() + hour).toISOString(),
    }
    const counted = await eventually(async () => {
      const answer = await client.analytics.metrics({
        instance_id: instanceId,
        metric: 'memory_feedback',
        group_by: 'operation',
        ...window,
      })
      const byRating = new Map<string, number>()
      for (const point of answer.data_points)
        byRating.set(point.group ?? '', (byRating.get(point.group ?? '') ?? 0) + point.value)
      return byRating.get('withdrawn') === 1 ? byRating : undefined
    }, 30_000)
    expect(Object.fromEntries(counted)).toEqual({ very_negative: 1, withdrawn: 1 })
  })

  it('refuses a rating it does not know, a reason without a rating, and a memory it does not have', async () => {
    const memoryId = await remember('I take the 7:40 ferry to work.')
    const unknown = await request<ErrorBody>(baseUrl, 'POST', `/v1/memories/${memoryId}/feedback`, {
      apiKey,
      json: { rating: 'meh' },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body?.code).toBe('INVALID_INPUT')
    expect(
      await refusal(client.memories.feedback(memoryId, { rating: null, reason: 'why not' })),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { fields: { reason: expect.any(String) } },
    })
    expect(
      await refusal(client.memories.feedback('mem_000000000000000000000000', { rating: 'positive' })),
    ).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      details: { memory_id: 'mem_000000000000000000000000' },
    })
    const other = await harness.createInstance('memory-expiry-other')
    await harness.untilUsable(other.api_key.key)
    const stranger = createTestClient({ baseUrl, apiKey: other.api_key.key })
    expect(await refusal(stranger.memories.feedback(memoryId, { rating: 'positive' }))).toMatchObject({
      status: 404,
    })
  })
})
