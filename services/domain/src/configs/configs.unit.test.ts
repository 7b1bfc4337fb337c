import { describe, expect, it } from 'vitest'
import { createControlEventFactory } from '../tenancy/controlEvents.js'
import {
  defaultArchitectureConfig,
  parseConfigText,
  locateConfigProblems,
  projectionPolicy,
  projectionsToRebuild,
  validateArchitectureConfig,
  type ArchitectureConfig,
} from './architectureConfig.js'
import {
  applyConfigEvent,
  applyRefusal,
  emptyConfigVersions,
  reviewRefusal,
  type ConfigVersions,
} from './configVersions.js'

const served = { model: 'all-MiniLM-L6-v2', dimension: 384 }
const problemsOf = (candidate: unknown, embeddings = served) => {
  const outcome = validateArchitectureConfig(candidate, embeddings)
  return 'problems' in outcome ? outcome.problems : []
}
const configOf = (candidate: unknown): ArchitectureConfig => {
  const outcome = validateArchitectureConfig(candidate, served)
  if ('problems' in outcome) throw new Error(JSON.stringify(outcome.problems))
  return outcome.config
}

describe('configuration documents', () => {
  it('fills every default, with the served embedding model', () => {
    expect(defaultArchitectureConfig(served)).toEqual({
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
    })
  })

  it('reads YAML and JSON alike, and an empty YAML document as all defaults', () => {
    const yaml = parseConfigText('retrieval:\n  default_mode: fast\n  max_results: 5\n', 'yaml')
    const json = parseConfigText('{"retrieval": {"default_mode": "fast", "max_results": 5}}', 'json')
    expect(yaml).toEqual(json)
    expect(parseConfigText('', 'yaml')).toEqual({ value: {} })
    expect(configOf((yaml as { value: unknown }).value).retrieval).toEqual({
      default_mode: 'fast',
      max_results: 5,
      context_budget: 4096,
      graph_queries: true,
    })
  })

  it('names the line of a YAML syntax error and the text on it', () => {
    const outcome = parseConfigText('retrieval:\n  default_mode: fast\n   max_results: [5\n', 'yaml')
    expect('problems' in outcome && outcome.problems[0]).toMatchObject({
      field: '(root)',
      message: expect.stringMatching(/^invalid YAML at line \d+, column \d+: /),
    })
    const duplicate = parseConfigText('retrieval: {}\nretrieval: {}\n', 'yaml')
    expect('problems' in duplicate && duplicate.problems[0]?.message).toMatch(/^invalid YAML at line 2/)
    expect('problems' in duplicate && duplicate.problems[0]?.value).toBe('retrieval: {}')
    expect(parseConfigText('{"retrieval": ', 'json')).toEqual({
      problems: [{ field: '(root)', message: expect.stringMatching(/^invalid JSON: /), value: null }],
    })
  })

  it('places each validation problem on the line naming its field, or its nearest parent', () => {
    const text =
      'extraction:\n  min_confidence: 0.5\nretrieval:\n  default_mode: fast\n  max_results: 5000\n  colour: blue\n'
    const problems = [
      { field: 'retrieval.max_results', message: 'too big', value: 5000 },
      { field: 'retrieval.colour', message: 'is not a configuration field', value: 'blue' },
      { field: 'extraction.memory_types', message: 'is missing', value: null },
      { field: 'storage.vector.embedding_model', message: 'unknown', value: null },
      { field: '(root)', message: 'whole text', value: null },
    ]
    expect(locateConfigProblems(text, problems).map((problem) => problem.line)).toEqual([
      5,
      6,
      1,
      undefined,
      undefined,
    ])
    const json = '{\n  "retrieval": {\n    "max_results": 5000\n  }\n}\n'
    expect(locateConfigProblems(json, problems.slice(0, 1))[0]?.line).toBe(3)
    const syntax = parseConfigText('retrieval:\n  default_mode: fast\n   max_results: [5\n', 'yaml')
    expect('problems' in syntax && syntax.problems[0]?.line).toBeGreaterThan(1)
  })

  it('reports every schema violation with its field and value', () => {
    expect(
      problemsOf({
        retrieval: { default_mode: 'slow', max_results: 0 },
        storage: { cache: true },
        extraction: { memory_types: [] },
      }),
    ).toEqual(
      expect.arrayContaining([
        {
          field: 'retrieval.default_mode',
          message: 'must be equal to one of the allowed values',
          value: 'slow',
        },
        { field: 'retrieval.max_results', message: 'must be >= 1', value: 0 },
        { field: 'storage.cache', message: 'is not a configuration field', value: true },
        { field: 'extraction.memory_types', message: 'must NOT have fewer than 1 items', value: [] },
      ]),
    )
    expect(problemsOf('just text')).toEqual([
      { field: '(root)', message: 'must be object', value: 'just text' },
    ])
  })

  it('keeps embedding dimensions within 64–4096 and context budgets within 256–32768', () => {
    const wide = { model: 'wide-model', dimension: 4096 }
    const narrow = { model: 'narrow-model', dimension: 64 }
    expect(
      problemsOf({ storage: { vector: { embedding_model: 'wide-model', embedding_dimension: 4096 } } }, wide),
    ).toEqual([])
    expect(
      problemsOf(
        { storage: { vector: { embedding_model: 'narrow-model', embedding_dimension: 64 } } },
        narrow,
      ),
    ).toEqual([])
    for (const dimension of [63, 4097]) {
      expect(problemsOf({ storage: { vector: { embedding_dimension: dimension } } })).toEqual([
        {
          field: 'storage.vector.embedding_dimension',
          message: 'must be between 64 and 4096',
          value: dimension,
        },
      ])
    }
    expect(problemsOf({ retrieval: { context_budget: 256 } })).toEqual([])
    expect(problemsOf({ retrieval: { context_budget: 32768 } })).toEqual([])
    for (const budget of [255, 32769]) {
      expect(problemsOf({ retrieval: { context_budget: budget } })).toEqual([
        { field: 'retrieval.context_budget', message: 'must be between 256 and 32768', value: budget },
      ])
    }
  })

  it('refuses a model the deployment does not serve and a dimension the model does not produce', () => {
    expect(
      problemsOf({
        storage: { vector: { embedding_model: 'text-embedding-3-large', embedding_dimension: 3072 } },
      }),
    ).toEqual([
      {
        field: 'storage.vector.embedding_model',
        message: 'this deployment serves all-MiniLM-L6-v2 (384 dimensions)',
        value: 'text-embedding-3-large',
      },
    ])
    expect(problemsOf({ storage: { vector: { embedding_dimension: 768 } } })).toEqual([
      {
        field: 'storage.vector.embedding_dimension',
        message: 'all-MiniLM-L6-v2 produces 384-dimensional vectors',
        value: 768,
      },
    ])
  })

  it('refuses graph queries and long-range extraction without the graph store', () => {
    expect(problemsOf({ storage: { graph: { enabled: false } } })).toEqual([
      {
        field: 'retrieval.graph_queries',
        message: 'graph queries need storage.graph.enabled: true',
        value: true,
      },
    ])
    expect(
      problemsOf({
        storage: { graph: { enabled: false } },
        retrieval: { graph_queries: false },
        extraction: { default_mode: 'long-range' },
      }),
    ).toEqual([
      {
        field: 'extraction.default_mode',
        message:
          'long-range extraction stores entities and relations in the graph; it needs storage.graph.enabled: true',
        value: 'long-range',
      },
    ])
    expect(
      problemsOf({ storage: { graph: { enabled: false } }, retrieval: { graph_queries: false } }),
    ).toEqual([])
  })
})

describe('what a configuration change rebuilds and stores', () => {
  const base = defaultArchitectureConfig(served)
  it('rebuilds nothing for retrieval settings, the graph for graph storage, both for what is kept', () => {
    expect(
      projectionsToRebuild(base, configOf({ retrieval: { default_mode: 'fast', context_budget: 8000 } })),
    ).toEqual([])
    expect(
      projectionsToRebuild(
        base,
        configOf({ storage: { graph: { enabled: false } }, retrieval: { graph_queries: false } }),
      ),
    ).toEqual(['graph'])
    expect(projectionsToRebuild(base, configOf({ extraction: { min_confidence: 0.5 } }))).toEqual([
      'vector',
      'graph',
    ])
    expect(projectionsToRebuild(base, configOf({ extraction: { memory_types: ['fact'] } }))).toEqual([
      'vector',
      'graph',
    ])
    // The same types in another order keep the same memories.
    expect(
      projectionsToRebuild(
        base,
        configOf({
          extraction: { memory_types: ['temporal_event', 'emotion', 'episode', 'preference', 'fact'] },
        }),
      ),
    ).toEqual([])
  })

  it('stores memories by confidence and type, and in the graph only when it is enabled', () => {
    const policy = projectionPolicy(
      configOf({
        extraction: { min_confidence: 0.6, memory_types: ['fact', 'preference'] },
        storage: { graph: { enabled: false } },
        retrieval: { graph_queries: false },
      }),
    )
    expect(policy.vector({ type: 'fact', confidence: 0.6 })).toBe(true)
    expect(policy.vector({ type: 'fact', confidence: 0.59 })).toBe(false)
    expect(policy.vector({ type: 'episode', confidence: 0.9 })).toBe(false)
    expect(policy.graph({ type: 'fact', confidence: 0.9 })).toBe(false)
    expect(projectionPolicy(base).graph({ type: 'emotion', confidence: 0 })).toBe(true)
  })
})

describe('the configuration lifecycle, folded from the control topic', () => {
  const events = createControlEventFactory({ now: () => new Date('2026-11-22T10:00:00.000Z') })
  const instanceId = 'inst_0123456789abcdef'
  const proposer = 'key_00000000000000aa'
  const reviewer = { keyId: 'key_00000000000000bb', permissions: ['configs:review'] }
  const propose = (versions: ConfigVersions, configuration: ArchitectureConfig) => {
    const event = events.configVersionProposed({
      instanceId,
      configuration,
      sourceFormat: 'yaml',
      proposedBy: proposer,
    })
    expect(applyConfigEvent(versions, event)).toEqual({ applied: true })
    return event.config_id
  }
  const review = (configId: string, decision: 'approved' | 'rejected') =>
    events.configVersionReviewed({
      instanceId,
      configId,
      decision,
      comment: 'looked at it',
      reviewedBy: reviewer.keyId,
    })
  const apply = (configId: string) =>
    events.configVersionApplied({ instanceId, configId, appliedBy: reviewer.keyId })

  it('goes pending_review → approved → active → superseded, numbering versions in order', () => {
    const versions = emptyConfigVersions()
    const first = propose(versions, defaultArchitectureConfig(served))
    const second = propose(versions, configOf({ retrieval: { default_mode: 'fast' } }))
    expect(versions.byId.get(second)).toMatchObject({ version: 2, status: 'pending_review', review: null })
    for (const id of [first, second]) {
      expect(applyConfigEvent(versions, review(id, 'approved'))).toEqual({ applied: true })
      expect(applyConfigEvent(versions, apply(id))).toEqual({ applied: true })
    }
    expect(versions.byId.get(first)).toMatchObject({ status: 'superseded', superseded_by: second })
    expect(versions.byId.get(second)).toMatchObject({
      status: 'active',
      applied_by: reviewer.keyId,
      review: { decision: 'approved', comment: 'looked at it', reviewed_by: reviewer.keyId },
      rebuild: null,
    })
    expect(versions.active.get(instanceId)).toBe(second)
  })

  it('counts only the first review, and applies only approved versions', () => {
    const versions = emptyConfigVersions()
    const id = propose(versions, defaultArchitectureConfig(served))
    expect(applyConfigEvent(versions, apply(id))).toEqual({
      applied: false,
      reason: 'config is pending_review',
    })
    expect(applyConfigEvent(versions, review(id, 'rejected'))).toEqual({ applied: true })
    expect(applyConfigEvent(versions, review(id, 'approved'))).toEqual({
      applied: false,
      reason: 'config is rejected',
    })
    expect(applyConfigEvent(versions, apply(id))).toEqual({ applied: false, reason: 'config is rejected' })
    expect(versions.active.has(instanceId)).toBe(false)
  })

  it('leaves exactly one version active when two applies race: the later in the log', () => {
    const versions = emptyConfigVersions()
    const a = propose(versions, defaultArchitectureConfig(served))
    const b = propose(versions, defaultArchitectureConfig(served))
    for (const id of [a, b]) applyConfigEvent(versions, review(id, 'approved'))
    applyConfigEvent(versions, apply(a))
    applyConfigEvent(versions, apply(b))
    expect(
      [...versions.byId.values()].filter((version) => version.status === 'active').map((v) => v.config_id),
    ).toEqual([b])
    expect(applyConfigEvent(versions, apply(b))).toEqual({ applied: false, reason: 'config is active' })
  })

  it('asks for a rebuild when what is stored changes, and lets one runner claim it', () => {
    const versions = emptyConfigVersions()
    const id = propose(versions, configOf({ extraction: { min_confidence: 0.5 } }))
    applyConfigEvent(versions, review(id, 'approved'))
    applyConfigEvent(versions, apply(id))
    expect(versions.byId.get(id)?.rebuild).toMatchObject({
      status: 'pending',
      projections: ['vector', 'graph'],
    })
    const progress = (runner: string, extra: object = {}) =>
      events.configRebuildChanged({
        instanceId,
        configId: id,
        runner,
        status: 'running',
        projection: 'vector',
        ...extra,
      })
    expect(applyConfigEvent(versions, progress('one', { events_read: 10, behind: 5 }))).toEqual({
      applied: true,
    })
    expect(applyConfigEvent(versions, progress('two'))).toEqual({
      applied: false,
      reason: 'rebuild is running by one',
    })
    expect(applyConfigEvent(versions, progress('two', { takeover: true }))).toEqual({ applied: true })
    applyConfigEvent(
      versions,
      events.configRebuildChanged({
        instanceId,
        configId: id,
        runner: 'two',
        status: 'completed',
        projection: 'vector',
        events_read: 20,
        behind: 0,
      }),
    )
    applyConfigEvent(
      versions,
      events.configRebuildChanged({ instanceId, configId: id, runner: 'two', status: 'completed' }),
    )
    expect(versions.byId.get(id)?.rebuild).toMatchObject({
      status: 'completed',
      runner: 'two',
      finished_at: '2026-11-22T10:00:00.000Z',
      progress: [
        { projection: 'vector', status: 'completed', events_read: 20, behind: 0 },
        { projection: 'graph', status: 'pending', events_read: 0, behind: null },
      ],
    })
  })

  it('refuses with the spec error bodies', () => {
    const versions = emptyConfigVersions()
    const id = propose(versions, defaultArchitectureConfig(served))
    const version = versions.byId.get(id)
    if (!version) throw new Error('proposed version missing')
    expect(applyRefusal(version)).toMatchObject({
      code: 'CONFIG_CONFLICT',
      details: {
        config_id: id,
        current_status: 'pending_review',
        requested_action: 'apply',
        required_status: 'approved',
      },
    })
    expect(
      reviewRefusal(version, 'approved', { keyId: proposer, permissions: ['configs:review'] }),
    ).toMatchObject({
      code: 'FORBIDDEN',
      details: { required_permission: 'configs:review', reason: 'own_proposal', config_id: id },
    })
    expect(
      reviewRefusal(version, 'rejected', { keyId: proposer, permissions: ['configs:review'] }),
    ).toBeUndefined()
    applyConfigEvent(versions, review(id, 'approved'))
    expect(reviewRefusal(version, 'approved', reviewer)).toMatchObject({
      code: 'CONFIG_CONFLICT',
      details: {
        config_id: id,
        current_status: 'approved',
        requested_action: 'review',
        required_status: 'pending_review',
      },
    })
    applyConfigEvent(versions, apply(id))
    expect(applyRefusal(version)).toMatchObject({
      code: 'CONFIG_ALREADY_ACTIVE',
      details: { config_id: id, applied_at: '2026-11-22T10:00:00.000Z' },
    })
  })
})
