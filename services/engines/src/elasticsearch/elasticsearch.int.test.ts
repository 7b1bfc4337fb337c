import { afterAll, describe, expect, it } from 'vitest'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import {
  createElasticsearchClient,
  createElasticsearchStore,
  elasticsearchVersion,
} from './createElasticsearchStore.js'

interface TestMemory {
  content: string
  instance_id: string
  embedding: number[]
}

const client = createElasticsearchClient(testConfig().elasticsearch)
const store = createElasticsearchStore<TestMemory>(client, uniqueName('test-memories'))
const mappings = {
  properties: {
    content: { type: 'text' as const },
    instance_id: { type: 'keyword' as const },
    embedding: { type: 'dense_vector' as const, dims: 4, index: true, similarity: 'cosine' as const },
  },
}

afterAll(async () => {
  await store.deleteIndex()
  await client.close()
})

describe('elasticsearch store', () => {
  it('reports the server version through the calls the integ-test distribution answers', async () => {
    expect(await elasticsearchVersion(client)).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('creates the index once, even when asked twice at the same time', async () => {
    await Promise.all([store.ensureIndex(mappings), store.ensureIndex(mappings)])
    const mapping = await client.indices.getMapping({ index: store.index })
    expect(mapping[store.index]?.mappings.properties?.embedding).toMatchObject({
      type: 'dense_vector',
      dims: 4,
    })
  })

  it('gives an existing index the declared refresh interval, and leaves its other settings', async () => {
    await store.ensureIndex(mappings, { number_of_shards: 1, refresh_interval: '1s' })
    await store.ensureIndex(mappings, { number_of_shards: 2, refresh_interval: '500ms' })
    const settings = (await client.indices.getSettings({ index: store.index }))[store.index]?.settings?.index
    expect(settings?.refresh_interval).toBe('500ms')
    expect(settings?.number_of_shards).toBe('1')
  })

  it('answers a kNN query with the nearest vectors first, within a filter', async () => {
    await store.ensureIndex(mappings)
    await store.upsert(
      [
        { id: 'm1', document: { content: 'likes hiking', instance_id: 'inst_a', embedding: [1, 0, 0, 0] } },
        {
          id: 'm2',
          document: { content: 'likes climbing', instance_id: 'inst_a', embedding: [0.9, 0.1, 0, 0] },
        },
        { id: 'm3', document: { content: 'owns a cat', instance_id: 'inst_a', embedding: [0, 0, 1, 0] } },
        {
          id: 'm4',
          document: { content: 'likes hiking too', instance_id: 'inst_b', embedding: [1, 0, 0, 0] },
        },
      ],
      { refresh: true },
    )
    const hits = await store.knnSearch({
      field: 'embedding',
      vector: [1, 0, 0, 0],
      k: 2,
      filter: { term: { instance_id: 'inst_a' } },
    })
    expect(hits.map((hit) => hit.id)).toEqual(['m1', 'm2'])
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 1)
    expect(hits[0]?.document.content).toBe('likes hiking')
  })

  it('ignores a replayed write with an older external version', async () => {
    await store.ensureIndex(mappings)
    const newer = { content: 'moved to Lisbon', instance_id: 'inst_a', embedding: [0, 1, 0, 0] }
    const older = { content: 'lives in Porto', instance_id: 'inst_a', embedding: [0, 1, 0, 0] }
    expect(await store.upsert([{ id: 'v1', document: newer, version: 5 }], { refresh: true })).toEqual({
      written: 1,
      skipped: 0,
    })
    expect(await store.upsert([{ id: 'v1', document: older, version: 3 }], { refresh: true })).toEqual({
      written: 0,
      skipped: 1,
    })
    // Elasticsearch 9 leaves dense vectors out of _source by default; the text fields are the newer version's.
    expect(await store.get('v1')).toMatchObject({ content: 'moved to Lisbon', instance_id: 'inst_a' })
    expect(await store.get('absent')).toBeNull()
  })

  it('fails loudly when a document does not fit the mapping', async () => {
    await store.ensureIndex(mappings)
    await expect(
      store.upsert([{ id: 'bad', document: { content: 'x', instance_id: 'inst_a', embedding: [1, 2] } }]),
    ).rejects.toThrow(/bad: document_parsing_exception/)
  })
})
