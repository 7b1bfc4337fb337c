/**
 * The sealing codec against the real schema registry and the real key index: what reaches the log carries none of
 * a user's content, another process opens it, an erasure makes it unreadable for good, and records of no user (or
 * written with encryption off) stay plaintext.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readContractSchema } from '@memory-service/contracts/files'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createElasticsearchClient } from '../elasticsearch/createElasticsearchStore.js'
import { createSchemaCodec, SchemaValidationError } from '../schemaRegistry/createSchemaCodec.js'
import { loadEngineDeclarations } from '../provisioning/provisionEngines.js'
import { DATA_KEYS_INDEX } from '@memory-service/domain'
import { createDataKeyStore } from './dataKeyStore.js'
import { createKeyring, masterKeyFrom, subjectIdOf } from './keyring.js'
import { createSealingCodec, isErasedContent } from './sealingCodec.js'

const config = testConfig()
const elasticsearch = createElasticsearchClient(config.elasticsearch)
const master = masterKeyFrom('ab'.repeat(32))
const subject = `${uniqueName('mem.test-memories.v1')}-MemoryChanged.v1`
const schema = readContractSchema('events/MemoryChanged.v1.schema.json')
const instanceId = 'inst_00112233aabbccdd'
// A key index of this file's own, declared as the deployment's.
const keyIndex = uniqueName('test-data-keys')
const keyStore = () => createDataKeyStore(elasticsearch, keyIndex)

/** One process: its own keyring (no cache, so every read asks the store) and codec. */
const processWithKeys = async (options: { seal?: boolean } = {}) => {
  const keyring = createKeyring({ store: keyStore(), master, cacheMs: 0 })
  const codec = createSealingCodec(createSchemaCodec(config.schemaRegistry.url), keyring, {
    seal: options.seal ?? true,
  })
  await codec.register([{ subject, schema }])
  return { keyring, codec }
}

function memoryOf(userId: string | null, canary: string) {
  return {
    type: 'memory_changed',
    change: 'created',
    event_id: 'evt-1',
    memory_id: 'mem_0a1b',
    instance_id: instanceId,
    version: 1,
    changed_at: '2026-11-27T10:00:00.000Z',
    memory: {
      id: 'mem_0a1b',
      instance_id: instanceId,
      type: 'fact',
      content: `The user's code word is ${canary}`,
      confidence: 0.9,
      entities: [{ entity_id: 'ent_01', canonical_name: canary, type: 'other', aliases: [] }],
      relations: [],
      scope: { user_id: userId, customer_id: null, client_id: 'client-1' },
      source: {
        ingestion_id: 'ing_1',
        document_type: 'note',
        document_created_at: '2026-11-27T10:00:00.000Z',
      },
      metadata: { secret: canary },
      created_at: '2026-11-27T10:00:00.000Z',
      updated_at: null,
      occurred_on: null,
      speaker: null,
      mode: 'fast',
      embedding: { model: 'test', vector: [0.25, -0.5] },
    },
  }
}

beforeAll(async () => {
  const declared = loadEngineDeclarations().indices.find((index) => index.name === DATA_KEYS_INDEX)
  await elasticsearch.indices.create({
    index: keyIndex,
    settings: declared?.settings,
    mappings: declared?.mappings,
  })
})

afterAll(async () => {
  await elasticsearch.indices.delete({ index: keyIndex })
  await elasticsearch.close()
})

describe('sealing personal content in the log', () => {
  it('writes none of the user’s content and opens it in another process', async () => {
    const canary = uniqueName('canary')
    const writer = await processWithKeys()
    const bytes = await writer.codec.encode(subject, memoryOf('ana', canary))
    expect(bytes.toString('utf8')).not.toContain(canary)
    expect(bytes.toString('utf8')).not.toContain('code word')
    const wire = JSON.parse(bytes.subarray(5).toString('utf8')) as Record<string, unknown>
    expect(wire).toMatchObject({ memory_id: 'mem_0a1b', memory: { scope: { user_id: 'ana' } } })
    expect(wire.sealed).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{32}\.[0-9a-f]{16}$/),
      data: expect.any(String),
    })

    const reader = await processWithKeys()
    expect(await reader.codec.decode(bytes)).toEqual(memoryOf('ana', canary))
  })

  it('leaves a record unreadable by any process once its user is erased, and others readable', async () => {
    const user = uniqueName('erased')
    const writer = await processWithKeys()
    const erased = await writer.codec.encode(subject, memoryOf(user, 'gone'))
    const kept = await writer.codec.encode(subject, memoryOf('kept-user', 'stays'))
    expect(await keyStore().get(subjectIdOf(instanceId, user))).toBeDefined()

    expect(await writer.keyring.destroy(instanceId, user)).toBe(true)
    expect(await keyStore().get(subjectIdOf(instanceId, user))).toBeUndefined()
    const reader = await processWithKeys()
    const failure: unknown = await reader.codec.decode(erased).then(
      () => 'decoded',
      (error: unknown) => error,
    )
    expect(isErasedContent(failure)).toBe(true)
    expect(await reader.codec.decode(kept)).toEqual(memoryOf('kept-user', 'stays'))

    // The user comes back: new records get a new key, the old one stays unreadable.
    const again = await writer.codec.encode(subject, memoryOf(user, 'new'))
    expect(await reader.codec.decode(again)).toEqual(memoryOf(user, 'new'))
    expect(isErasedContent(await reader.codec.decode(erased).catch((error: unknown) => error))).toBe(true)
  })

  it('writes records of no user, and every record with encryption off, in plaintext that still reads', async () => {
    const noUser = await (await processWithKeys()).codec.encode(subject, memoryOf(null, 'shared'))
    expect(noUser.toString('utf8')).toContain('shared')
    const plain = await processWithKeys({ seal: false })
    const unsealed = await plain.codec.encode(subject, memoryOf('ana', 'visible'))
    expect(unsealed.toString('utf8')).toContain('visible')
    // A process with encryption off still opens what was sealed before.
    const sealed = await (await processWithKeys()).codec.encode(subject, memoryOf('ana', 'hidden'))
    expect(await plain.codec.decode(sealed)).toEqual(memoryOf('ana', 'hidden'))
  })

  it('checks the plaintext against the event schema before sealing it', async () => {
    const invalid = { ...memoryOf('ana', 'x'), version: 'one' }
    const failure: unknown = await (
      await processWithKeys()
    ).codec
      .encode(subject, invalid)
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(SchemaValidationError)
    expect((failure as SchemaValidationError).paths.join()).toContain('/version')
  })
})
