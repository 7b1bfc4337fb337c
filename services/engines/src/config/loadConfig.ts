import { accessSync, constants as fsConstants } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { Ajv, type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import serviceConfigSchema from '@memory-service/schemas/config/ServiceConfig.schema.json' with { type: 'json' }
import type { ServiceConfig } from '@memory-service/contracts'
import { isLocalEmbeddingModelName, localEmbeddingModelNames } from '../embeddings/localEmbeddingModels.js'

export type { ServiceConfig }

type SchemaNode = {
  type?: string
  properties?: Record<string, SchemaNode>
  'x-env'?: string
}

/** Thrown by {@link loadConfig} when the environment does not describe a valid configuration; lists every violation. */
export class ConfigError extends Error {
  constructor(readonly violations: string[]) {
    super(`Invalid configuration:\n  - ${violations.join('\n  - ')}`)
    this.name = 'ConfigError'
  }
}

/** Every environment variable the configuration reads, with the config path it sets. */
export function listConfigVariables(): { variable: string; path: string }[] {
  const found: { variable: string; path: string }[] = []
  const walk = (node: SchemaNode, path: string[]): void => {
    if (node['x-env']) found.push({ variable: node['x-env'], path: path.join('.') })
    for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, [...path, key])
  }
  walk(serviceConfigSchema, [])
  return found
}

/** Where downloads live, shared with the stack scripts (infra/stack/environment.ts follows the same rule). */
export function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  return (
    env.MEMORY_SERVICE_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'memory-service')
  )
}

export function defaultStateDir(): string {
  return process.getuid?.() === 0 ? '/var/lib/memory-service' : join(homedir(), '.local/state/memory-service')
}

function readEnvironment(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const raw: Record<string, unknown> = {}
  const walk = (node: SchemaNode, target: Record<string, unknown>): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const variable = child['x-env']
      if (variable !== undefined) {
        const value = env[variable]
        if (value !== undefined && value !== '') {
          target[key] = child.type === 'array' ? value.split(',').map((item) => item.trim()) : value
        }
      } else if (child.type === 'object') {
        const nested: Record<string, unknown> = {}
        target[key] = nested
        walk(child, nested)
      }
    }
  }
  walk(serviceConfigSchema, raw)
  return raw
}

const variableByPath = new Map(listConfigVariables().map(({ variable, path }) => [path, variable]))

function describeViolation(error: ErrorObject): string {
  const path = error.instancePath.split('/').filter(Boolean)
  if (error.keyword === 'additionalProperties') {
    return `${path.join('.') || 'config'}: unknown option ${String(error.params.additionalProperty)}`
  }
  const dotted = path.filter((segment) => !/^\d+$/.test(segment)).join('.')
  const variable = variableByPath.get(dotted)
  return `${variable ?? dotted}: ${error.message ?? 'is invalid'}`
}

const validate = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: true, strict: false })
addFormats.default(validate)
const validateConfig = validate.compile<ServiceConfig>(serviceConfigSchema)

/**
 * Reads the configuration from environment variables, fills defaults and validates it once.
 * Nothing else in the code base reads process.env.
 * @throws ConfigError listing every violation, including contradictory options.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const candidate = readEnvironment(env)
  candidate.stateDir ??= defaultStateDir()
  const embeddingSettings = candidate.embeddings as { modelDir?: string } | undefined
  if (embeddingSettings) embeddingSettings.modelDir ??= join(defaultCacheDir(env), 'models')
  const violations: string[] = []
  if (!validateConfig(candidate)) violations.push(...(validateConfig.errors ?? []).map(describeViolation))
  const clickhouse = candidate.clickhouse as { url?: unknown; dataPath?: unknown } | undefined
  if (clickhouse?.url !== undefined && clickhouse.dataPath !== undefined) {
    violations.push(
      'CLICKHOUSE_DATA_PATH: applies only to the in-process engine and contradicts CLICKHOUSE_URL; set one of them',
    )
  }
  const extraction = candidate.extraction as { provider?: unknown } | undefined
  const llm = candidate.llm as { baseUrl?: unknown; model?: unknown } | undefined
  if (extraction?.provider === 'llm' && (llm?.baseUrl === undefined || llm.model === undefined)) {
    violations.push('EXTRACTION_PROVIDER: llm needs LLM_BASE_URL and LLM_MODEL')
  }
  const embeddings = candidate.embeddings as
    { provider?: unknown; model?: unknown; baseUrl?: unknown } | undefined
  if (embeddings?.provider === 'openai' && embeddings.baseUrl === undefined) {
    violations.push('EMBEDDINGS_PROVIDER: openai needs EMBEDDINGS_BASE_URL')
  }
  // Each local model has its own pooling and prefixes (localEmbeddingModels), so only those can run.
  if (
    embeddings?.provider === 'local' &&
    typeof embeddings.model === 'string' &&
    !isLocalEmbeddingModelName(embeddings.model)
  ) {
    violations.push(
      `EMBEDDINGS_MODEL: ${embeddings.model} is not a local model; with EMBEDDINGS_PROVIDER=local it is one of ` +
        localEmbeddingModelNames.join(', '),
    )
  }
  violations.push(...securityViolations(candidate))
  if (violations.length > 0) throw new ConfigError(violations)
  return candidate as unknown as ServiceConfig
}

type Section = Record<string, unknown> | undefined

/**
 * The settings of secured connections that only make sense together, and the files they name: a wrong pair or an
 * unreadable CA would otherwise surface as a handshake failure at the first request, without naming the setting.
 */
function securityViolations(candidate: Record<string, unknown>): string[] {
  const violations: string[] = []
  const section = (name: string) => candidate[name] as Section
  const isSet = (values: Section, key: string) => values?.[key] !== undefined
  const both = (values: Section, a: string, b: string, message: string) => {
    if (isSet(values, a) !== isSet(values, b)) violations.push(message)
  }
  const kafka = section('kafka')
  if (isSet(kafka, 'saslMechanism') && !(isSet(kafka, 'saslUsername') && isSet(kafka, 'saslPassword'))) {
    violations.push('KAFKA_SASL_MECHANISM: needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD')
  }
  if (!isSet(kafka, 'saslMechanism') && (isSet(kafka, 'saslUsername') || isSet(kafka, 'saslPassword'))) {
    violations.push('KAFKA_SASL_USERNAME: needs KAFKA_SASL_MECHANISM (plain, scram-sha-256 or scram-sha-512)')
  }
  both(
    kafka,
    'sslCertFile',
    'sslKeyFile',
    'KAFKA_SSL_CERT_FILE: a client certificate needs its key (KAFKA_SSL_KEY_FILE), and a key its certificate',
  )
  both(
    section('schemaRegistry'),
    'username',
    'password',
    'SCHEMA_REGISTRY_USERNAME: needs SCHEMA_REGISTRY_PASSWORD, and a password its username',
  )
  const elasticsearch = section('elasticsearch')
  both(
    elasticsearch,
    'username',
    'password',
    'ELASTICSEARCH_USERNAME: needs ELASTICSEARCH_PASSWORD, and a password its username',
  )
  if (isSet(elasticsearch, 'apiKey') && isSet(elasticsearch, 'username')) {
    violations.push(
      'ELASTICSEARCH_API_KEY: contradicts ELASTICSEARCH_USERNAME; authenticate with one of them',
    )
  }
  if (isSet(elasticsearch, 'caFile') && isSet(elasticsearch, 'caFingerprint')) {
    violations.push(
      'ELASTICSEARCH_CA_FINGERPRINT: contradicts ELASTICSEARCH_CA_FILE; trust the CA by one of them',
    )
  }
  const neo4j = section('neo4j')
  both(neo4j, 'username', 'password', 'NEO4J_USERNAME: needs NEO4J_PASSWORD, and a password its username')
  if (
    isSet(neo4j, 'caFile') &&
    /^[a-z0-9]+\+s{1,2}c?:/i.test(typeof neo4j?.uri === 'string' ? neo4j.uri : '')
  ) {
    violations.push(
      'NEO4J_CA_FILE: contradicts a neo4j+s:// or +ssc:// URI, which chooses its own trust; use bolt:// or neo4j://',
    )
  }
  const clickhouse = section('clickhouse')
  if (
    isSet(clickhouse, 'caFile') &&
    !(typeof clickhouse?.url === 'string' ? clickhouse.url : '').startsWith('https:')
  ) {
    violations.push('CLICKHOUSE_CA_FILE: applies only to an https:// CLICKHOUSE_URL')
  }
  for (const { variable, path } of listConfigVariables()) {
    if (!variable.endsWith('_FILE')) continue
    const [sectionName, key] = path.split('.')
    const file = sectionName && key ? section(sectionName)?.[key] : undefined
    if (typeof file !== 'string') continue
    try {
      accessSync(file, fsConstants.R_OK)
    } catch (error) {
      violations.push(
        `${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      )
    }
  }
  return violations
}
