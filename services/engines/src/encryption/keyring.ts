import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto'
import type { DataKeyStore, StoredDataKey } from './dataKeyStore.js'

/**
 * Data keys per data subject (an instance's user): created on the subject's first record, wrapped by the master key
 * before they are stored, cached unwrapped for a short while, destroyed by an erasure. Records refer to a key by
 * `<subject id>.<key id>`; the subject id is a hash of (instance, user), the key id is random, so a subject that
 * comes back after an erasure gets a new key and what was sealed before stays unreadable.
 */

/** A 32-byte master key and the id records of its wrapped keys carry (the first bytes of its hash). */
export interface MasterKey {
  id: string
  key: Buffer
}

export function masterKeyFrom(text: string): MasterKey {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64')
  if (key.length !== 32) throw new Error('a master key is 32 bytes (64 hex characters or base64)')
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key }
}

/** The fixed master key used when ENCRYPTION_MASTER_KEY is not set: for development only (it is public). */
export const DEVELOPMENT_MASTER_KEY = masterKeyFrom(
  createHash('sha256')
    .update('memory-service development master key (set ENCRYPTION_MASTER_KEY)')
    .digest('hex'),
)

export interface SealingKey {
  /** What a record names its key by. */
  ref: string
  key: Buffer
  /** The subject's keyed pseudonym: stable while the key lives, unlinkable to the user once it is destroyed. */
  pseudonym: string
}

export interface Keyring {
  /** The subject's key, created on first use. */
  keyFor(instanceId: string, userId: string): Promise<SealingKey>
  /** The key a record names; undefined when it was destroyed (its subject was erased). */
  keyOf(ref: string): Promise<Buffer | undefined>
  /** The pseudonym of a subject that has a key, without creating one. */
  pseudonymOf(instanceId: string, userId: string): Promise<string | undefined>
  /** The users behind pseudonyms of an instance, for those who still have a key (an erased user stays a pseudonym). */
  usersOfPseudonyms(instanceId: string, pseudonyms: string[]): Promise<Map<string, string>>
  /** Destroys the subject's key everywhere it is stored, and here; true when there was one. */
  destroy(instanceId: string, userId: string): Promise<boolean>
  /** Wraps every stored key with the current master key; keys it cannot unwrap are counted, not changed. */
  rewrapAll(): Promise<{ keys: number; rewrapped: number; unreadable: number }>
}

export class UnknownMasterKeyError extends Error {
  constructor(readonly masterKeyId: string) {
    super(
      `a data key is wrapped by master key ${masterKeyId}, which is neither ENCRYPTION_MASTER_KEY nor one of ENCRYPTION_PREVIOUS_MASTER_KEYS`,
    )
    this.name = 'UnknownMasterKeyError'
  }
}

/** The key store did not answer: transient, retried by whoever asked; never read as an erased subject. */
export class KeyStoreUnavailableError extends Error {
  readonly code = 'KEY_STORE_UNAVAILABLE'
  constructor(cause: unknown) {
    super(`the data key store did not answer: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    })
    this.name = 'KeyStoreUnavailableError'
  }
}

export const isKeyStoreUnavailable = (error: unknown): error is KeyStoreUnavailableError =>
  (error as { code?: unknown } | null)?.code === 'KEY_STORE_UNAVAILABLE'

export const subjectIdOf = (instanceId: string, userId: string) =>
  createHash('sha256').update(`${instanceId}\u0000${userId}`).digest('hex').slice(0, 32)

const pseudonymFor = (key: Buffer) =>
  `psn_${createHmac('sha256', key).update('usage pseudonym').digest('hex').slice(0, 32)}`

function wrap(master: MasterKey, key: Buffer, aad: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', master.key, iv)
  cipher.setAAD(Buffer.from(aad, 'utf8'))
  const ciphertext = Buffer.concat([cipher.update(key), cipher.final()])
  return [
    'v1',
    master.id,
    ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')),
  ].join('.')
}

function unwrap(masters: Map<string, MasterKey>, wrapped: string, aad: string): Buffer {
  const [version, masterId = '', iv = '', tag = '', ciphertext = ''] = wrapped.split('.')
  if (version !== 'v1') throw new Error(`unknown data key format ${String(version)}`)
  const master = masters.get(masterId)
  if (!master) throw new UnknownMasterKeyError(masterId)
  const decipher = createDecipheriv('aes-256-gcm', master.key, Buffer.from(iv, 'base64url'))
  decipher.setAAD(Buffer.from(aad, 'utf8'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()])
}

interface CachedKey {
  /** null: the subject has no key (never had one, or it was destroyed). */
  value: { keyId: string; key: Buffer; pseudonym: string } | null
  expiresAt: number
}

export interface KeyringOptions {
  store: DataKeyStore
  /** Wraps new keys; rewrapping moves every key to it. */
  master: MasterKey
  /** Earlier master keys, still able to unwrap what they wrapped until `rewrapAll` has run. */
  previousMasters?: MasterKey[]
  /**
   * How long a key (or its absence) is trusted without asking the store: other processes see an erasure at the
   * latest this long after it.
   */
  cacheMs: number
  /** Keys kept in memory at most (the least recently fetched leave first). */
  maxCached?: number
  now?: () => number
  random?: (size: number) => Buffer
}

export function createKeyring(options: KeyringOptions): Keyring {
  const now = options.now ?? Date.now
  const random = options.random ?? randomBytes
  const maxCached = options.maxCached ?? 100_000
  const masters = new Map([options.master, ...(options.previousMasters ?? [])].map((m) => [m.id, m]))
  const cache = new Map<string, CachedKey>()
  /** The sealing key of a subject by `<instance>\u0000<user>`, valid while its cache entry is: no hash per record. */
  const sealingKeys = new Map<string, { sealingKey: SealingKey; entry: CachedKey }>()
  const fetching = new Map<string, Promise<CachedKey['value']>>()

  const remember = (subjectId: string, value: CachedKey['value']) => {
    cache.delete(subjectId)
    cache.set(subjectId, { value, expiresAt: now() + options.cacheMs })
    if (cache.size > maxCached) cache.delete(cache.keys().next().value ?? '')
    return value
  }
  const open = (subjectId: string, stored: StoredDataKey) => {
    const key = unwrap(masters, stored.wrapped, `${subjectId}.${stored.key_id}`)
    return { keyId: stored.key_id, key, pseudonym: pseudonymFor(key) }
  }

  /** The subject's key as the store has it now (one request per subject at a time). */
  function fetch(subjectId: string, create?: { instanceId: string; userId: string }) {
    const running = fetching.get(subjectId)
    if (running && !create) return running
    const request = (async () => {
      const stored = await options.store.get(subjectId).catch((error: unknown) => {
        throw new KeyStoreUnavailableError(error)
      })
      if (stored) return remember(subjectId, open(subjectId, stored))
      if (!create) return remember(subjectId, null)
      const keyId = random(8).toString('hex')
      const key = random(32)
      const created = options.store.createIfAbsent(subjectId, {
        subject_id: subjectId,
        instance_id: create.instanceId,
        user_id: create.userId,
        key_id: keyId,
        wrapped: wrap(options.master, key, `${subjectId}.${keyId}`),
        master_key_id: options.master.id,
        pseudonym: pseudonymFor(key),
        created_at: new Date(now()).toISOString(),
      })
      const winner = await created.catch((error: unknown) => {
        throw new KeyStoreUnavailableError(error)
      })
      return remember(subjectId, open(subjectId, winner))
    })()
    fetching.set(subjectId, request)
    void request.then(
      () => fetching.get(subjectId) === request && fetching.delete(subjectId),
      () => fetching.get(subjectId) === request && fetching.delete(subjectId),
    )
    return request
  }

  const cached = (subjectId: string) => {
    const entry = cache.get(subjectId)
    return entry && entry.expiresAt > now() ? entry : undefined
  }

  return {
    async keyFor(instanceId, userId) {
      const name = `${instanceId}\u0000${userId}`
      const known = sealingKeys.get(name)
      if (
        known &&
        known.entry.expiresAt > now() &&
        cache.get(known.sealingKey.ref.slice(0, 32)) === known.entry
      )
        return known.sealingKey
      const subjectId = subjectIdOf(instanceId, userId)
      const value = cached(subjectId)?.value ?? (await fetch(subjectId, { instanceId, userId }))
      const entry = cache.get(subjectId)
      if (!value || !entry) throw new Error(`no data key for subject ${subjectId}`)
      const sealingKey = { ref: `${subjectId}.${value.keyId}`, key: value.key, pseudonym: value.pseudonym }
      sealingKeys.delete(name)
      sealingKeys.set(name, { sealingKey, entry })
      if (sealingKeys.size > maxCached) sealingKeys.delete(sealingKeys.keys().next().value ?? '')
      return sealingKey
    },
    async keyOf(ref) {
      const [subjectId = '', keyId] = ref.split('.')
      const entry = cached(subjectId)
      if (entry?.value === null) return undefined
      if (entry?.value && entry.value.keyId === keyId) return entry.value.key
      // Not cached, or cached with another key id: the key may have been replaced since (an erasure, then new data).
      const value = await fetch(subjectId)
      return value !== null && value.keyId === keyId ? value.key : undefined
    },
    async pseudonymOf(instanceId, userId) {
      const subjectId = subjectIdOf(instanceId, userId)
      const entry = cached(subjectId)
      const value = entry ? entry.value : await fetch(subjectId)
      return value?.pseudonym
    },
    usersOfPseudonyms: (instanceId, pseudonyms) => options.store.usersOfPseudonyms(instanceId, pseudonyms),
    async destroy(instanceId, userId) {
      const subjectId = subjectIdOf(instanceId, userId)
      const destroyed = await options.store.destroy(subjectId)
      remember(subjectId, null)
      return destroyed
    },
    async rewrapAll() {
      let keys = 0
      let rewrapped = 0
      let unreadable = 0
      for await (const { subjectId, key: stored, seqNo, primaryTerm } of options.store.scan()) {
        keys += 1
        if (stored.master_key_id === options.master.id) continue
        let key: Buffer
        try {
          key = unwrap(masters, stored.wrapped, `${subjectId}.${stored.key_id}`)
        } catch {
          unreadable += 1
          continue
        }
        const replaced = await options.store.replace(
          subjectId,
          {
            ...stored,
            wrapped: wrap(options.master, key, `${subjectId}.${stored.key_id}`),
            master_key_id: options.master.id,
          },
          seqNo,
          primaryTerm,
        )
        // A key changed meanwhile was destroyed or rewrapped by another run: either way, nothing left to do here.
        if (replaced) rewrapped += 1
      }
      return { keys, rewrapped, unreadable }
    },
  }
}
