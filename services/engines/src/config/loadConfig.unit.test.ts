import { describe, expect, it } from 'vitest'
import serviceConfigSchema from '@memory-service/schemas/config/ServiceConfig.schema.json' with { type: 'json' }
import { localEmbeddingModelNames } from '../embeddings/localEmbeddingModels.js'
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
      webhooks: {
        allowedHosts: ['localhost', '127.0.0.1', '::1'],
        retrySchedule: ['5s', '1m', '5m', '30m', '2h', '5h'],
        retryWindow: '24h',
        timeoutMs: 10000,
        concurrency: 16,
        pollIntervalMs: 500,
      },
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
