import { afterAll, describe, expect, it } from 'vitest'
import { topologyFor } from '@memory-service/domain'
import { testConfig, testLogger, uniqueName } from '../../../../test/support/testEngines.js'
import { createClickhouseClient, createClickhouseStore } from '../clickhouse/createClickhouseStore.js'
import { createElasticsearchClient } from '../elasticsearch/createElasticsearchStore.js'
import { clickhouseDataPath } from '../connectEngines.js'
import { createKafka } from '../kafka/createKafka.js'
import { createTopicAdmin } from '../kafka/topicAdmin.js'
import { createNeo4jDriver, createNeo4jStore } from '../neo4j/createNeo4jStore.js'
import { dropDeployment } from './dropDeployment.js'
import { loadEngineDeclarations, provisionEngines } from './provisionEngines.js'

const config = testConfig()
const logger = testLogger()
const suffix = uniqueName('').slice(1)
// A deployment of its own (a namespace), so this run's topics, indices and graph are untouched.
const topology = topologyFor(`prov-${suffix}`)
const declarations = loadEngineDeclarations(undefined, topology)

const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'provisioning-test', logger })
const topicAdmin = await createTopicAdmin(kafka)
const elasticsearch = createElasticsearchClient(config.elasticsearch)
const neo4j = createNeo4jStore(createNeo4jDriver(config.neo4j), config.neo4j.database)
const clickhouse = createClickhouseStore(
  await createClickhouseClient({ ...config.clickhouse, dataPath: clickhouseDataPath(config) }),
  `test_provisioning_${suffix}`,
)

afterAll(async () => {
  await topicAdmin.close()
  await clickhouse.command(`DROP DATABASE IF EXISTS ${clickhouse.database}`)
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
    expect(alias).toBe(`prov-${suffix}-mem-memories`)
    const aliased = await elasticsearch.indices.getAlias({ name: alias })
    expect(Object.keys(aliased)).toEqual([`prov-${suffix}-mem-memories-g1`])
    const vectorMapping = await elasticsearch.indices.getMapping({ index: alias })
    expect(vectorMapping[`prov-${suffix}-mem-memories-g1`]?.mappings.properties?.embedding).toMatchObject({
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
      'MATCH (state:ProjectionState {projection: $key}) RETURN state.generation AS generation',
      { key: `graph/prov-${suffix}` },
    )
    expect(graphState?.generation).toBe(`prov-${suffix}/g1`)

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
      'usage_totals_day',
      'usage_totals_day_mv',
      'usage_totals_hour',
      'usage_totals_hour_mv',
      'usage_totals_minute',
      'usage_totals_minute_mv',
    ])
  })

  it('drops a namespaced deployment whole, and nothing of another deployment', async () => {
    const other = topologyFor(`keep-${suffix}`)
    const otherDeclarations = loadEngineDeclarations(undefined, other)
    await provisionEngines({ topicAdmin, elasticsearch, neo4j }, otherDeclarations, logger, {
      embeddingDimension: 384,
    })
    const graphOf = async (key: string) =>
      neo4j.read<{ generation: string }>(
        'MATCH (state:ProjectionState {projection: $key}) RETURN state.generation AS generation',
        { key },
      )
    await neo4j.write(
      'CREATE (:Entity {generation: $generation, entity_id: $id, instance_id: $id, key: $id})',
      {
        generation: `prov-${suffix}/g1`,
        id: `dropped-${suffix}`,
      },
    )

    const dropped = await dropDeployment({ kafka, elasticsearch, neo4j }, topology)

    expect(dropped).toMatchObject({
      topics: declarations.topics.length,
      indices: declarations.indices.length,
    })
    expect(dropped.graphNodes).toBe(2)
    expect((await topicAdmin.describeTopics(declarations.topics.map((topic) => topic.name))).size).toBe(0)
    for (const index of declarations.indices)
      expect(await elasticsearch.indices.exists({ index: index.name })).toBe(false)
    expect(await graphOf(topology.graph.stateKey)).toEqual([])
    // The other deployment keeps everything.
    const kept = otherDeclarations.topics.map((topic) => topic.name)
    expect((await topicAdmin.describeTopics(kept)).size).toBe(kept.length)
    expect(Object.keys(await elasticsearch.indices.getAlias({ name: other.index('mem-memories') }))).toEqual([
      `keep-${suffix}-mem-memories-g1`,
    ])
    expect(await graphOf(other.graph.stateKey)).toEqual([{ generation: `keep-${suffix}/g1` }])
    await expect(dropDeployment({ kafka, elasticsearch, neo4j }, topologyFor(''))).rejects.toThrow(
      /default namespace/,
    )
    await dropDeployment({ kafka, elasticsearch, neo4j }, other)
  })
})
