/**
 * The product on secured engines (issue 31): every service, the test's own control-plane client and a replay reach
 * the broker only through the local stack's SASL_SSL listener (TLS with the stack's own CA, SCRAM-SHA-512), the way a
 * managed Kafka asks for, and Elasticsearch only through the stack's secured node (`stack:up --secured`: security
 * and HTTP TLS on, a user with only the privileges the service needs, the CA from a file), and Neo4j only through
 * the stack's secured server (authentication on, TLS required on bolt, the CA from a file), the way self-managed
 * clusters with security ask for. The write path, the pipeline, search and a replay must work there as on the
 * plaintext engines.
 */
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runReplay } from '@memory-service/cli'
import type { MemoryClient } from '@memory-service/client'
import {
  createElasticsearchClient,
  createNeo4jDriver,
  createNeo4jStore,
  type Neo4jStore,
  createKafka,
  kafkaConnectionOf,
  createTopicAdmin,
  createLogger,
} from '@memory-service/engines'
import { deployment } from '@memory-service/domain'
import type { Client } from '@elastic/elasticsearch'
import { securedKafkaFiles, securedKafkaPort, securedKafkaUser } from '../../infra/stack/securedKafka.js'
import {
  securedElasticsearchAdmin,
  securedElasticsearchServiceUser,
  securedElasticsearchUrl,
} from '../../infra/stack/securedElasticsearch.js'
import { securedNeo4jUri, securedNeo4jUser } from '../../infra/stack/securedNeo4j.js'
import { createTestClient } from '../support/http.js'
import { eventually, startGatewayWithInstance, testConfig, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

const tlsDir = join(testConfig().stateDir, 'tls')
const caFile = securedKafkaFiles(tlsDir).caFile
const securedEnv: Record<string, string> = {
  KAFKA_BROKERS: `127.0.0.1:${securedKafkaPort}`,
  KAFKA_SSL_CA_FILE: caFile,
  KAFKA_SASL_MECHANISM: 'scram-sha-512',
  KAFKA_SASL_USERNAME: securedKafkaUser.username,
  KAFKA_SASL_PASSWORD: securedKafkaUser.password,
  ELASTICSEARCH_URL: securedElasticsearchUrl,
  ELASTICSEARCH_CA_FILE: caFile,
  ELASTICSEARCH_USERNAME: securedElasticsearchServiceUser.username,
  ELASTICSEARCH_PASSWORD: securedElasticsearchServiceUser.password,
  NEO4J_URI: securedNeo4jUri,
  NEO4J_USERNAME: securedNeo4jUser.username,
  NEO4J_PASSWORD: securedNeo4jUser.password,
  NEO4J_CA_FILE: caFile,
}

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
let admin: Client
let graph: Neo4jStore
const userId = uniqueName('secured-user')

beforeAll(async () => {
  admin = securedElasticsearchAdmin(tlsDir)
  graph = createNeo4jStore(createNeo4jDriver(testConfig(securedEnv).neo4j), 'neo4j')
  harness = await startGatewayWithInstance('secured', { withWorkers: true, env: securedEnv })
  client = createTestClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
}, 240_000)

afterAll(async () => {
  await harness.close()
  // The secured node outlives this run: what the run provisioned there goes with it.
  await graph.write(
    `MATCH (node) WHERE node.generation STARTS WITH $prefix
       OR (node:ProjectionState AND node.projection = $stateKey)
     DETACH DELETE node`,
    { prefix: deployment.graph.generationPrefix, stateKey: deployment.graph.stateKey },
  )
  await graph.close()
  await admin.indices.delete({
    index: deployment.index('*'),
    expand_wildcards: 'all',
    ignore_unavailable: true,
  })
  await admin.close()
})

describe('on a secured Kafka (SASL_SSL, SCRAM-SHA-512), Elasticsearch (a user, TLS) and Neo4j (a user, TLS)', () => {
  it('runs with no broker but the secured listener and no Elasticsearch but the secured node configured', async () => {
    expect(harness.config.kafka.brokers).toEqual([`127.0.0.1:${securedKafkaPort}`])
    expect(kafkaConnectionOf(harness.config.kafka)).toMatchObject({
      ssl: { ca: expect.stringContaining('BEGIN CERTIFICATE') },
      sasl: { mechanism: 'scram-sha-512', username: securedKafkaUser.username },
    })
    expect(harness.config.elasticsearch.url).toBe(securedElasticsearchUrl)
    // The services provisioned their indices (the data keys' included) in the secured node.
    const indices = Object.keys(await admin.indices.get({ index: deployment.index('*') }))
    expect(indices).toContain(deployment.index('mem-data-keys-v1'))
  })

  it('accepts events and documents, forms memories, finds them, and rebuilds them by replay', async () => {
    // The replay starts here: the topic holds every earlier test file's records too, which a replay from the first
    // offset would write into the secured node (minutes on CI), and replay.e2e covers replays from the beginning.
    const since = new Date(Date.now() - 1000)
    const conversationId = uniqueName('secured-conversation')
    const events = await client.events.send([
      {
        event_type: 'user_message',
        conversation_id: conversationId,
        user_id: userId,
        content: 'Hello from Ghent.',
      },
    ])
    expect(events.accepted).toBe(1)
    const created = await client.memories.ingest({
      document: 'Wout: I keep bees on the roof of my flat in Ghent, and the first honey came this week.',
      document_type: 'ai-chat-conversation',
      mode: 'fast',
      document_created_at: '2024-05-02T10:00:00.000Z',
      user_id: userId,
    })
    const job = await completedJob(client, created.ingestion_id)
    expect(job.memory_ids?.length).toBeGreaterThan(0)
    const found = await eventually(async () => {
      const reply = await client.memories.search({
        query: 'Where does Wout keep bees?',
        user_id: userId,
        limit: 3,
      })
      return reply.results.length > 0 ? reply : undefined
    })
    expect(found.results[0]?.content).toMatch(/bees/)
    // The graph projection wrote them into the secured Neo4j.
    await eventually(async () => {
      const [inGraph] = await graph.read<{ memories: number }>(
        'MATCH (memory:Memory) WHERE memory.generation STARTS WITH $prefix AND memory.id IN $ids RETURN count(memory) AS memories',
        { prefix: deployment.graph.generationPrefix, ids: job.memory_ids ?? [] },
      )
      return inGraph?.memories === job.memory_ids?.length ? true : undefined
    })

    const reports = await runReplay(
      harness.config,
      ['--projection', 'vector', '--from', since.toISOString()],
      harness.logger,
    )
    expect(reports[0]?.events).toBeGreaterThanOrEqual(job.memory_ids?.length ?? 1)
    const again = await client.memories.search({
      query: 'Where does Wout keep bees?',
      user_id: userId,
      limit: 3,
    })
    expect(again.results.map((memory) => memory.id)).toEqual(found.results.map((memory) => memory.id))
  }, 240_000)

  it('authenticates with each mechanism the configuration offers', async () => {
    for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512']) {
      const admin = await createTopicAdmin(
        createKafka({
          ...kafkaConnectionOf(
            testConfig({ ...securedEnv, KAFKA_SASL_MECHANISM: mechanism }).kafka,
            'secured',
          ),
          logger: createLogger({ level: 'silent', name: 'e2e' }),
        }),
      )
      expect((await admin.describeCluster()).brokers).toBeGreaterThan(0)
      await admin.close()
    }
  })

  it('refuses a wrong password, naming the authentication failure', async () => {
    const wrong = createKafka({
      ...kafkaConnectionOf(
        testConfig({ ...securedEnv, KAFKA_SASL_PASSWORD: 'not-the-password' }).kafka,
        'secured-wrong-password',
      ),
      logger: createLogger({ level: 'silent', name: 'e2e' }),
    })
    await expect(createTopicAdmin(wrong)).rejects.toThrow(/SASL|authentication/i)
  })

  it('trusts the CA by its fingerprint too, and refuses a wrong password and a client that does not trust the CA', async () => {
    const byFingerprint = createElasticsearchClient(
      testConfig({
        ...securedEnv,
        ELASTICSEARCH_CA_FILE: '',
        ELASTICSEARCH_CA_FINGERPRINT: new X509Certificate(readFileSync(caFile)).fingerprint256,
      }).elasticsearch,
    )
    expect((await byFingerprint.cluster.health()).status).toBeDefined()
    await byFingerprint.close()
    const otherFingerprint = createElasticsearchClient(
      testConfig({
        ...securedEnv,
        ELASTICSEARCH_CA_FILE: '',
        ELASTICSEARCH_CA_FINGERPRINT: Array.from({ length: 32 }, () => 'AB').join(':'),
      }).elasticsearch,
    )
    await expect(otherFingerprint.cluster.health()).rejects.toThrow(/fingerprint/i)
    await otherFingerprint.close()
    const wrongPassword = createElasticsearchClient(
      testConfig({ ...securedEnv, ELASTICSEARCH_PASSWORD: 'not-the-password' }).elasticsearch,
    )
    await expect(wrongPassword.cluster.health()).rejects.toMatchObject({ meta: { statusCode: 401 } })
    await wrongPassword.close()
    const untrusting = createElasticsearchClient({
      url: securedElasticsearchUrl,
      username: securedElasticsearchServiceUser.username,
      password: securedElasticsearchServiceUser.password,
    })
    await expect(untrusting.cluster.health()).rejects.toThrow(/certificate/i)
    await untrusting.close()
  })

  it('refuses a wrong Neo4j password', async () => {
    const wrong = createNeo4jStore(
      createNeo4jDriver(testConfig({ ...securedEnv, NEO4J_PASSWORD: 'not-the-password' }).neo4j),
      'neo4j',
    )
    await expect(wrong.version()).rejects.toThrow(/authentication|unauthorized/i)
    await wrong.close()
  })
})
