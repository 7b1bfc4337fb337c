import type { Client as ElasticsearchClient } from '@elastic/elasticsearch'
import type { DeploymentTopology } from '@memory-service/domain'
import type { Kafka } from 'kafkajs'
import type { Neo4jStore } from '../neo4j/createNeo4jStore.js'
import { loadEngineDeclarations } from './provisionEngines.js'

/**
 * Removes everything one namespaced deployment created on a shared cluster: its topics, consumer groups, indices
 * (every generation behind the memories alias) and graph nodes. The default namespace is refused: it is the
 * product's data, and nothing here can tell it from a mistake. Test runs use it to leave the cluster as they found it.
 */
export async function dropDeployment(
  engines: { kafka: Kafka; elasticsearch: ElasticsearchClient; neo4j: Neo4jStore },
  topology: DeploymentTopology,
): Promise<{ topics: number; groups: number; indices: number; graphNodes: number }> {
  if (topology.namespace === '') throw new Error('the default namespace is never dropped')
  const declarations = loadEngineDeclarations(undefined, topology)

  const admin = engines.kafka.admin()
  await admin.connect()
  try {
    const existingTopics = new Set(await admin.listTopics())
    const topics = declarations.topics.map((topic) => topic.name).filter((name) => existingTopics.has(name))
    if (topics.length > 0) await admin.deleteTopics({ topics })
    const groupPrefix = topology.group('')
    const { groups } = await admin.listGroups()
    const ours = groups.map((group) => group.groupId).filter((groupId) => groupId.startsWith(groupPrefix))
    // A group whose member was killed stays non-empty until its session times out; it holds no data and expires.
    let deletedGroups = 0
    for (const groupId of ours) {
      await admin.deleteGroups([groupId]).then(
        () => (deletedGroups += 1),
        () => undefined,
      )
    }

    const names = declarations.indices.flatMap((index) =>
      index.alias === undefined ? [index.name] : [`${index.alias}-g*`],
    )
    const existing = Object.keys(
      await engines.elasticsearch.indices.get({
        index: names,
        expand_wildcards: 'all',
        ignore_unavailable: true,
      }),
    )
    if (existing.length > 0) await engines.elasticsearch.indices.delete({ index: existing })

    let graphNodes = 0
    for (;;) {
      const [row] = await engines.neo4j.write<{ deleted: number }>(
        `MATCH (node) WHERE node.generation STARTS WITH $prefix
           OR (node:ProjectionState AND node.projection = $stateKey)
         WITH node LIMIT 5000 DETACH DELETE node RETURN count(*) AS deleted`,
        { prefix: topology.graph.generationPrefix, stateKey: topology.graph.stateKey },
      )
      if (!row || row.deleted === 0) break
      graphNodes += row.deleted
    }
    return { topics: topics.length, groups: deletedGroups, indices: existing.length, graphNodes }
  } finally {
    await admin.disconnect()
  }
}
