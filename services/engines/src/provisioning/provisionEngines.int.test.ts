import { afterAll, describe, expect, it } from 'vitest'
import { testConfig, testLogger, uniqueName } from '../../../../test/support/testEngines.js'
import { createClickhouseClient, createClickhouseStore } from '../clickhouse/createClickhouseStore.js'
import { createElasticsearchClient } from '../elasticsearch/createElasticsearchStore.js'
import { clickhouseDataPath } from '../connectEngines.js'
import { createKafka } from '../kafka/createKafka.js'
import { createTopicAdmin } from '../kafka/topicAdmin.js'
import { createNeo4jDriver, createNeo4jStore } from '../neo4j/createNeo4jStore.js'
import { loadEngineDeclarations, provisionEngines } from './provisionEngines.js'

const config = testConfig()
const logger = testLogger()
const suffix = uniqueName('').slice(1)
const declared = loadEngineDeclarations()
// The declared topics and indices under names of this run's own, so the real ones are untouched.
const declarations = {
  ...declared,
  topics: declared.topics.map((topic) => ({ ...topic, name: `${topic.name}.${suffix}` })),
  indices: declared.indices.map((index) => ({
    ...index,
    name: `${index.name}-${suffix}`,
    ...(index.alias ? { alias: `${index.alias}-${suffix}` } : {}),
  })),
}

const topicAdmin = await createTopicAdmin(
  createKafka({ brokers: config.kafka.brokers, clientId: 'provisioning-test', logger }),
)
const elasticsearch = createElasticsearchClient(config.elasticsearch)
const neo4j = createNeo4jStore(createNeo4jDriver(config.neo4j), config.neo4j.database)
const clickhouse = createClickhouseStore(
  await createClickhouseClient({ ...config.clickhouse, dataPath: clickhouseDataPath(config) }),
  `test_provisioning_${suffix}`,
)

afterAll(async () => {
  await topicAdmin.deleteTopics(declarations.topics.map((topic) => topic.name))
  await topicAdmin.close()
  await clickhouse.command(`DROP DATABASE IF EXISTS ${clickhouse.database}`)
  for (const index of declarations.indices)
    await elasticsearch.indices.delete({ index: index.name }, { ignore: [404] })
  await Promise.all([neo4j.close(), clickhouse.close(), elasticsearch.close()])
})

describe('provisioning', () => {
  it('creates every declared topic, constraint and table, and a second run is a no-op', async () => {
    await provisionEngines({ topicAdmin, elasticsearch, neo4j, clickhouse }, declarations, logger, {
      embeddingDimension: 384,
    })
    await provisionEngines({ topicAdmin, elasticsearch, neo4j, clickhouse }, declarations, logger, {
      embeddingDimension: 384,
    })

    const topics = await topicAdmin.describeTopics(declarations.topics.map((topic) => topic.name))
    for (const topic of declarations.topics) {
      expect(topics.get(topic.name)?.partitions, topic.name).toBe(topic.partitions)
      for (const [name, value] of Object.entries(topic.config)) {
        expect(topics.get(topic.name)?.config[name], `${topic.name} ${name}`).toBe(value)
      }
    }

    for (const index of declarations.indices) {
      const mapping = await elasticsearch.indices.getMapping({ index: index.name })
      expect(mapping[index.name]?.mappings.dynamic, index.name).toBe(String(index.mappings.dynamic))
    }

    const memories = declarations.indices.find((index) => index.alias !== undefined)
    const alias = memories?.alias ?? ''
    expect(alias).toBe(`mem-memories-${suffix}`)
    const aliased = await elasticsearch.indices.getAlias({ name: alias })
    expect(Object.keys(aliased)).toEqual([`mem-memories-g1-${suffix}`])
    const vectorMapping = await elasticsearch.indices.getMapping({ index: alias })
    expect(vectorMapping[`mem-memories-g1-${suffix}`]?.mappings.properties?.embedding).toMatchObject({
      dims: 384,
    })
    await expect(
      provisionEngines({ topicAdmin, elasticsearch, neo4j, clickhouse }, declarations, logger, {
        embeddingDimension: 768,
      }),
    ).rejects.toThrow(/384-dimensional vectors but EMBEDDINGS_DIMENSION is 768/)

    const constraints = await neo4j.read<{ name: string }>('SHOW CONSTRAINTS YIELD name RETURN name')
    expect(constraints.map((row) => row.name)).toEqual(
      expect.arrayContaining(['entity_generation_id_unique', 'memory_generation_id_unique']),
    )
    // The graph generation readers use exists once provisioning ran (g1, or whatever a rebuild moved it to).
    const [graphState] = await neo4j.read<{ generation: string }>(
      "MATCH (state:ProjectionState {projection: 'graph'}) RETURN state.generation AS generation",
    )
    expect(graphState?.generation).toMatch(/^g[1-9][0-9]*$/)

    const tables = await clickhouse.query<{ name: string }>(
      'SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name',
      { db: clickhouse.database },
    )
    expect(tables.map((row) => row.name)).toEqual([
      'usage_day',
      'usage_day_mv',
      'usage_hour',
      'usage_hour_mv',
      'usage_minute',
      'usage_minute_mv',
      'usage_raw',
    ])
  })
})
