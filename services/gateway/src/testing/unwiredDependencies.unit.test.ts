import { describe, expect, it } from 'vitest'
import { unwiredDependencies } from './unwiredDependencies.js'

describe('unwiredDependencies', () => {
  it('gives every dependency, each throwing when a test reaches what it did not wire', async () => {
    const deps = unwiredDependencies()
    expect(() => deps.memories.store.get('mem_x')).toThrow(
      'memories.store.get is not wired in this test; pass it to unwiredDependencies({ ... })',
    )
    expect(() => deps.search.settingsOf('inst_x')).toThrow(/^search\.settingsOf is not wired in this test/)
    await expect(async () => deps.checkReadiness()).rejects.toThrow(/^checkReadiness is not wired/)
  })

  it('is not a promise, so awaiting or resolving a stand-in does not call it', async () => {
    const { tenancy } = unwiredDependencies()
    expect(await Promise.resolve(tenancy)).toBe(tenancy)
  })

  it('keeps what a test passes', () => {
    const checkReadiness = async () => ({ status: 'ready' as const, checks: [] })
    const deps = unwiredDependencies({ checkReadiness })
    expect(deps).toHaveProperty('checkReadiness', checkReadiness)
  })
})
