/**
 * User profiles on the real stack (issue 55): the profile read model projects the memory events, so a user's
 * profile names each attribute's current value, since when, the memory stating it and what it replaced; `as_of`
 * answers what held then; search answers a question about what holds now from it; an erasure empties it. Its
 * rebuild by replay is tested with the other projections' (replay.e2e.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import type { UserProfile } from '@memory-service/contracts'
import { createTestClient, refusal } from '../support/http.js'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient

async function remember(userId: string, document: string, at: string): Promise<string> {
  const { ingestion_id } = await client.memories.ingest({
    document,
    document_type: 'ai-chat-conversation',
    document_created_at: at,
    mode: 'fast',
    user_id: userId,
  })
  const job = await completedJob(client, ingestion_id)
  return job.memory_ids?.[0] ?? ''
}

const factsOf = (profile: UserProfile, attribute: string) =>
  profile.subjects.flatMap(({ subject, attributes }) =>
    attributes.filter((fact) => fact.attribute === attribute).map((fact) => ({ subject, ...fact })),
  )

beforeAll(async () => {
  harness = await startGatewayWithInstance('user-profile', { withWorkers: true })
  client = createTestClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
}, 120_000)

afterAll(async () => {
  await harness.close()
})

describe("a user's profile", () => {
  const userId = uniqueName('profile-user')
  let lisbon = ''
  let porto = ''

  beforeAll(async () => {
    lisbon = await remember(userId, 'Ana: I live in Lisbon, near the river.', '2023-01-10T09:00:00.000Z')
    await remember(userId, 'Ana: I baked a lemon cake for the neighbours.', '2023-05-02T09:00:00.000Z')
    porto = await remember(userId, 'Ana: We finally moved to Porto last month!', '2024-03-10T09:00:00.000Z')
  }, 180_000)

  it('names the current value, since when, the memory stating it and the value it replaced', async () => {
    const profile = await eventually(async () => {
      const read = await client.users.profile(userId)
      return factsOf(read, 'residence')[0]?.replaced.length ? read : undefined
    })
    expect(factsOf(profile, 'residence')).toEqual([
      expect.objectContaining({
        subject: 'ana',
        value: 'porto',
        memory_id: porto,
        replaced: [expect.objectContaining({ value: 'lisbon', memory_id: lisbon })],
      }),
    ])
    expect(profile).toMatchObject({ user_id: userId, as_of: null })
  })

  it('answers as_of a moment with the value then, and refuses an invalid moment with the spec error', async () => {
    const then = await client.users.profile(userId, { as_of: '2023-06-01T00:00:00.000Z' })
    expect(factsOf(then, 'residence').map(({ value, memory_id }) => ({ value, memory_id }))).toEqual([
      { value: 'lisbon', memory_id: lisbon },
    ])
    const before = await client.users.profile(userId, { as_of: '2020-01-01T00:00:00.000Z' })
    expect(before.subjects).toEqual([])
    const invalid = await refusal(client.users.profile(userId, { as_of: 'yesterday' }))
    expect(invalid).toMatchObject({ status: 400, code: 'INVALID_INPUT' })
  })

  it("answers a question about what holds now with the profile's memory first", async () => {
    const found = await client.memories.search({
      query: 'Which city does Ana live in?',
      user_id: userId,
      limit: 3,
    })
    expect(found.results[0]?.id).toBe(porto)
  })

  it('holds nothing of another user, and nothing of a user once erased', async () => {
    expect((await client.users.profile(uniqueName('nobody'))).subjects).toEqual([])
    await client.users.erase(userId)
    await eventually(async () =>
      (await client.users.profile(userId)).subjects.length === 0 ? true : undefined,
    )
  })
})
