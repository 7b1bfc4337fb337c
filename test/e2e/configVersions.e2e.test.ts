/**
 * Configuration versions on the real stack: the lifecycle (init, propose as YAML or JSON, review, apply, supersede)
 * with every refusal's whole body, the usage of a version from ClickHouse, the active configuration driving
 * search defaults and what the projections store, and a change that rebuilds the projections from the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MemoryClient } from '@memory-service/client'
import { allPermissions, MEMORIES_ALIAS } from '@memory-service/domain'
import { createElasticsearchClient } from '@memory-service/engines'
import { runVerify } from '@memory-service/cli'
import {
  type ConfigVersion,
  type CreatedInstance,
  type ErrorBody,
  type MemoryArchitectureConfig,
} from '@memory-service/contracts'
import { createTestClient, refusal, refusalOf, request, statusOf, type Exchange } from '../support/http.js'
import { eventually, startGatewayWithInstance, testConfig, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let instanceId: string
/** Proposes (the instance's first key). */
let proposer: MemoryClient
/** Reviews and applies: another key with every permission. */
let reviewer: MemoryClient
let reviewerKeyId: string
/** configs:read and configs:write only. */
let writer: MemoryClient
let writerPermissions: string[]
let otherClient: CreatedInstance
let other: MemoryClient
/** Every response to a call made with this instance's keys, counted for the usage comparison. */
const exchanges: Exchange[] = []
/** The responses of the other client's instance, counted apart. */
const otherExchanges: Exchange[] = []

/** Sends a body as it is, with its content type: what the client library cannot send (malformed JSON, text/yaml). */
async function proposeRaw(body: string, contentType: string) {
  return request<ErrorBody>(
    harness.gateway.addresses.http ?? '',
    'POST',
    `/instances/${instanceId}/memory-architecture/versions`,
    { apiKey: instance.api_key.key, body, contentType },
  )
}

const review = (configId: string, decision: 'approve' | 'reject', api = reviewer) =>
  api.configs.review(instanceId, configId, { decision, comment: `${decision} in e2e` })
const apply = (configId: string, api = reviewer) => api.configs.apply(instanceId, configId)
const getVersion = (configId: string) => proposer.configs.get(instanceId, configId)

/** Proposes, approves and applies; answers the applied version. */
async function activate(yaml: string): Promise<ConfigVersion> {
  const proposed = await proposer.configs.propose(instanceId, yaml)
  await review(proposed.config_id, 'approve')
  return apply(proposed.config_id)
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('config-versions', { withWorkers: true })
  instance = harness.instance
  instanceId = instance.instance.instance_id
  const reviewerKey = await harness.tenancy.issueKey(instanceId, allPermissions, 'config-e2e')
  reviewerKeyId = reviewerKey.key_id
  writerPermissions = ['configs:read', 'configs:write']
  const writerKey = (await harness.tenancy.issueKey(instanceId, writerPermissions as never, 'config-e2e')).key
  otherClient = await harness.createInstance('config-versions-other-client')
  for (const key of [reviewerKey.key, writerKey, otherClient.api_key.key]) await harness.untilUsable(key)
  const baseUrl = harness.gateway.addresses.http ?? ''
  proposer = createTestClient({ baseUrl, apiKey: instance.api_key.key, exchanges })
  reviewer = createTestClient({ baseUrl, apiKey: reviewerKey.key, exchanges })
  writer = createTestClient({ baseUrl, apiKey: writerKey, exchanges })
  other = createTestClient({ baseUrl, apiKey: otherClient.api_key.key, exchanges: otherExchanges })
})

const elasticsearch = createElasticsearchClient(testConfig().elasticsearch)

afterAll(async () => {
  await harness.close()
  await elasticsearch.close()
})

const defaults = {
  extraction: {
    default_mode: 'fast',
    min_confidence: 0,
    memory_types: ['fact', 'preference', 'episode', 'emotion', 'temporal_event'],
  },
  storage: {
    vector: { embedding_model: 'all-MiniLM-L6-v2', embedding_dimension: 384 },
    graph: { enabled: true },
    expiry: { default_ttl_days: null },
  },
  retrieval: { default_mode: 'accurate', max_results: 10, context_budget: 4096, graph_queries: true },
}

describe('initialization', () => {
  it('an instance without versions has no current configuration yet', async () => {
    expect(await refusal(proposer.configs.current(instanceId))).toEqual({
      status: 404,
      code: 'CONFIG_NOT_FOUND',
      details: { config_id: null, instance_id: instanceId },
    })
    const listed = await proposer.configs.list(instanceId)
    expect(listed).toEqual({ items: [], page: 1, page_size: 20, total: 0, has_more: false })
  })

  it('init makes the defaults version 1, active at once; a second init answers the same version', async () => {
    const created = await proposer.configs.init(instanceId)
    expect(exchanges.at(-1)?.status).toBe(201)
    expect(created).toMatchObject({
      config_id: expect.stringMatching(/^maca_cfg_[0-9a-f]{16}$/),
      instance_id: instanceId,
      version: 1,
      status: 'active',
      configuration: defaults,
      source_format: 'default',
      proposed_by: 'system',
      review: { decision: 'approved', reviewed_by: 'system' },
      applied_by: 'system',
      superseded_at: null,
      rebuild: null,
    })
    const again = await proposer.configs.init(instanceId)
    expect(exchanges.at(-1)?.status).toBe(200)
    expect(again).toEqual(created)
  })
})

describe('proposals and their validation', () => {
  it('a YAML proposal is pending review, with its defaults filled in', async () => {
    const proposed = await proposer.configs.propose(
      instanceId,
      'description: faster answers\nretrieval:\n  default_mode: fast\n  max_results: 3\n',
    )
    expect(exchanges.at(-1)?.status).toBe(201)
    expect(proposed).toMatchObject({
      version: 2,
      status: 'pending_review',
      source_format: 'yaml',
      proposed_by: instance.api_key.key_id,
      review: null,
      applied_at: null,
      configuration: {
        ...defaults,
        description: 'faster answers',
        retrieval: { ...defaults.retrieval, default_mode: 'fast', max_results: 3 },
      },
    })
    const json = await proposer.configs.propose(instanceId, { retrieval: { context_budget: 8192 } })
    expect(exchanges.at(-1)?.status).toBe(201)
    expect(json).toMatchObject({ version: 3, source_format: 'json' })
  })

  /** Proposals the client library sends: YAML text (application/yaml) or an object (application/json). */
  const invalid: [string, string | MemoryArchitectureConfig, unknown[]][] = [
    [
      'invalid YAML',
      'retrieval:\n\tdefault_mode: fast\n',
      [
        {
          field: '(root)',
          message: 'invalid YAML at line 2, column 1: Tabs are not allowed as indentation',
          value: '\tdefault_mode: fast',
          line: 2,
        },
      ],
    ],
    [
      'schema errors',
      'retrieval:\n  default_mode: slow\nstorage:\n  cache: true\n',
      [
        { field: 'storage.cache', message: 'is not a configuration field', value: true, line: 4 },
        {
          field: 'retrieval.default_mode',
          message: 'must be equal to one of the allowed values',
          value: 'slow',
          line: 2,
        },
      ],
    ],
    [
      'an embedding dimension out of range',
      'storage:\n  vector:\n    embedding_dimension: 8192\n',
      [
        {
          field: 'storage.vector.embedding_dimension',
          message: 'must be between 64 and 4096',
          value: 8192,
          line: 3,
        },
      ],
    ],
    [
      'a context budget out of range',
      { retrieval: { context_budget: 100 } },
      // The client sends JSON on one line.
      [{ field: 'retrieval.context_budget', message: 'must be between 256 and 32768', value: 100, line: 1 }],
    ],
    [
      'graph queries without the graph store',
      'storage:\n  graph:\n    enabled: false\n',
      // The text names neither the field nor its section: no line.
      [
        {
          field: 'retrieval.graph_queries',
          message: 'graph queries need storage.graph.enabled: true',
          value: true,
        },
      ],
    ],
  ]
  it.each(invalid)(
    '%s → 400 CONFIG_VALIDATION_ERROR naming field, message, value and line',
    async (_, configuration, errors) => {
      expect(await refusal(proposer.configs.propose(instanceId, configuration))).toEqual({
        status: 400,
        code: 'CONFIG_VALIDATION_ERROR',
        details: { validation_errors: errors },
      })
    },
  )

  /** Bodies the client library cannot send: malformed JSON, and YAML under another content type. */
  const invalidRaw: [string, string, string, unknown[]][] = [
    [
      'invalid JSON',
      '{"retrieval": ',
      'application/json',
      [{ field: '(root)', message: expect.stringMatching(/^invalid JSON: /), value: null }],
    ],
    [
      'a model the deployment does not serve',
      'storage:\n  vector:\n    embedding_model: text-embedding-3-large\n    embedding_dimension: 3072\n',
      'text/yaml',
      [
        {
          field: 'storage.vector.embedding_model',
          message: 'this deployment serves all-MiniLM-L6-v2 (384 dimensions)',
          value: 'text-embedding-3-large',
          line: 3,
        },
      ],
    ],
  ]
  it.each(invalidRaw)(
    '%s → 400 CONFIG_VALIDATION_ERROR naming field, message and value',
    async (_, body, type, errors) => {
      const reply = await proposeRaw(body, type)
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body).toEqual({
        error: expect.any(String),
        code: 'CONFIG_VALIDATION_ERROR',
        details: { validation_errors: errors },
      })
    },
  )

  it('nothing invalid became a version', async () => {
    const listed = await proposer.configs.list(instanceId, { page_size: 100 })
    expect(listed.total).toBe(3)
  })
})

describe('review and apply', () => {
  let configId: string
  beforeAll(async () => {
    const proposed = await proposer.configs.propose(
      instanceId,
      'retrieval:\n  default_mode: fast\n  max_results: 3\n',
    )
    configId = proposed.config_id
  })

  it('applying a version that is not approved → 409 CONFIG_CONFLICT', async () => {
    expect(await refusal(apply(configId))).toEqual({
      status: 409,
      code: 'CONFIG_CONFLICT',
      details: {
        config_id: configId,
        current_status: 'pending_review',
        requested_action: 'apply',
        required_status: 'approved',
      },
    })
  })

  it('the proposing key cannot approve its own version; a key without configs:review cannot review', async () => {
    expect(await refusal(review(configId, 'approve', proposer))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      details: {
        required_permission: 'configs:review',
        current_permissions: [...allPermissions],
        reason: 'own_proposal',
        config_id: configId,
      },
    })
    expect(await refusal(review(configId, 'approve', writer))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      details: { required_permission: 'configs:review', current_permissions: writerPermissions },
    })
  })

  it('approval records the reviewer and comment; a second review → 409 CONFIG_CONFLICT', async () => {
    const approved = await review(configId, 'approve')
    expect(exchanges.at(-1)?.status).toBe(200)
    expect(approved).toMatchObject({
      status: 'approved',
      review: { decision: 'approved', comment: 'approve in e2e', reviewed_by: reviewerKeyId },
    })
    expect(await refusal(review(configId, 'reject'))).toEqual({
      status: 409,
      code: 'CONFIG_CONFLICT',
      details: {
        config_id: configId,
        current_status: 'approved',
        requested_action: 'review',
        required_status: 'pending_review',
      },
    })
  })

  it('applying needs configs:apply; then the version is active and the one before superseded', async () => {
    expect(await refusal(apply(configId, writer))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      details: { required_permission: 'configs:apply' },
    })
    const before = (await proposer.configs.current(instanceId)).config
    const applied = await apply(configId)
    expect(exchanges.at(-1)?.status).toBe(200)
    expect(applied).toMatchObject({ status: 'active', applied_by: reviewerKeyId, rebuild: null })
    const previous = await getVersion(before.config_id)
    expect(previous).toMatchObject({
      status: 'superseded',
      superseded_by: configId,
      superseded_at: applied.applied_at,
    })
  })

  it('applying the active version → 409 CONFIG_ALREADY_ACTIVE', async () => {
    const refused = await refusal(apply(configId))
    const version = await getVersion(configId)
    expect(refused).toEqual({
      status: 409,
      code: 'CONFIG_ALREADY_ACTIVE',
      details: { config_id: configId, applied_at: version.applied_at },
    })
  })

  it('the active configuration sets the defaults of a search', async () => {
    const user = uniqueName('config-user')
    const reply = await proposer.memories.search({ query: 'anything at all', user_id: user })
    expect(exchanges.at(-1)?.status).toBe(200)
    expect(reply.mode).toBe('fast')
    const explicit = await proposer.memories.search({
      query: 'anything at all',
      user_id: user,
      mode: 'accurate',
    })
    expect(explicit.mode).toBe('accurate')
  })

  it('a rejected version cannot be applied', async () => {
    const proposed = await proposer.configs.propose(instanceId, 'retrieval:\n  max_results: 7\n')
    const id = proposed.config_id
    const rejected = await review(id, 'reject', proposer)
    expect(rejected).toMatchObject({ status: 'rejected', review: { decision: 'rejected' } })
    expect(await refusal(apply(id))).toMatchObject({
      status: 409,
      code: 'CONFIG_CONFLICT',
      details: {
        config_id: id,
        current_status: 'rejected',
        requested_action: 'apply',
        required_status: 'approved',
      },
    })
  })

  it('two versions applied at the same time leave exactly one active', async () => {
    const ids: string[] = []
    for (const budget of [5000, 6000]) {
      const proposed = await proposer.configs.propose(
        instanceId,
        `retrieval:\n  default_mode: fast\n  context_budget: ${String(budget)}\n`,
      )
      await review(proposed.config_id, 'approve')
      ids.push(proposed.config_id)
    }
    const statuses = await Promise.all(ids.map((id) => apply(id).then(() => 200, statusOf)))
    for (const status of statuses) expect([200, 409]).toContain(status)
    const active = await proposer.configs.list(instanceId, { status: 'active' })
    expect(active.total).toBe(1)
    const [winner] = active.items
    expect(ids).toContain(winner?.config_id)
    const loser = ids.find((id) => id !== winner?.config_id) ?? ''
    expect((await getVersion(loser)).status).toBe('superseded')
  })
})

describe('not found and other instances', () => {
  it('an unknown version → 404 CONFIG_NOT_FOUND on read, review and apply', async () => {
    const unknown = 'maca_cfg_0000000000000000'
    for (const refused of [
      await refusal(getVersion(unknown)),
      await refusal(review(unknown, 'approve')),
      await refusal(apply(unknown)),
    ]) {
      expect(refused).toEqual({
        status: 404,
        code: 'CONFIG_NOT_FOUND',
        details: { config_id: unknown, instance_id: instanceId },
      })
    }
  })

  it("another client's instance is not found, and its versions are not reachable through this instance", async () => {
    const otherId = otherClient.instance.instance_id
    const init = await other.configs.init(otherId)
    expect(otherExchanges.at(-1)?.status).toBe(201)
    expect(await refusal(proposer.configs.list(otherId))).toEqual({
      status: 404,
      code: 'INSTANCE_NOT_FOUND',
      details: { instance_id: otherId },
    })
    expect(await refusal(getVersion(init.config_id))).toMatchObject({
      code: 'CONFIG_NOT_FOUND',
      details: { config_id: init.config_id, instance_id: instanceId },
    })
  })

  it('lists versions newest first, a page at a time', async () => {
    const first = await proposer.configs.list(instanceId, { page: 1, page_size: 2 })
    expect(first).toMatchObject({ page: 1, page_size: 2, has_more: true })
    const versions = first.items.map((item) => item.version)
    expect(versions).toEqual([...versions].sort((a, b) => b - a))
    expect(await refusal(proposer.configs.list(instanceId, { page_size: 500 }))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    })
  })
})

describe('usage of a version and the history', () => {
  it("the current version's usage counts the API calls made since it was applied", async () => {
    await activate('retrieval:\n  default_mode: accurate\n')
    // The apply call itself answered after the version became active: it is the first call counted.
    const applied = exchanges.length - 1
    const callsMade = () => exchanges.length - applied
    for (let index = 0; index < 4; index += 1)
      await proposer.memories.list({ page_size: 1, user_id: 'nobody' })
    // Every read of the dashboard is an API call too, recorded after it answered.
    let seen = ''
    const current = await eventually(async () => {
      const expected = callsMade()
      const reply = await proposer.configs.current(instanceId)
      seen = `${String(reply.usage.api_calls)} calls counted, ${String(expected)} made`
      return reply.usage.api_calls === expected ? reply : undefined
    }, 60_000).catch((error: unknown) => {
      throw new Error(`${seen}: ${String(error)}`)
    })
    expect(current.usage).toMatchObject({ failed_api_calls: 0, error_rate_pct: 0 })
    const latency = current.usage.latency_ms
    expect(latency.p50).toBeGreaterThan(0)
    expect(latency.p95).toBeGreaterThanOrEqual(latency.p50)
  })

  it('the history lists every version that was active, newest first, each compared with the one before', async () => {
    const history = await proposer.configs.history(instanceId)
    expect(exchanges.at(-1)?.status).toBe(200)
    const versions = history.versions
    expect(versions[0]?.config.status).toBe('active')
    expect(versions.slice(1).every((entry) => entry.config.status === 'superseded')).toBe(true)
    expect(versions.at(-1)?.config.applied_at).toBeDefined()
    expect(versions.at(-1)?.compared_to_previous).toBeNull()
    versions.slice(0, -1).forEach((entry, position) => {
      expect(entry.compared_to_previous?.config_id).toBe(versions[position + 1]?.config.config_id)
      // Windows follow each other: a version's ends where the next one's begins.
      expect(versions[position + 1]?.usage.to).toBe(entry.usage.from)
    })
  })
})

describe('a change of what is stored rebuilds the projections', () => {
  const user = uniqueName('rebuild-user')

  async function ingest(document: string, api = proposer): Promise<string[]> {
    const created = await api.memories.ingest({
      document,
      document_type: 'note',
      mode: 'fast',
      user_id: user,
    })
    const job = await completedJob(api, created.ingestion_id)
    expect(job.memory_ids).toBeDefined()
    return job.memory_ids ?? []
  }

  /** The memory's type, or undefined while the service refuses to serve it. */
  const typeOf = (id: string) =>
    proposer.memories.get(id).then(
      (memory): string | undefined => memory.type,
      (error: unknown) => {
        refusalOf(error)
        return undefined
      },
    )

  /** Each memory's Elasticsearch write sequence number: a document written again gets a new one. */
  async function storedCopies(memoryIds: string[]): Promise<Map<string, number | undefined>> {
    const { docs } = await elasticsearch.mget({ index: MEMORIES_ALIAS, ids: memoryIds, _source: false })
    return new Map(
      docs.flatMap((doc) => ('found' in doc && doc.found ? [[doc._id, doc._seq_no] as const] : [])),
    )
  }

  async function rebuilt(configId: string) {
    return eventually(async () => {
      const version = await getVersion(configId)
      if (version.rebuild?.status === 'failed') throw new Error(`rebuild failed: ${JSON.stringify(version)}`)
      return version.rebuild?.status === 'completed' ? version : undefined
    }, 600_000)
  }

  it('storing no preferences removes them from every read; storing them again brings them back', async () => {
    // Another instance keeps every type: its memories are neither withheld nor written again by this one's rebuild.
    const otherIds = await ingest(
      'I really love dark chocolate and figs. My cousin Ines works as a pilot in Oslo.',
      other,
    )
    const ids = await ingest(
      'I really love spicy ramen and sushi. My sister Clara works as a nurse in Berlin.',
    )
    const types = await eventually(async () => {
      const found = await Promise.all(ids.map(typeOf))
      return found.every((type) => type !== undefined) ? found : undefined
    })
    const preferenceId = ids[types.indexOf('preference')] ?? ''
    const factId = ids[types.indexOf('fact')] ?? ''
    expect(preferenceId).not.toBe('')
    expect(factId).not.toBe('')
    await eventually(async () => ((await storedCopies(otherIds)).size === otherIds.length ? true : undefined))
    const servingIndex = Object.keys(await elasticsearch.indices.getAlias({ name: MEMORIES_ALIAS }))
    const otherBefore = await storedCopies(otherIds)

    const withoutPreferences = await activate(
      'extraction:\n  memory_types: [fact, episode, emotion, temporal_event]\nretrieval:\n  default_mode: fast\n',
    )
    expect(withoutPreferences.rebuild).toMatchObject({ status: 'pending', projections: ['vector', 'graph'] })
    const done = await rebuilt(withoutPreferences.config_id)
    expect(done.rebuild).toMatchObject({
      status: 'completed',
      runner: expect.stringMatching(/^projectors-/),
      error: null,
      progress: [
        { projection: 'vector', status: 'completed', behind: 0 },
        { projection: 'graph', status: 'completed', behind: 0 },
      ],
    })
    const [vector] = done.rebuild?.progress ?? []
    expect(vector?.events_read).toBeGreaterThan(0)
    expect((await refusal(proposer.memories.get(preferenceId))).status).toBe(404)
    expect((await proposer.memories.get(factId)).id).toBe(factId)
    const found = await proposer.memories.search({ query: 'ramen sushi', user_id: user })
    expect(found.results.map((hit) => hit.id)).not.toContain(preferenceId)
    // Re-projected in place: the same index serves, and the other instance's documents were not written again.
    expect(Object.keys(await elasticsearch.indices.getAlias({ name: MEMORIES_ALIAS }))).toEqual(servingIndex)
    expect(await storedCopies(otherIds)).toEqual(otherBefore)
    // Both projections of both instances hold what the log says under each one's configuration.
    for (const instance of [instanceId, otherClient.instance.instance_id]) {
      const reports = await runVerify(testConfig(), { projection: 'all', instance })
      expect(reports.map(({ projection, drift }) => ({ projection, drift }))).toEqual([
        { projection: 'vector', drift: [] },
        { projection: 'graph', drift: [] },
        { projection: 'conversations', drift: [] },
      ])
    }
    expect((await Promise.all(otherIds.map((id) => other.memories.get(id)))).map((m) => m.type)).toContain(
      'preference',
    )

    // The live projector follows the active configuration: of a new document, the fact is stored, the preference
    // is not (both are projected from one batch, so once the fact is there the preference would be too).
    const later = await ingest('I prefer green tea over coffee. My brother Tom lives in Lisbon.')
    expect(later).toHaveLength(2)
    const stored = await eventually(async () => {
      const found = await Promise.all(later.map(typeOf))
      return found.some((type) => type !== undefined) ? found : undefined
    })
    expect(stored.filter((type) => type !== undefined)).toEqual(['fact'])

    const allTypes = await activate('retrieval:\n  default_mode: fast\n')
    expect(allTypes.rebuild).toMatchObject({ projections: ['vector', 'graph'] })
    await rebuilt(allTypes.config_id)
    expect(await typeOf(preferenceId)).toBe('preference')
    const reports = await runVerify(testConfig(), { projection: 'all', instance: instanceId })
    expect(reports.flatMap(({ drift }) => drift)).toEqual([])
    expect((await Promise.all(later.map(typeOf))).sort()).toEqual(['fact', 'preference'])
  })
})
