import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import serviceConfigSchema from '@memory-service/schemas/config/ServiceConfig.schema.json' with { type: 'json' }
import { localEmbeddingModelNames } from '../embeddings/localEmbeddingModels.js'
import { kafkaConnectionOf } from '../kafka/createKafka.js'
import { schemaRegistryConnectionOf } from '../schemaRegistry/createSchemaCodec.js'
import { ConfigError, listConfigVariables, loadConfig } from './loadConfig.js'

describe('loadConfig', () => {
  it('fills every default when the environment sets nothing', () => {
    const config = loadConfig({
      MEMORY_SERVICE_STATE_DIR: '/srv/memory',
      MEMORY_SERVICE_CACHE_DIR: '/srv/cache',
    })
    expect(config).toEqual({
      http: { host: '127.0.0.1', port: 8080 },
      grpc: { host: '127.0.0.1', port: 50051 },
      rateLimit: { group: 'memory-service-gateways' },
      events: { dedupeWindowSeconds: 900, dedupeMaxEntries: 2_000_000, anticipationConcurrency: 1 },
      kafka: { brokers: ['127.0.0.1:9092'], clientId: 'memory-service' },
      schemaRegistry: { url: 'http://127.0.0.1:8081/apis/ccompat/v7' },
      elasticsearch: { url: 'http://127.0.0.1:9200' },
      neo4j: { uri: 'bolt://127.0.0.1:7687', database: 'neo4j' },
      clickhouse: { database: 'memory_service' },
      log: { level: 'info' },
      stateDir: '/srv/memory',
      telemetry: { metricsPort: 9464, serviceName: 'memory-service' },
      webhooks: {
        allowedHosts: ['localhost', '127.0.0.1', '::1'],
        retrySchedule: ['5s', '1m', '5m', '30m', '2h', '5h'],
        retryWindow: '24h',
        timeoutMs: 10000,
        concurrency: 16,
        pollIntervalMs: 500,
      },
      encryption: { enabled: true, keyCacheMs: 30000 },
      extraction: { provider: 'builtin' },
      llm: { timeoutMs: 60000 },
      embeddings: {
        provider: 'local',
        model: 'all-MiniLM-L6-v2',
        dimension: 384,
        modelDir: '/srv/cache/models',
      },
      pipeline: {
        maxAttempts: 4,
        retryBaseMs: 200,
        concurrency: 6,
        visibilityTimeoutMs: 30000,
        documentsPerPartition: 4,
      },
      memories: { expirySweepSeconds: 10 },
      analytics: {
        tokenPrices: [
          'gpt-4o-mini=0.15/0.6',
          'gpt-4o=2.5/10',
          'gpt-4.1-mini=0.4/1.6',
          'gpt-4.1=2/8',
          'text-embedding-3-small=0.02/0',
          'text-embedding-3-large=0.13/0',
        ],
      },
    })
  })

  it('reads external servers from the environment and coerces numbers and lists', () => {
    const config = loadConfig({
      HTTP_PORT: '9090',
      KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9092',
      ELASTICSEARCH_URL: 'https://es.internal:9200',
      NEO4J_URI: 'neo4j+s://graph.internal:7687',
      CLICKHOUSE_URL: 'http://clickhouse.internal:8123',
      SCHEMA_REGISTRY_URL: 'http://registry.internal:8081',
    })
    expect(config.http.port).toBe(9090)
    expect(config.kafka.brokers).toEqual(['kafka-1:9092', 'kafka-2:9092'])
    expect(config.elasticsearch.url).toBe('https://es.internal:9200')
    expect(config.neo4j.uri).toBe('neo4j+s://graph.internal:7687')
    expect(config.clickhouse.url).toBe('http://clickhouse.internal:8123')
    expect(config.schemaRegistry.url).toBe('http://registry.internal:8081')
  })

  it('lists every violation at once, named by environment variable', () => {
    let caught: unknown
    try {
      loadConfig({
        HTTP_PORT: 'eighty',
        LOG_LEVEL: 'loud',
        KAFKA_BROKERS: 'no-port',
        NEO4J_URI: 'http://graph',
      })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConfigError)
    const violations = (caught as ConfigError).violations
    expect(violations).toHaveLength(4)
    expect(violations.map((violation) => violation.split(':')[0]).sort()).toEqual([
      'HTTP_PORT',
      'KAFKA_BROKERS',
      'LOG_LEVEL',
      'NEO4J_URI',
    ])
  })

  it('rejects the in-process data path together with a ClickHouse server URL', () => {
    expect(() => loadConfig({ CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_DATA_PATH: '/tmp/ch' })).toThrow(
      /CLICKHOUSE_DATA_PATH: .*contradicts CLICKHOUSE_URL/,
    )
  })

  it('refuses model providers whose endpoint is not configured', () => {
    expect(() => loadConfig({ EXTRACTION_PROVIDER: 'llm' })).toThrow(
      /EXTRACTION_PROVIDER: llm needs LLM_BASE_URL/,
    )
    expect(() => loadConfig({ EMBEDDINGS_PROVIDER: 'openai' })).toThrow(/EMBEDDINGS_PROVIDER: openai needs/)
    const config = loadConfig({ EXTRACTION_PROVIDER: 'llm', LLM_BASE_URL: 'http://llm:1/v1', LLM_MODEL: 'm' })
    expect(config.llm).toMatchObject({ baseUrl: 'http://llm:1/v1', model: 'm', timeoutMs: 60000 })
    expect(config.embeddings).toMatchObject({ provider: 'local', dimension: 384 })
  })

  it('takes a local embedding model among those it can run, and names them when it is another', () => {
    for (const model of ['all-MiniLM-L6-v2', 'bge-small-en-v1.5', 'e5-small-v2']) {
      expect(loadConfig({ EMBEDDINGS_MODEL: model }).embeddings).toMatchObject({ provider: 'local', model })
    }
    expect(() => loadConfig({ EMBEDDINGS_MODEL: 'bge-base-en-v1.5' })).toThrow(
      'EMBEDDINGS_MODEL: bge-base-en-v1.5 is not a local model; with EMBEDDINGS_PROVIDER=local it is one of ' +
        'all-MiniLM-L6-v2, bge-small-en-v1.5, e5-small-v2',
    )
    const remote = loadConfig({
      EMBEDDINGS_PROVIDER: 'openai',
      EMBEDDINGS_BASE_URL: 'http://embeddings:1/v1',
      EMBEDDINGS_MODEL: 'text-embedding-3-small',
      EMBEDDINGS_DIMENSION: '1536',
    })
    expect(remote.embeddings).toMatchObject({ model: 'text-embedding-3-small', dimension: 1536 })
  })

  it('describes every local embedding model in the schema that the configuration page is generated from', () => {
    const description = serviceConfigSchema.properties.embeddings.properties.model.description
    for (const model of localEmbeddingModelNames) expect(description).toContain(model)
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ HTTP_PORT: '' }).http.port).toBe(8080)
  })

  it('names one environment variable per leaf option', () => {
    const variables = listConfigVariables().map(({ variable }) => variable)
    expect(new Set(variables).size).toBe(variables.length)
    expect(variables).toEqual(
      expect.arrayContaining([
        'KAFKA_BROKERS',
        'ELASTICSEARCH_URL',
        'NEO4J_URI',
        'CLICKHOUSE_URL',
        'SCHEMA_REGISTRY_URL',
      ]),
    )
  })
})

describe('secured connections', () => {
  const directory = mkdtempSync(join(tmpdir(), 'memory-service-config-'))
  const pem = (name: string, text: string) => {
    const file = join(directory, name)
    writeFileSync(file, text)
    return file
  }
  const violationsOf = (env: NodeJS.ProcessEnv): string[] => {
    try {
      loadConfig({ MEMORY_SERVICE_STATE_DIR: directory, ...env })
      return []
    } catch (error) {
      return (error as ConfigError).violations
    }
  }

  it('reads Kafka TLS and SASL from the environment, with the contents of the PEM files', () => {
    const ca = pem('kafka-ca.pem', 'CA PEM')
    const config = loadConfig({
      MEMORY_SERVICE_STATE_DIR: directory,
      KAFKA_BROKERS: 'broker.example:9094',
      KAFKA_SSL_CA_FILE: ca,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'memory',
      KAFKA_SASL_PASSWORD: 'hunter2',
    })
    expect(kafkaConnectionOf(config.kafka, 'cli')).toEqual({
      brokers: ['broker.example:9094'],
      clientId: 'cli',
      ssl: { ca: 'CA PEM' },
      sasl: { mechanism: 'scram-sha-512', username: 'memory', password: 'hunter2' },
    })
    // TLS on without files trusts the system's authorities; nothing set is a plaintext connection.
    expect(kafkaConnectionOf(loadConfig({ KAFKA_SSL: 'true' }).kafka).ssl).toBe(true)
    expect(kafkaConnectionOf(loadConfig({}).kafka)).toEqual({
      brokers: ['127.0.0.1:9092'],
      clientId: 'memory-service',
    })
  })

  it('reads the credentials and CA of the schema registry', () => {
    const ca = pem('registry-ca.pem', 'REGISTRY CA')
    const config = loadConfig({
      SCHEMA_REGISTRY_URL: 'https://registry.example/apis/ccompat/v7',
      SCHEMA_REGISTRY_USERNAME: 'memory',
      SCHEMA_REGISTRY_PASSWORD: 'hunter2',
      SCHEMA_REGISTRY_CA_FILE: ca,
    })
    expect(schemaRegistryConnectionOf(config.schemaRegistry)).toEqual({
      url: 'https://registry.example/apis/ccompat/v7',
      username: 'memory',
      password: 'hunter2',
      ca: 'REGISTRY CA',
    })
  })

  it('names the setting of every half-configured or contradictory secured connection', () => {
    const ca = pem('ca.pem', 'CA')
    const violations = violationsOf({
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SSL_CERT_FILE: ca,
      SCHEMA_REGISTRY_USERNAME: 'memory',
      ELASTICSEARCH_API_KEY: 'key',
      ELASTICSEARCH_USERNAME: 'elastic',
      ELASTICSEARCH_PASSWORD: 'secret',
      ELASTICSEARCH_CA_FILE: ca,
      ELASTICSEARCH_CA_FINGERPRINT: 'AA:'.repeat(31) + 'AA',
      NEO4J_URI: 'neo4j+s://graph.example:7687',
      NEO4J_CA_FILE: ca,
      CLICKHOUSE_URL: 'http://clickhouse.example:8123',
      CLICKHOUSE_CA_FILE: ca,
    })
    expect(violations.map((violation) => violation.split(':')[0]).sort()).toEqual([
      'CLICKHOUSE_CA_FILE',
      'ELASTICSEARCH_API_KEY',
      'ELASTICSEARCH_CA_FINGERPRINT',
      'KAFKA_SASL_MECHANISM',
      'KAFKA_SSL_CERT_FILE',
      'NEO4J_CA_FILE',
      'SCHEMA_REGISTRY_USERNAME',
    ])
    expect(violationsOf({ KAFKA_SASL_USERNAME: 'memory', KAFKA_SASL_PASSWORD: 'x' })).toEqual([
      expect.stringMatching(/^KAFKA_SASL_USERNAME: needs KAFKA_SASL_MECHANISM/),
    ])
    expect(violationsOf({ KAFKA_SASL_MECHANISM: 'gssapi' })[0]).toMatch(/^KAFKA_SASL_MECHANISM: /)
  })

  it('names a CA or key file it cannot read, and never echoes a secret in a violation', () => {
    const violations = violationsOf({
      KAFKA_SSL_CA_FILE: join(directory, 'missing.pem'),
      ELASTICSEARCH_CA_FILE: join(directory, 'also-missing.pem'),
      KAFKA_SASL_PASSWORD: 'hunter2-secret',
    })
    expect(violations).toContain(`KAFKA_SSL_CA_FILE: cannot read ${join(directory, 'missing.pem')} (ENOENT)`)
    expect(violations).toContain(
      `ELASTICSEARCH_CA_FILE: cannot read ${join(directory, 'also-missing.pem')} (ENOENT)`,
    )
    expect(violations.join('\n')).not.toContain('hunter2-secret')
  })
})
