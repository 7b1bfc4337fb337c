import { afterAll, describe, expect, it } from 'vitest'
import type { Lease } from '@memory-service/domain'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createElasticsearchClient } from './createElasticsearchStore.js'
import { createLeaseStore } from './leaseStore.js'

const client = createElasticsearchClient(testConfig().elasticsearch)
const index = uniqueName('test-leases')
afterAll(async () => {
  await client.indices.delete({ index }, { ignore: [404] })
  await client.close()
})

describe('leases on Elasticsearch', () => {
  it('of five processes racing for a name, one holds it at a time; each gets it when the previous releases', async () => {
    let holding = 0
    let most = 0
    const held: string[] = []
    await Promise.all(
      Array.from({ length: 5 }, async (_, n) => {
        const leases = createLeaseStore(client, { index, holder: `process-${String(n)}` })
        const lease = await leases.acquire('rebuild-vector', { pollMs: 20 })
        holding += 1
        most = Math.max(most, holding)
        held.push(lease.holder)
        await new Promise((resolve) => setTimeout(resolve, 30))
        holding -= 1
        await lease.release()
      }),
    )
    expect(most).toBe(1)
    expect(new Set(held).size).toBe(5)
  })

  it('a waiting process hears who holds the name; a lease its holder stopped renewing is taken over', async () => {
    const name = uniqueName('rebuild-graph')
    const first = await createLeaseStore(client, { index, holder: 'crashed', ttlMs: 60_000 }).acquire(name)
    const waits: Lease[] = []
    // Another process's clock is past the lease's expiry: it may take it over.
    const later = createLeaseStore(client, { index, holder: 'survivor', now: () => Date.now() + 61_000 })
    const second = await later.acquire(name, { onWait: (lease) => waits.push(lease), pollMs: 20 })
    expect(second.holder).toBe('survivor')
    expect(waits).toEqual([])
    // One that is not past it waits, and is told by whom.
    const third = createLeaseStore(client, { index, holder: 'patient' }).acquire(name, {
      onWait: (lease) => waits.push(lease),
      pollMs: 20,
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(waits.map((lease) => lease.holder)).toEqual(['survivor'])
    await second.release()
    expect((await third).holder).toBe('patient')
    // The crashed holder's release does not free what the survivor and the patient one took since.
    await first.release()
    expect((await client.get<Lease>({ index, id: name }))._source?.holder).toBe('patient')
  })
})
