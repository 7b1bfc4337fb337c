import { describe, expect, it } from 'vitest'
import { AppError } from '../errors/appError.js'
import { generateApiKey, hashApiKey, parseBearer } from './apiKeys.js'
import {
  authenticate,
  requireClientInstance,
  requireOwnInstance,
  requirePermission,
} from './authorization.js'
import { createControlEventFactory } from './controlEvents.js'
import { applyControlEvent, emptyControlState, listInstances } from './controlState.js'
import { permissionPresets } from './permissions.js'
import { resolveRateLimit } from './tiers.js'
import { takeToken } from './tokenBucket.js'

let clock = Date.parse('2026-11-22T10:00:00Z')
const events = createControlEventFactory({ now: () => new Date((clock += 1000)) })

function seeded() {
  const state = emptyControlState()
  const apply = (...list: Parameters<typeof applyControlEvent>[1][]) =>
    list.map((event) => applyControlEvent(state, event))
  const clientA = 'cli_aaaaaaaaaaaaaaaa'
  const clientB = 'cli_bbbbbbbbbbbbbbbb'
  const a1 = events.instanceCreated({
    clientId: clientA,
    name: 'a1',
    tier: 'pro',
    rateLimit: { requests_per_minute: 600, burst: 50 },
  })
  const a2 = events.instanceCreated({
    clientId: clientA,
    name: 'a2',
    tier: 'free',
    rateLimit: { requests_per_minute: 60, burst: 10 },
  })
  const b1 = events.instanceCreated({
    clientId: clientB,
    name: 'b1',
    tier: 'free',
    rateLimit: { requests_per_minute: 60, burst: 10 },
  })
  const adminA1 = events.apiKeyIssued(a1.instance_id, permissionPresets.admin)
  const readerA1 = events.apiKeyIssued(a1.instance_id, permissionPresets['read-only'])
  const adminB1 = events.apiKeyIssued(b1.instance_id, permissionPresets.admin)
  apply(a1, a2, b1, adminA1.event, readerA1.event, adminB1.event)
  return { state, apply, a1, a2, b1, adminA1, readerA1, adminB1 }
}

function codeOf(action: () => unknown): string | undefined {
  try {
    action()
  } catch (error) {
    if (error instanceof AppError) return error.code
    throw error
  }
  return undefined
}

describe('API keys', () => {
  it('are long random secrets whose hash is all the service keeps', () => {
    const key = generateApiKey()
    expect(key.key).toMatch(/^msk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expect(key.key_id).toBe(`key_${key.key.slice(4, 20)}`)
    expect(key.key_prefix).toBe(key.key.slice(0, 20))
    expect(key.key_hash).toBe(hashApiKey(key.key))
    expect(key.key_hash).not.toContain(key.key.slice(21))
    expect(generateApiKey().key).not.toBe(key.key)
  })

  it('are read only from a well-formed Bearer header', () => {
    const { key } = generateApiKey()
    expect(parseBearer(`Bearer ${key}`)).toEqual({ token: key })
    expect(parseBearer(`bearer ${key}`)).toEqual({ token: key })
    for (const header of [
      undefined,
      '',
      key,
      `Basic ${key}`,
      'Bearer ',
      `Bearer ${key} extra`,
      'Bearer msk_short',
      [`Bearer ${key}`, `Bearer ${key}`],
    ]) {
      expect(parseBearer(header), String(header)).toHaveProperty('problem')
    }
  })
})

describe('control read model', () => {
  it('authenticates an active key to its instance and client', () => {
    const { state, a1, adminA1 } = seeded()
    const principal = authenticate(state, `Bearer ${adminA1.key.key}`)
    expect(principal.instance.instance_id).toBe(a1.instance_id)
    expect(principal.key.permissions).toEqual(permissionPresets.admin)
  })

  it('answers UNAUTHORIZED for a missing, malformed or unknown key', () => {
    const { state } = seeded()
    expect(codeOf(() => authenticate(state, undefined))).toBe('UNAUTHORIZED')
    expect(codeOf(() => authenticate(state, 'Bearer nope'))).toBe('UNAUTHORIZED')
    expect(codeOf(() => authenticate(state, `Bearer ${generateApiKey().key}`))).toBe('UNAUTHORIZED')
  })

  it('answers CREDENTIAL_INVALID for a rotated key, and the new key has the same permissions', () => {
    const { state, apply, readerA1 } = seeded()
    const record = state.keysById.get(readerA1.key.key_id)
    if (!record) throw new Error('seed missing')
    const rotated = events.apiKeyRotated(record)
    expect(apply(rotated.event)).toEqual([{ applied: true }])
    expect(codeOf(() => authenticate(state, `Bearer ${readerA1.key.key}`))).toBe('CREDENTIAL_INVALID')
    expect(authenticate(state, `Bearer ${rotated.key.key}`).key.permissions).toEqual(
      permissionPresets['read-only'],
    )
    expect(state.keysById.get(readerA1.key.key_id)).toMatchObject({
      status: 'rotated',
      replaced_by: rotated.key.key_id,
    })
  })

  it('answers CREDENTIAL_INVALID for a revoked key', () => {
    const { state, apply, adminA1 } = seeded()
    const record = state.keysById.get(adminA1.key.key_id)
    if (!record) throw new Error('seed missing')
    apply(events.apiKeyRevoked(record))
    expect(codeOf(() => authenticate(state, `Bearer ${adminA1.key.key}`))).toBe('CREDENTIAL_INVALID')
  })

  it('lets only the first of two racing rotations take effect, on every reader alike', () => {
    const { state, apply, adminA1 } = seeded()
    const record = state.keysById.get(adminA1.key.key_id)
    if (!record) throw new Error('seed missing')
    const first = events.apiKeyRotated({ ...record })
    const second = events.apiKeyRotated({ ...record })
    expect(apply(first.event, second.event)).toEqual([
      { applied: true },
      { applied: false, reason: 'key is rotated' },
    ])
    expect(codeOf(() => authenticate(state, `Bearer ${second.key.key}`))).toBe('UNAUTHORIZED')
    expect(authenticate(state, `Bearer ${first.key.key}`).key.key_id).toBe(first.key.key_id)
  })

  it('ignores a replayed event and a key for an unknown instance', () => {
    const { state, apply, a1 } = seeded()
    const again = events.instanceCreated({
      clientId: 'cli_cccccccccccccccc',
      name: 'x',
      tier: 'free',
      rateLimit: { requests_per_minute: 60, burst: 10 },
    })
    expect(apply(again, again)).toEqual([
      { applied: true },
      { applied: false, reason: 'event already applied' },
    ])
    const orphan = events.apiKeyIssued('inst_0000000000000000', permissionPresets.admin)
    expect(apply(orphan.event)).toEqual([{ applied: false, reason: 'unknown instance' }])
    expect(state.instances.get(a1.instance_id)?.name).toBe('a1')
  })

  it('lists only the caller client instances, oldest first, one page at a time', () => {
    const { state, a1, a2 } = seeded()
    expect(listInstances(state, a1.client_id, 1, 1)).toMatchObject({
      page: 1,
      page_size: 1,
      total: 2,
      has_more: true,
    })
    expect(listInstances(state, a1.client_id, 1, 1).items.map((item) => item.instance_id)).toEqual([
      a1.instance_id,
    ])
    expect(listInstances(state, a1.client_id, 2, 1).items.map((item) => item.instance_id)).toEqual([
      a2.instance_id,
    ])
    expect(listInstances(state, a1.client_id, 3, 1)).toMatchObject({ items: [], total: 2, has_more: false })
  })
})

describe('authorization', () => {
  it('names the missing permission and the key permissions', () => {
    const { state, readerA1 } = seeded()
    const reader = authenticate(state, `Bearer ${readerA1.key.key}`)
    let caught: unknown
    try {
      requirePermission(reader, 'instances:write')
    } catch (error) {
      caught = error
    }
    expect(caught).toMatchObject({
      code: 'FORBIDDEN',
      details: {
        required_permission: 'instances:write',
        current_permissions: permissionPresets['read-only'],
      },
    })
  })

  it('gives a read-only key no admin permission', () => {
    for (const admin of ['instances:write', 'configs:write', 'configs:review'] as const) {
      expect(permissionPresets['read-only']).not.toContain(admin)
    }
  })

  it('hides another client instance exactly like a missing one', () => {
    const { state, adminA1, a2, b1 } = seeded()
    const principal = authenticate(state, `Bearer ${adminA1.key.key}`)
    expect(requireClientInstance(state, principal, a2.instance_id).name).toBe('a2')
    expect(codeOf(() => requireClientInstance(state, principal, b1.instance_id))).toBe('INSTANCE_NOT_FOUND')
    expect(codeOf(() => requireClientInstance(state, principal, 'inst_ffffffffffffffff'))).toBe(
      'INSTANCE_NOT_FOUND',
    )
  })

  it('keeps memory data to the key own instance, even within one client', () => {
    const { state, adminA1, a1, a2 } = seeded()
    const principal = authenticate(state, `Bearer ${adminA1.key.key}`)
    expect(requireOwnInstance(principal, a1.instance_id).instance_id).toBe(a1.instance_id)
    expect(codeOf(() => requireOwnInstance(principal, a2.instance_id))).toBe('INSTANCE_NOT_FOUND')
  })
})

describe('tiers and token bucket', () => {
  it('gives free and pro the spec limits, and requires custom limits for enterprise only', () => {
    expect(resolveRateLimit('free', undefined)).toEqual({ requests_per_minute: 60, burst: 10 })
    expect(resolveRateLimit('pro', undefined)).toEqual({ requests_per_minute: 600, burst: 50 })
    expect(resolveRateLimit('enterprise', { requests_per_minute: 6000, burst: 300 })).toEqual({
      requests_per_minute: 6000,
      burst: 300,
    })
    expect(resolveRateLimit('enterprise', undefined)).toHaveProperty('problem')
    expect(resolveRateLimit('pro', { requests_per_minute: 1, burst: 1 })).toHaveProperty('problem')
  })

  it('allows a burst, then one request per refill interval', () => {
    const limit = { requests_per_minute: 60, burst: 10 }
    let bucket
    const start = 1_000_000
    for (let index = 0; index < 10; index += 1) {
      const decision = takeToken(bucket, start, limit)
      expect(decision.allowed).toBe(true)
      expect(decision.remaining).toBe(9 - index)
      bucket = decision.bucket
    }
    const denied = takeToken(bucket, start, limit)
    expect(denied).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 })
    expect(denied.resetAtSeconds).toBe(Math.ceil((start + 10_000) / 1000))
    expect(takeToken(denied.bucket, start + 999, limit).allowed).toBe(false)
    expect(takeToken(denied.bucket, start + 1000, limit).allowed).toBe(true)
  })
})
