/**
 * The data keys in the real Elasticsearch: one key per subject however many processes create it at once, a
 * rotation of the master key through the stored documents, pseudonyms named while their key lives, and a destroyed
 * key no longer readable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATA_KEYS_INDEX } from '@memory-service/domain'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createElasticsearchClient } from '../elasticsearch/createElasticsearchStore.js'
import { loadEngineDeclarations } from '../provisioning/provisionEngines.js'
import { createDataKeyStore } from './dataKeyStore.js'
import { createKeyring, masterKeyFrom, subjectIdOf } from './keyring.js'

const elasticsearch = createElasticsearchClient(testConfig().elasticsearch)
const index = uniqueName('test-data-keys')
const store = createDataKeyStore(elasticsearch, index)
const oldMaster = masterKeyFrom('0c'.repeat(32))
const newMaster = masterKeyFrom('0d'.repeat(32))
const instanceId = 'inst_99aa88bb77cc66dd'

beforeAll(async () => {
  const declared = loadEngineDeclarations().indices.find((candidate) => candidate.name === DATA_KEYS_INDEX)
  await elasticsearch.indices.create({ index, settings: declared?.settings, mappings: declared?.mappings })
})

afterAll(async () => {
  await elasticsearch.indices.delete({ index })
  await elasticsearch.close()
})

describe('data keys in Elasticsearch', () => {
  it('keeps one key per subject when six processes create it at the same moment', async () => {
    const keyrings = Array.from({ length: 6 }, () => createKeyring({ store, master: oldMaster, cacheMs: 0 }))
    const keys = await Promise.all(keyrings.map((keyring) => keyring.keyFor(instanceId, 'racer')))
    expect(new Set(keys.map((key) => key.ref)).size).toBe(1)
    expect(new Set(keys.map((key) => key.key.toString('hex'))).size).toBe(1)
  })

  it('rewraps every key with a new master key, which alone opens them afterwards', async () => {
    const before = createKeyring({ store, master: oldMaster, cacheMs: 0 })
    const refs = await Promise.all(['a', 'b', 'c'].map((user) => before.keyFor(instanceId, user)))
    const rotating = createKeyring({ store, master: newMaster, previousMasters: [oldMaster], cacheMs: 0 })
    const report = await rotating.rewrapAll()
    expect(report.unreadable).toBe(0)
    expect(report.rewrapped).toBeGreaterThanOrEqual(3)
    const after = createKeyring({ store, master: newMaster, cacheMs: 0 })
    for (const { ref, key } of refs) expect((await after.keyOf(ref))?.equals(key)).toBe(true)
    expect((await store.get(subjectIdOf(instanceId, 'a')))?.master_key_id).toBe(newMaster.id)
  })

  it('names users by pseudonym while their key lives, and destroys a key for good', async () => {
    const keyring = createKeyring({ store, master: newMaster, cacheMs: 0 })
    const kept = await keyring.keyFor(instanceId, 'kept')
    const gone = await keyring.keyFor(instanceId, 'gone')
    await elasticsearch.indices.refresh({ index })
    expect(await keyring.usersOfPseudonyms(instanceId, [kept.pseudonym, gone.pseudonym])).toEqual(
      new Map([
        [kept.pseudonym, 'kept'],
        [gone.pseudonym, 'gone'],
      ]),
    )
    expect(await keyring.destroy(instanceId, 'gone')).toBe(true)
    expect(await store.get(subjectIdOf(instanceId, 'gone'))).toBeUndefined()
    expect(await keyring.usersOfPseudonyms(instanceId, [kept.pseudonym, gone.pseudonym])).toEqual(
      new Map([[kept.pseudonym, 'kept']]),
    )
  })
})
