import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { SchemaCodec } from '../schemaRegistry/createSchemaCodec.js'
import type { Keyring } from './keyring.js'
import {
  dataSubjectOf,
  personalContentPlanOf,
  restorePersonalContent,
  SEALED_PROPERTY,
  sealedSchemaOf,
  sealedSubjectOf,
  takePersonalContent,
  type PersonalContentPlan,
} from './personalContent.js'

/**
 * A record sealed under a key that no longer exists: its data subject was erased. Consumers pass over it (it is
 * not a failure, and nothing of it may be dead-lettered or projected).
 */
export class ErasedContentError extends Error {
  readonly code = 'ERASED_CONTENT'
  constructor(readonly keyRef: string) {
    super(`the record's data subject was erased (key ${keyRef} destroyed)`)
    this.name = 'ErasedContentError'
  }
}

export const isErasedContent = (error: unknown): error is ErasedContentError =>
  (error as { code?: unknown } | null)?.code === 'ERASED_CONTENT'

interface SealedPart {
  key: string
  data: string
}

/** Random IVs drawn from a pool refilled 4 096 at a time: one call into the random generator per pool, not per record. */
const ivPool = { bytes: Buffer.alloc(0), offset: 0 }
function nextIv(): Buffer {
  if (ivPool.offset + 12 > ivPool.bytes.length) {
    ivPool.bytes = randomBytes(12 * 4096)
    ivPool.offset = 0
  }
  const iv = ivPool.bytes.subarray(ivPool.offset, ivPool.offset + 12)
  ivPool.offset += 12
  return iv
}

/** AES-256-GCM of the taken content; the key reference is authenticated with it, so a sealed part cannot be moved. */
function seal(key: Buffer, ref: string, plaintext: string): string {
  const iv = nextIv()
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(ref, 'utf8'))
  const ciphertext = cipher.update(plaintext, 'utf8')
  // GCM is a stream mode: final() adds no bytes, it computes the tag.
  cipher.final()
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')
}

function open(key: Buffer, ref: string, data: string): string {
  const bytes = Buffer.from(data, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
  decipher.setAAD(Buffer.from(ref, 'utf8'))
  decipher.setAuthTag(bytes.subarray(12, 28))
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')
}

/**
 * The codec every process writes and reads the log with when encryption is on: the personal content of a record
 * that belongs to a user (the properties its schema marks `x-personal: sealed`) is taken out and sealed under the
 * user's data key, and pseudonym properties get the user's pseudonym, before the record is framed with its sealed
 * wire schema (registered beside the plaintext one). Reading opens the sealed part again; a record whose key was
 * destroyed reads as {@link ErasedContentError}. Records of no user, and old plaintext records, pass unchanged;
 * with `seal: false` nothing new is sealed and what was sealed before is still opened.
 */
export function createSealingCodec(
  inner: SchemaCodec,
  keyring: Keyring,
  options: { seal: boolean } = { seal: true },
): SchemaCodec {
  const plans = new Map<string, PersonalContentPlan>()

  return {
    async register(registrations) {
      const all = [...registrations]
      for (const { subject, schema } of registrations) {
        const plan = personalContentPlanOf(schema)
        if (!plan) continue
        plans.set(subject, plan)
        if (plan.sealed.length > 0)
          all.push({ subject: sealedSubjectOf(subject), schema: sealedSchemaOf(schema, plan) })
      }
      return inner.register(all)
    },
    async encode(subject, payload) {
      const plan = plans.get(subject)
      const owner = plan ? dataSubjectOf(payload, plan) : undefined
      if (!options.seal || !plan || !owner) return inner.encode(subject, payload)
      inner.validate(subject, payload)
      const key = await keyring.keyFor(owner.instanceId, owner.userId)
      const { readable, taken } = takePersonalContent(payload as Record<string, unknown>, plan, key.pseudonym)
      if (plan.sealed.length === 0) return inner.frame(subject, readable)
      const sealed: SealedPart = { key: key.ref, data: seal(key.key, key.ref, JSON.stringify(taken)) }
      return inner.frame(sealedSubjectOf(subject), { ...readable, [SEALED_PROPERTY]: sealed })
    },
    validate: (subject, payload) => inner.validate(subject, payload),
    frame: (subject, payload) => inner.frame(subject, payload),
    async decode<T>(message: Buffer): Promise<T> {
      const payload = await inner.decode<Record<string, unknown>>(message)
      const sealed = payload[SEALED_PROPERTY] as SealedPart | undefined
      if (sealed === undefined) return payload as T
      const key = await keyring.keyOf(sealed.key)
      if (!key) throw new ErasedContentError(sealed.key)
      const taken = JSON.parse(open(key, sealed.key, sealed.data)) as Record<string, unknown>
      Reflect.deleteProperty(payload, SEALED_PROPERTY)
      restorePersonalContent(payload, taken)
      return payload as T
    },
    listSubjects: () => inner.listSubjects(),
  }
}
