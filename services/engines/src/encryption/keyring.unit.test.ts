import { describe, expect, it } from 'vitest'
import type { DataKeyStore, StoredDataKey } from './dataKeyStore.js'
import {
  createKeyring,
  isKeyStoreUnavailable,
  masterKeyFrom,
  subjectIdOf,
  UnknownMasterKeyError,
} from './keyring.js'

/** The store as a map, counting reads: the keyring's caching and wrapping are what is tested here. */
function memoryStore() {
  const keys = new Map<string, { key: StoredDataKey; seqNo: number }>()
  let reads = 0
  let seq = 0
  const store: DataKeyStore = {
    get: (id) => {
      reads += 1
      return Promise.resolve(keys.get(id)?.key)
    },
    createIfAbsent: (id, key) => {
      const existing = keys.get(id)
      if (existing) return Promise.resolve(existing.key)
      keys.set(id, { key, seqNo: (seq += 1) })
      return Promise.resolve(key)
    },
    destroy: (id) => Promise.resolve(keys.delete(id)),
    usersOfPseudonyms: (instanceId, pseudonyms) =>
      Promise.resolve(
        new Map(
          [...keys.values()]
            .filter(({ key }) => key.instance_id === instanceId && pseudonyms.includes(key.pseudonym))
            .map(({ key }) => [key.pseudonym, key.user_id]),
        ),
      ),
    async *scan() {
      for (await Promise.resolve(); ;) {
        for (const [subjectId, { key, seqNo }] of keys) yield { subjectId, key, seqNo, primaryTerm: 1 }
        return
      }
    },
    replace: (id, key, seqNo) => {
      if (keys.get(id)?.seqNo !== seqNo) return Promise.resolve(false)
      keys.set(id, { key, seqNo: (seq += 1) })
      return Promise.resolve(true)
    },
  }
  return { store, keys, reads: () => reads }
}

const master = masterKeyFrom('11'.repeat(32))
const nextMaster = masterKeyFrom('22'.repeat(32))
const instance = 'inst_0123456789abcdef'

describe('the keyring', () => {
  it('creates a key on first use, stores it only wrapped, and gives the same key to every later call', async () => {
    const { store, keys } = memoryStore()
    const keyring = createKeyring({ store, master, cacheMs: 1000 })
    const first = await keyring.keyFor(instance, 'ana')
    const again = await keyring.keyFor(instance, 'ana')
    expect(again.key.equals(first.key)).toBe(true)
    expect(first.ref).toMatch(/^[0-9a-f]{32}\.[0-9a-f]{16}$/)
    const stored = keys.get(subjectIdOf(instance, 'ana'))?.key
    expect(stored?.wrapped).not.toContain(first.key.toString('base64url'))
    expect(stored?.wrapped).toMatch(new RegExp(`^v1\\.${master.id}\\.`))
    // Another process (another keyring on the same store) opens it.
    const other = createKeyring({ store, master, cacheMs: 1000 })
    expect((await other.keyOf(first.ref))?.equals(first.key)).toBe(true)
    expect(await other.pseudonymOf(instance, 'ana')).toBe(first.pseudonym)
    expect((await keyring.keyFor(instance, 'bo')).pseudonym).not.toBe(first.pseudonym)
  })

  it('makes one key for a burst of calls for a new subject', async () => {
    const { store, keys } = memoryStore()
    const keyring = createKeyring({ store, master, cacheMs: 1000 })
    const refs = await Promise.all(Array.from({ length: 20 }, () => keyring.keyFor(instance, 'ana')))
    expect(new Set(refs.map((key) => key.ref)).size).toBe(1)
    expect(keys.size).toBe(1)
  })

  it('trusts its cache until it expires, then sees another process’s erasure', async () => {
    const { store, reads } = memoryStore()
    let now = 0
    const reader = createKeyring({ store, master, cacheMs: 30_000, now: () => now })
    const eraser = createKeyring({ store, master, cacheMs: 30_000, now: () => now })
    const { ref } = await createKeyring({ store, master, cacheMs: 0 }).keyFor(instance, 'ana')
    expect(await reader.keyOf(ref)).toBeDefined()
    const readsBefore = reads()
    expect(await reader.keyOf(ref)).toBeDefined()
    expect(reads()).toBe(readsBefore)

    expect(await eraser.destroy(instance, 'ana')).toBe(true)
    expect(await eraser.keyOf(ref)).toBeUndefined()
    now += 29_999
    expect(await reader.keyOf(ref)).toBeDefined()
    now += 2
    expect(await reader.keyOf(ref)).toBeUndefined()
    expect(await reader.pseudonymOf(instance, 'ana')).toBeUndefined()
    expect(await eraser.destroy(instance, 'ana')).toBe(false)
  })

  it('gives a subject who comes back after an erasure a new key, which does not open the old records', async () => {
    const { store } = memoryStore()
    const keyring = createKeyring({ store, master, cacheMs: 60_000 })
    const before = await keyring.keyFor(instance, 'ana')
    await keyring.destroy(instance, 'ana')
    const after = await keyring.keyFor(instance, 'ana')
    expect(after.ref).not.toBe(before.ref)
    expect(after.key.equals(before.key)).toBe(false)
    expect(await keyring.keyOf(before.ref)).toBeUndefined()
    expect((await createKeyring({ store, master, cacheMs: 0 }).keyOf(after.ref))?.equals(after.key)).toBe(
      true,
    )
  })

  it('rotates the master key: old keys open with the previous master until rewrapped, then with the new alone', async () => {
    const { store, keys } = memoryStore()
    const old = await createKeyring({ store, master, cacheMs: 0 }).keyFor(instance, 'ana')
    const withoutPrevious = createKeyring({ store, master: nextMaster, cacheMs: 0 })
    await expect(withoutPrevious.keyOf(old.ref)).rejects.toBeInstanceOf(UnknownMasterKeyError)

    const rotating = createKeyring({ store, master: nextMaster, previousMasters: [master], cacheMs: 0 })
    expect((await rotating.keyOf(old.ref))?.equals(old.key)).toBe(true)
    await rotating.keyFor(instance, 'bo')
    expect(await rotating.rewrapAll()).toEqual({ keys: 2, rewrapped: 1, unreadable: 0 })
    expect([...keys.values()].every(({ key }) => key.master_key_id === nextMaster.id)).toBe(true)
    expect((await withoutPrevious.keyOf(old.ref))?.equals(old.key)).toBe(true)
    expect(await rotating.rewrapAll()).toEqual({ keys: 2, rewrapped: 0, unreadable: 0 })
  })

  it('names the users behind pseudonyms while they have a key', async () => {
    const { store } = memoryStore()
    const keyring = createKeyring({ store, master, cacheMs: 0 })
    const ana = (await keyring.keyFor(instance, 'ana')).pseudonym
    const bo = (await keyring.keyFor(instance, 'bo')).pseudonym
    await keyring.destroy(instance, 'bo')
    expect(await keyring.usersOfPseudonyms(instance, [ana, bo])).toEqual(new Map([[ana, 'ana']]))
  })

  it('reads a store that does not answer as an outage, never as an erased subject, and remembers nothing of it', async () => {
    const { store } = memoryStore()
    const { ref, key } = await createKeyring({ store, master, cacheMs: 0 }).keyFor(instance, 'ana')
    let down = true
    const flaky: DataKeyStore = {
      ...store,
      get: (id) => (down ? Promise.reject(new Error('connect ECONNREFUSED')) : store.get(id)),
    }
    const keyring = createKeyring({ store: flaky, master, cacheMs: 60_000 })
    const failure: unknown = await keyring.keyOf(ref).catch((error: unknown) => error)
    expect(isKeyStoreUnavailable(failure)).toBe(true)
    expect(isKeyStoreUnavailable(await keyring.keyFor(instance, 'bo').catch((error: unknown) => error))).toBe(
      true,
    )
    down = false
    expect((await keyring.keyOf(ref))?.equals(key)).toBe(true)
  })
})
