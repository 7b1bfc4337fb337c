import { IDEMPOTENCY_INDEX } from '@memory-service/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createElasticsearchClient, createElasticsearchStore } from '@memory-service/engines'
import { loadEngineDeclarations } from '@memory-service/engines'
import { createClaimStore } from './createClaimStore.js'

const client = createElasticsearchClient(testConfig().elasticsearch)
const index = uniqueName('test-idempotency')
const declaration = loadEngineDeclarations().indices.find((entry) => entry.name === IDEMPOTENCY_INDEX)
const request = (id: string) => ({
  instance_id: 'inst_0123456789abcdef',
  kind: 'event' as const,
  client_id: id,
  record_id: id,
})

beforeAll(async () => {
  if (!declaration) throw new Error('idempotency index is not declared')
  await createElasticsearchStore(client, index).ensureIndex(declaration.mappings, declaration.settings)
})
afterAll(async () => {
  await client.indices.delete({ index }, { ignore: [404] })
  await client.close()
})

describe('claim store on Elasticsearch', () => {
  it('lets exactly one of many concurrent claimers win an id', async () => {
    const stores = Array.from({ length: 10 }, (_, n) =>
      createClaimStore(client, { index, owner: `gateway-${n}` }),
    )
    const outcomes = await Promise.all(stores.map((store) => store.claim([request('evt-race')])))
    expect(outcomes.flat().filter((outcome) => outcome.outcome === 'claimed')).toHaveLength(1)
    expect(
      outcomes.flat().filter((outcome) => outcome.outcome === 'duplicate' && outcome.inFlight),
    ).toHaveLength(9)
  })

  it('answers duplicate, not in flight, once the claim is confirmed; and lets a retry claim a released id', async () => {
    const store = createClaimStore(client, { index, owner: 'gateway-a' })
    const [first] = await store.claim([request('evt-confirm')])
    const [second] = await store.claim([request('evt-release')])
    if (first?.outcome !== 'claimed' || second?.outcome !== 'claimed')
      throw new Error('expected fresh claims')
    await store.confirm([first.claim])
    await store.release([second.claim])
    const again = await store.claim([request('evt-confirm'), request('evt-release')])
    expect(again.map((outcome) => outcome.outcome)).toEqual(['duplicate', 'claimed'])
    expect(again[0]).toMatchObject({ inFlight: false, claim: { state: 'appended' } })
  })

  it('takes over a pending claim whose gateway died before appending, once its lease ran out', async () => {
    let clock = Date.parse('2026-11-22T12:00:00Z')
    const dead = createClaimStore(client, { index, owner: 'gateway-dead', leaseMs: 30_000, now: () => clock })
    const alive = createClaimStore(client, {
      index,
      owner: 'gateway-alive',
      leaseMs: 30_000,
      now: () => clock,
    })
    await dead.claim([request('evt-lease')])
    clock += 10_000
    expect((await alive.claim([request('evt-lease')]))[0]).toMatchObject({
      outcome: 'duplicate',
      inFlight: true,
    })
    clock += 25_000
    expect((await alive.claim([request('evt-lease')]))[0]).toMatchObject({
      outcome: 'claimed',
      claim: { owner: 'gateway-alive' },
    })
    expect((await dead.claim([request('evt-lease')]))[0]).toMatchObject({
      outcome: 'duplicate',
      inFlight: true,
    })
  })

  it('answers 503 SERVICE_UNAVAILABLE when Elasticsearch cannot be reached, so nothing is written', async () => {
    const unreachable = createElasticsearchClient({ url: 'http://127.0.0.1:1' })
    const store = createClaimStore(unreachable, { index, owner: 'gateway-cut-off' })
    await expect(store.claim([request('evt-outage')])).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { retry_after_seconds: 5, reason: 'idempotency_store_unavailable' },
    })
    await unreachable.close()
  })
})
