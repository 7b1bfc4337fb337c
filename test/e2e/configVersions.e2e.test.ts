/**
 * Configuration versions on the real stack: the lifecycle (init, propose as YAML or JSON, review, apply, supersede)
 * with every refusal's whole body, the usage of a version from ClickHouse, the active configuration driving
 * search defaults and what the projections store, and a change that rebuilds the projections from the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allPermissions } from '@memory-service/domain'
import { type CreatedInstance } from '@memory-service/contracts'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let instanceId: string
/** Proposes (the instance's first key). */
let proposerKey: string
/** Reviews and applies: another key with every permission. */
let reviewerKey: string
let reviewerKeyId: string
/** configs:read and configs:write only. */
let writerKey: string
let writerPermissions: string[]
let otherClient: CreatedInstance
/** API calls made with this instance's keys, counted here for the usage comparison. */
let callsMade = 0

interface Reply {
  status: number
  text: string
  body: Record<string, unknown>
}

async function call(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; contentType?: string } = {},
): Promise<Reply> {
  const key = options.key ?? proposerKey
  const text =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body)
  const response = await fetch(`${harness.gateway.addresses.http ?? ''}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(text === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' }),
    },
    ...(text === undefined ? {} : { body: text }),
  })
  if (key !== otherClient.api_key.key) callsMade += 1
  const received = await response.text()
  return {
    status: response.status,
    text: received,
    body: received ? (JSON.parse(received) as Record<string, unknown>) : {},
  }
}

const versionsPath = () => `/instances/${instanceId}/memory-architecture/versions`
const propose = (body: string, contentType = 'application/yaml', key = proposerKey) =>
  call('POST', versionsPath(), { key, body, contentType })
const review = (configId: string, decision: 'approve' | 'reject', key = reviewerKey) =>
  call('POST', `${versionsPath()}/${configId}/review`, {
    key,
    body: { decision, comment: `${decision} in e2e` },
  })
const apply = (configId: string, key = reviewerKey) =>
  call('POST', `${versionsPath()}/${configId}/apply`, { key })
const getVersion = (configId: string) => call('GET', `${versionsPath()}/${configId}`)

/** Proposes, approves and applies; answers the applied version. */
async function activate(yaml: string): Promise<Record<string, unknown>> {
  const proposed = await propose(yaml)
  expect(proposed.status, proposed.text).toBe(201)
  const configId = String(proposed.body.config_id)
  expect((await review(configId, 'approve')).status).toBe(200)
  const applied = await apply(configId)
  expect(applied.status, applied.text).toBe(200)
  return applied.body
}

const validationError = (validation_errors: unknown[]) => ({
  error: 'The configuration is not valid',
  code: 'CONFIG_VALIDATION_ERROR',
  details: { validation_errors },
})

beforeAll(async () => {
  harness = await startGatewayWithInstance('config-versions', { withWorkers: true })
  instance = harness.instance
  instanceId = instance.instance.instance_id
  proposerKey = instance.api_key.key
  const reviewer = await harness.tenancy.issueKey(instanceId, allPermissions, 'config-e2e')
  reviewerKey = reviewer.key
  reviewerKeyId = reviewer.key_id
  writerPermissions = ['configs:read', 'configs:write']
  writerKey = (await harness.tenancy.issueKey(instanceId, writerPermissions as never, 'config-e2e')).key
  otherClient = await harness.createInstance('config-versions-other-client')
  for (const key of [reviewerKey, writerKey, otherClient.api_key.key]) await harness.untilUsable(key)
})

afterAll(async () => {
  await harness.close()
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
  },
  retrieval: { default_mode: 'accurate', max_results: 10, context_budget: 4096, graph_queries: true },
}

describe('initialization', () => {
  it('an instance without versions has no current configuration yet', async () => {
    const current = await call('GET', `/dashboard/configs/${instanceId}`)
    expect(current.status).toBe(404)
    expect(current.body).toEqual({
      error:
        'The instance has no active configuration version yet (POST /instances/{id}/memory-architecture/init)',
      code: 'CONFIG_NOT_FOUND',
      details: { config_id: null, instance_id: instanceId },
    })
    const listed = await call('GET', versionsPath())
    expect(listed.body).toEqual({ items: [], page: 1, page_size: 20, total: 0, has_more: false })
  })

  it('init makes the defaults version 1, active at once; a second init answers the same version', async () => {
    const created = await call('POST', `/instances/${instanceId}/memory-architecture/init`)
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
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
    const again = await call('POST', `/instances/${instanceId}/memory-architecture/init`)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(created.body)
  })
})

describe('proposals and their validation', () => {
  it('a YAML proposal is pending review, with its defaults filled in', async () => {
    const proposed = await propose(
      'description: faster answers\nretrieval:\n  default_mode: fast\n  max_results: 3\n',
    )
    expect(proposed.status, proposed.text).toBe(201)
    expect(proposed.body).toMatchObject({
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
    const json = await propose(JSON.stringify({ retrieval: { context_budget: 8192 } }), 'application/json')
    expect(json.status).toBe(201)
    expect(json.body).toMatchObject({ version: 3, source_format: 'json' })
  })

  const invalid: [string, string, string, unknown[]][] = [
    [
      'invalid YAML',
      'retrieval:\n\tdefault_mode: fast\n',
      'application/yaml',
      [
        {
          field: '(root)',
          message: 'invalid YAML at line 2, column 1: Tabs are not allowed as indentation',
          value: '\tdefault_mode: fast',
        },
      ],
    ],
    [
      'invalid JSON',
      '{"retrieval": ',
      'application/json',
      [{ field: '(root)', message: expect.stringMatching(/^invalid JSON: /), value: null }],
    ],
    [
      'schema errors',
      'retrieval:\n  default_mode: slow\nstorage:\n  cache: true\n',
      'application/yaml',
      [
        { field: 'storage.cache', message: 'is not a configuration field', value: true },
        {
          field: 'retrieval.default_mode',
          message: 'must be equal to one of the allowed values',
          value: 'slow',
        },
      ],
    ],
    [
      'an embedding dimension out of range',
      'storage:\n  vector:\n    embedding_dimension: 8192\n',
      'application/yaml',
      [{ field: 'storage.vector.embedding_dimension', message: 'must be between 64 and 4096', value: 8192 }],
    ],
    [
      'a context budget out of range',
      '{"retrieval": {"context_budget": 100}}',
      'application/json',
      [{ field: 'retrieval.context_budget', message: 'must be between 256 and 32768', value: 100 }],
    ],
    [
      'graph queries without the graph store',
      'storage:\n  graph:\n    enabled: false\n',
      'application/yaml',
      [
        {
          field: 'retrieval.graph_queries',
          message: 'graph queries need storage.graph.enabled: true',
          value: true,
        },
      ],
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
        },
      ],
    ],
  ]
  it.each(invalid)(
    '%s → 400 CONFIG_VALIDATION_ERROR naming field, message and value',
    async (_, body, type, errors) => {
      const reply = await propose(body, type)
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body).toEqual(validationError(errors))
    },
  )

  it('nothing invalid became a version', async () => {
    const listed = await call('GET', `${versionsPath()}?page_size=100`)
    expect(listed.body.total).toBe(3)
  })
})

describe('review and apply', () => {
  let configId: string
  beforeAll(async () => {
    const proposed = await propose('retrieval:\n  default_mode: fast\n  max_results: 3\n')
    configId = String(proposed.body.config_id)
  })

  it('applying a version that is not approved → 409 CONFIG_CONFLICT', async () => {
    const reply = await apply(configId)
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual({
      error: 'Cannot apply a configuration version that is pending_review; it must be approved',
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
    const own = await review(configId, 'approve', proposerKey)
    expect(own.status).toBe(403)
    expect(own.body).toEqual({
      error: 'The key that proposed a configuration version cannot approve it',
      code: 'FORBIDDEN',
      details: {
        required_permission: 'configs:review',
        current_permissions: [...allPermissions],
        reason: 'own_proposal',
        config_id: configId,
      },
    })
    const writer = await review(configId, 'approve', writerKey)
    expect(writer.status).toBe(403)
    expect(writer.body).toEqual({
      error: 'This API key lacks the permission configs:review',
      code: 'FORBIDDEN',
      details: { required_permission: 'configs:review', current_permissions: writerPermissions },
    })
  })

  it('approval records the reviewer and comment; a second review → 409 CONFIG_CONFLICT', async () => {
    const approved = await review(configId, 'approve')
    expect(approved.status, approved.text).toBe(200)
    expect(approved.body).toMatchObject({
      status: 'approved',
      review: { decision: 'approved', comment: 'approve in e2e', reviewed_by: reviewerKeyId },
    })
    const again = await review(configId, 'reject')
    expect(again.status).toBe(409)
    expect(again.body).toEqual({
      error: 'Cannot review a configuration version that is approved; it must be pending_review',
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
    const denied = await apply(configId, writerKey)
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({
      code: 'FORBIDDEN',
      details: { required_permission: 'configs:apply' },
    })
    const before = (await call('GET', `/dashboard/configs/${instanceId}`)).body.config as Record<
      string,
      unknown
    >
    const applied = await apply(configId)
    expect(applied.status, applied.text).toBe(200)
    expect(applied.body).toMatchObject({ status: 'active', applied_by: reviewerKeyId, rebuild: null })
    const previous = await getVersion(String(before.config_id))
    expect(previous.body).toMatchObject({
      status: 'superseded',
      superseded_by: configId,
      superseded_at: applied.body.applied_at,
    })
  })

  it('applying the active version → 409 CONFIG_ALREADY_ACTIVE', async () => {
    const reply = await apply(configId)
    expect(reply.status).toBe(409)
    const version = await getVersion(configId)
    expect(reply.body).toEqual({
      error: 'This configuration version is already active',
      code: 'CONFIG_ALREADY_ACTIVE',
      details: { config_id: configId, applied_at: version.body.applied_at },
    })
  })

  it('the active configuration sets the defaults of a search', async () => {
    const user = uniqueName('config-user')
    const reply = await call('POST', '/v1/memories/search', {
      body: { query: 'anything at all', user_id: user },
    })
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.mode).toBe('fast')
    const explicit = await call('POST', '/v1/memories/search', {
      body: { query: 'anything at all', user_id: user, mode: 'accurate' },
    })
    expect(explicit.body.mode).toBe('accurate')
  })

  it('a rejected version cannot be applied', async () => {
    const proposed = await propose('retrieval:\n  max_results: 7\n')
    const id = String(proposed.body.config_id)
    const rejected = await review(id, 'reject', proposerKey)
    expect(rejected.body).toMatchObject({ status: 'rejected', review: { decision: 'rejected' } })
    const reply = await apply(id)
    expect(reply.status).toBe(409)
    expect(reply.body).toMatchObject({
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
      const proposed = await propose(
        `retrieval:\n  default_mode: fast\n  context_budget: ${String(budget)}\n`,
      )
      const id = String(proposed.body.config_id)
      await review(id, 'approve')
      ids.push(id)
    }
    const replies = await Promise.all(ids.map((id) => apply(id)))
    for (const reply of replies) expect([200, 409]).toContain(reply.status)
    const active = await call('GET', `${versionsPath()}?status=active`)
    expect(active.body.total).toBe(1)
    const [winner] = active.body.items as { config_id: string }[]
    expect(ids).toContain(winner?.config_id)
    const loser = ids.find((id) => id !== winner?.config_id) ?? ''
    expect((await getVersion(loser)).body.status).toBe('superseded')
  })
})

describe('not found and other instances', () => {
  it('an unknown version → 404 CONFIG_NOT_FOUND on read, review and apply', async () => {
    const unknown = 'maca_cfg_0000000000000000'
    for (const reply of [await getVersion(unknown), await review(unknown, 'approve'), await apply(unknown)]) {
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({
        error: 'Configuration version not found',
        code: 'CONFIG_NOT_FOUND',
        details: { config_id: unknown, instance_id: instanceId },
      })
    }
  })

  it("another client's instance is not found, and its versions are not reachable through this instance", async () => {
    const otherId = otherClient.instance.instance_id
    const init = await call('POST', `/instances/${otherId}/memory-architecture/init`, {
      key: otherClient.api_key.key,
    })
    expect(init.status).toBe(201)
    const foreign = await call('GET', `/instances/${otherId}/memory-architecture/versions`)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({
      error: 'Instance not found',
      code: 'INSTANCE_NOT_FOUND',
      details: { instance_id: otherId },
    })
    const crossed = await getVersion(String(init.body.config_id))
    expect(crossed.body).toMatchObject({
      code: 'CONFIG_NOT_FOUND',
      details: { config_id: init.body.config_id, instance_id: instanceId },
    })
  })

  it('lists versions newest first, a page at a time', async () => {
    const first = await call('GET', `${versionsPath()}?page=1&page_size=2`)
    expect(first.body).toMatchObject({ page: 1, page_size: 2, has_more: true })
    const items = first.body.items as { version: number }[]
    expect(items.map((item) => item.version)).toEqual(
      [...items.map((item) => item.version)].sort((a, b) => b - a),
    )
    const bad = await call('GET', `${versionsPath()}?page_size=500`)
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('INVALID_INPUT')
  })
})

describe('usage of a version and the history', () => {
  it("the current version's usage counts the API calls made since it was applied", async () => {
    await activate('retrieval:\n  default_mode: accurate\n')
    // The apply call itself answered after the version became active.
    callsMade = 1
    for (let index = 0; index < 4; index += 1) await call('GET', '/v1/memories?page_size=1&user_id=nobody')
    // Every read of the dashboard is an API call too, recorded after it answered.
    let seen = ''
    const current = await eventually(async () => {
      const expected = callsMade
      const reply = await call('GET', `/dashboard/configs/${instanceId}`)
      const usage = reply.body.usage as { api_calls: number }
      seen = `${String(usage.api_calls)} calls counted, ${String(expected)} made`
      return usage.api_calls === expected ? reply.body : undefined
    }, 60_000).catch((error: unknown) => {
      throw new Error(`${seen}: ${String(error)}`)
    })
    expect(current.usage).toMatchObject({ failed_api_calls: 0, error_rate_pct: 0 })
    const latency = (current.usage as { latency_ms: { p50: number; p95: number; p99: number } }).latency_ms
    expect(latency.p50).toBeGreaterThan(0)
    expect(latency.p95).toBeGreaterThanOrEqual(latency.p50)
  })

  it('the history lists every version that was active, newest first, each compared with the one before', async () => {
    const history = await call('GET', `/dashboard/configs/${instanceId}/history`)
    expect(history.status, history.text).toBe(200)
    const versions = history.body.versions as {
      config: { config_id: string; status: string; applied_at: string }
      usage: { from: string; to: string; api_calls: number }
      compared_to_previous: { config_id: string } | null
    }[]
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

  async function ingest(document: string): Promise<string[]> {
    const created = await call('POST', '/v1/memories', {
      body: { document, document_type: 'note', mode: 'fast', user_id: user },
    })
    expect(created.status, created.text).toBe(201)
    const job = await eventually(async () => {
      const reply = await call('GET', `/v1/memories/${String(created.body.ingestion_id)}/status`)
      return reply.body.status === 'completed' ? reply.body : undefined
    }, 60_000)
    return job.memory_ids as string[]
  }

  const typeOf = async (id: string) => {
    const reply = await call('GET', `/v1/memories/${id}`)
    return reply.status === 200 ? String(reply.body.type) : undefined
  }

  async function rebuilt(configId: string) {
    return eventually(async () => {
      const version = await getVersion(configId)
      const rebuild = version.body.rebuild as { status: string } | null
      if (rebuild?.status === 'failed') throw new Error(`rebuild failed: ${version.text}`)
      return rebuild?.status === 'completed' ? version.body : undefined
    }, 600_000)
  }

  it('storing no preferences removes them from every read; storing them again brings them back', async () => {
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

    const withoutPreferences = await activate(
      'extraction:\n  memory_types: [fact, episode, emotion, temporal_event]\nretrieval:\n  default_mode: fast\n',
    )
    expect(withoutPreferences.rebuild).toMatchObject({ status: 'pending', projections: ['vector', 'graph'] })
    const done = await rebuilt(String(withoutPreferences.config_id))
    expect(done.rebuild).toMatchObject({
      status: 'completed',
      runner: expect.stringMatching(/^projectors-/),
      error: null,
      progress: [
        { projection: 'vector', status: 'completed', behind: 0 },
        { projection: 'graph', status: 'completed', behind: 0 },
      ],
    })
    const [vector] = (done.rebuild as { progress: { events_read: number }[] }).progress
    expect(vector?.events_read).toBeGreaterThan(0)
    expect((await call('GET', `/v1/memories/${preferenceId}`)).status).toBe(404)
    expect((await call('GET', `/v1/memories/${factId}`)).status).toBe(200)
    const found = await call('POST', '/v1/memories/search', { body: { query: 'ramen sushi', user_id: user } })
    expect((found.body.results as { id: string }[]).map((hit) => hit.id)).not.toContain(preferenceId)

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
    await rebuilt(String(allTypes.config_id))
    expect(await typeOf(preferenceId)).toBe('preference')
    expect((await Promise.all(later.map(typeOf))).sort()).toEqual(['fact', 'preference'])
  })
})
