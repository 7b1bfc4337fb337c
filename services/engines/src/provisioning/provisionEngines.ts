import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Client as ElasticsearchClient, estypes } from '@elastic/elasticsearch'
import { deployment, type DeploymentTopology } from '@memory-service/domain'
import type { ClickhouseStore } from '../clickhouse/createClickhouseStore.js'
import { createElasticsearchStore } from '../elasticsearch/createElasticsearchStore.js'
import type { TopicAdmin, TopicDeclaration } from '../kafka/topicAdmin.js'
import type { Logger } from '../logging/createLogger.js'
import { splitCypherStatements, type Neo4jStore } from '../neo4j/createNeo4jStore.js'

/** The declarations under infra/: what every engine must contain before the services run. */
export interface IndexDeclaration {
  name: string
  settings: estypes.IndicesIndexSettings
  mappings: estypes.MappingTypeMapping
  /** Readers and writers use the alias; the named index is only its first generation. */
  alias?: string
  /** A dense_vector field whose dims are the configured embedding dimension. */
  vectorField?: string
}

export interface EngineDeclarations {
  topics: TopicDeclaration[]
  indices: IndexDeclaration[]
  neo4jSchema: string[]
  clickhouseDdl: { file: string; source: string }[]
  graph: DeploymentTopology['graph']
}

// The declarations are the files of `@memory-service/infra` (the repository's infra/ folder), found by package resolution.
const defaultInfraDir = dirname(
  dirname(createRequire(import.meta.url).resolve('@memory-service/infra/kafka/topics.json')),
)

/**
 * The declarations under infra/ name things without a namespace; this deployment's names (domain topology) are
 * what gets created.
 */
export function loadEngineDeclarations(
  infraDir = defaultInfraDir,
  topology: DeploymentTopology = deployment,
): EngineDeclarations {
  const { topics } = JSON.parse(readFileSync(join(infraDir, 'kafka/topics.json'), 'utf8')) as {
    topics: TopicDeclaration[]
  }
  const neo4jSchema = splitCypherStatements(readFileSync(join(infraDir, 'neo4j/schema.cypher'), 'utf8'))
  const clickhouseDir = join(infraDir, 'clickhouse')
  const clickhouseDdl = readdirSync(clickhouseDir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ file, source: readFileSync(join(clickhouseDir, file), 'utf8') }))
  const { indices } = JSON.parse(readFileSync(join(infraDir, 'elasticsearch/indices.json'), 'utf8')) as {
    indices: IndexDeclaration[]
  }
  return {
    topics: topics.map((topic) => ({ ...topic, name: topology.topic(topic.name) })),
    indices: indices.map((index) => ({
      ...index,
      name: topology.index(index.name),
      ...(index.alias === undefined ? {} : { alias: topology.index(index.alias) }),
    })),
    neo4jSchema,
    clickhouseDdl,
    graph: topology.graph,
  }
}

/** Creates what the declarations describe. Every step is idempotent, so it runs at each start. */
export async function provisionEngines(
  engines: {
    topicAdmin: TopicAdmin
    elasticsearch: ElasticsearchClient
    neo4j: Neo4jStore
    clickhouse?: ClickhouseStore | undefined
  },
  declarations: EngineDeclarations,
  logger: Logger,
  options: { embeddingDimension: number },
): Promise<void> {
  const { created, updated } = await engines.topicAdmin.ensureTopics(declarations.topics)
  logger.info({ created, updated, declared: declarations.topics.length }, 'kafka topics provisioned')
  for (const index of declarations.indices) {
    await ensureDeclaredIndex(engines.elasticsearch, index, options.embeddingDimension)
  }
  logger.info(
    { indices: declarations.indices.map((index) => index.name) },
    'elasticsearch indices provisioned',
  )
  await engines.neo4j.applySchema(declarations.neo4jSchema, {
    graph_state: declarations.graph.stateKey,
    first_generation: `${declarations.graph.generationPrefix}g1`,
  })
  logger.info({ statements: declarations.neo4jSchema.length }, 'neo4j constraints provisioned')
  const clickhouse = engines.clickhouse
  if (!clickhouse) return
  for (const { source } of declarations.clickhouseDdl) await clickhouse.applyDdl(source)
  logger.info(
    { files: declarations.clickhouseDdl.map(({ file }) => file), database: clickhouse.database },
    'clickhouse tables provisioned',
  )
}

export function withVectorDimension(
  declaration: IndexDeclaration,
  dimension: number,
): estypes.MappingTypeMapping {
  if (!declaration.vectorField) return declaration.mappings
  // Every vector of a memory (its statement, the statement in its conversation) comes from the one model.
  const properties = Object.fromEntries(
    Object.entries(declaration.mappings.properties ?? {}).map(([name, property]) => [
      name,
      property.type === 'dense_vector' ? { ...property, dims: dimension } : property,
    ]),
  )
  return { ...declaration.mappings, properties }
}

/**
 * Creates a declared index, or for an aliased one its first generation behind the alias. An existing alias is
 * left where it points (a rebuild may have moved it), but its vector dimension must match the configuration.
 */
async function ensureDeclaredIndex(
  client: ElasticsearchClient,
  declaration: IndexDeclaration,
  dimension: number,
): Promise<void> {
  const mappings = withVectorDimension(declaration, dimension)
  if (!declaration.alias) {
    await createElasticsearchStore(client, declaration.name).ensureIndex(mappings, declaration.settings)
    return
  }
  const alias = declaration.alias
  if (!(await client.indices.existsAlias({ name: alias }))) {
    await createElasticsearchStore(client, declaration.name).ensureIndex(mappings, declaration.settings)
    try {
      await client.indices.putAlias({ index: declaration.name, name: alias, is_write_index: true })
    } catch (error) {
      if (!(await client.indices.existsAlias({ name: alias }))) throw error
    }
  }
  if (declaration.vectorField) await checkVectorDimension(client, alias, declaration.vectorField, dimension)
  // Fields declared since the generation was created are added to it (a rebuild is needed only to fill them).
  await client.indices.putMapping({ index: alias, properties: mappings.properties ?? {} })
}

async function checkVectorDimension(
  client: ElasticsearchClient,
  alias: string,
  vectorField: string,
  dimension: number,
): Promise<void> {
  const current = await client.indices.getMapping({ index: alias })
  for (const [index, { mappings: existing }] of Object.entries(current)) {
    const field = existing.properties?.[vectorField] as estypes.MappingDenseVectorProperty | undefined
    if (field?.dims !== undefined && field.dims !== dimension) {
      throw new Error(
        `${index} (behind ${alias}) holds ${field.dims}-dimensional vectors but EMBEDDINGS_DIMENSION is ${dimension}; rebuild the projection with the new model first`,
      )
    }
  }
}
