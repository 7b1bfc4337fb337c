/**
 * The product on a secured Kafka (issue 31): every service, the test's own control-plane client and a replay reach
 * the broker only through the local stack's SASL_SSL listener (TLS with the stack's own CA, SCRAM-SHA-512), the way a
 * managed Kafka asks for. The write path, the pipeline, search and a replay must work there as on the plaintext one.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runReplay } from '@memory-service/cli'
import type { MemoryClient } from '@memory-service/client'
import { createKafka, kafkaConnectionOf, createTopicAdmin, createLogger } from '@memory-service/engines'
import { securedKafkaFiles, securedKafkaPort, securedKafkaUser } from '../../infra/stack/securedKafka.js'
import { createTestClient } from '../support/http.js'
import { eventually, startGatewayWithInstance, testConfig, uniqueName } from '../support/testEngines.js'

const stateDir = testConfig().stateDir
const securedEnv = {
  KAFKA_BROKERS: `127.0.0.1:${securedKafkaPort}`,
  KAFKA_SSL_CA_FILE: securedKafkaFiles(join(stateDir, 'tls')).caFile,
  KAFKA_SASL_MECHANISM: 'scram-sha-512',
  KAFKA_SASL_USERNAME: securedKafkaUser.username,
  KAFKA_SASL_PASSWORD: securedKafkaUser.password,
}

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
const userId = uniqueName('secured-user')

beforeAll(async () => {
  harness = await startGatewayWithInstance('secured', { withWorkers: true, env: securedEnv })
  client = createTestClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
}, 240_000)

afterAll(async () => {
  await harness.close()
})

describe('on a secured Kafka (SASL_SSL, SCRAM-SHA-512)', () => {
  it('runs with no broker but the secured listener configured', () => {
    expect(harness.config.kafka.brokers).toEqual([`127.0.0.1:${securedKafkaPort}`])
    expect(kafkaConnectionOf(harness.config.kafka)).toMatchObject({
      ssl: { ca: expect.stringContaining('BEGIN CERTIFICATE') },
      sasl: { mechanism: 'scram-sha-512', username: securedKafkaUser.username },
    })
  })

  it('accepts events and documents, forms memories, finds them, and rebuilds them by replay', async () => {
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
    const job = await eventually(async () => {
      const status = await client.memories.status(created.ingestion_id)
      return status.status === 'completed' ? status : undefined
    }, 60_000)
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

    const reports = await runReplay(
      harness.config,
      ['--projection', 'vector', '--from-beginning'],
      harness.logger,
    )
    expect(reports[0]?.events).toBeGreaterThanOrEqual(job.memory_ids?.length ?? 1)
    const again = await client.memories.search({
      query: 'Where does Wout keep bees?',
      user_id: userId,
      limit: 3,
    })
    expect(again.results.map((memory) => memory.id)).toEqual(found.results.map((memory) => memory.id))
  })

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
})
