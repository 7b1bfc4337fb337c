/**
 * The dashboard and alert rules of infra/monitoring (issue 32) against a live /metrics: a query that names a metric
 * the service does not expose draws an empty panel or an alert that can never fire, and neither says so. Every
 * name the dashboard's queries and the rules use must be a family of the exposition once a document and an event
 * went through the gateway, the pipeline and the projectors.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { metricNamesIn, parsePrometheusText, sampleValue, type Sample } from '../support/prometheusText.js'

interface Panel {
  id?: number
  type?: string
  title?: string
  description?: string
  targets?: { expr?: string }[]
  /** A collapsed row holds its panels. */
  panels?: Panel[]
}

interface Dashboard {
  uid?: string
  panels?: Panel[]
  templating?: {
    list?: { name?: string; type?: string; query?: string | { query?: string }; definition?: string }[]
  }
}

interface Rule {
  alert?: string
  record?: string
  expr?: string
  for?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
}

interface RuleFile {
  groups?: { name?: string; rules?: Rule[] }[]
}

const monitoring = new URL('../../infra/monitoring/', import.meta.url)
const dashboard = JSON.parse(
  readFileSync(new URL('grafana/memory-service.dashboard.json', monitoring), 'utf8'),
) as Dashboard
const ruleFile = parse(
  readFileSync(new URL('prometheus/memory-service.rules.yml', monitoring), 'utf8'),
) as RuleFile

const everyPanel = (panels: Panel[]): Panel[] =>
  panels.flatMap((panel) => [panel, ...everyPanel(panel.panels ?? [])])
const panels = everyPanel(dashboard.panels ?? [])
const rules = (ruleFile.groups ?? []).flatMap((group) => group.rules ?? [])

/** Every PromQL expression of both files, with where it comes from for the failure message. */
const expressions: { where: string; expr: string }[] = [
  ...panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      where: `panel "${panel.title ?? ''}"`,
      expr: target.expr ?? '',
    })),
  ),
  ...(dashboard.templating?.list ?? [])
    .filter((variable) => variable.type === 'query')
    .map((variable) => ({
      where: `variable ${variable.name ?? ''}`,
      expr: typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? ''),
    })),
  ...rules.map((rule) => ({ where: `rule ${rule.alert ?? rule.record ?? ''}`, expr: rule.expr ?? '' })),
]

/** The families of an exposition from its `# TYPE` lines: a family whose labels never got a value has no sample. */
function familyTypes(exposition: string): Map<string, string> {
  const types = new Map<string, string>()
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm))
    if (name !== undefined && type !== undefined) types.set(name, type)
  return types
}

/** Whether a name a query uses is in the exposition: a family, a sample, or a histogram's (summary's) series. */
function exposes(types: Map<string, string>, samples: Sample[], name: string): boolean {
  if (types.has(name) || samples.some((sample) => sample.name === name)) return true
  const series = /^(.+)_(bucket|count|sum)$/.exec(name)
  if (!series?.[1]) return false
  const type = types.get(series[1])
  return type === 'histogram' || (type === 'summary' && series[2] !== 'bucket')
}

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let baseUrl: string
let apiKey: string

beforeAll(async () => {
  harness = await startGatewayWithInstance('monitoring', { withWorkers: true })
  baseUrl = harness.gateway.addresses.http ?? ''
  apiKey = harness.instance.api_key.key
})

afterAll(async () => {
  await harness.close()
})

describe('monitoring assets', () => {
  it('give every alert a duration, a severity and a summary, and every panel an id of its own', () => {
    expect(rules.length).toBeGreaterThan(0)
    for (const rule of rules.filter((candidate) => candidate.record === undefined)) {
      const name = rule.alert ?? '(no name)'
      expect.soft(rule.alert, name).toMatch(/^[A-Z][A-Za-z0-9]+$/)
      expect.soft(rule.expr?.trim(), name).toBeTruthy()
      expect.soft(rule.for, name).toMatch(/^\d+[smhd]$/)
      expect.soft(rule.labels?.severity, name).toMatch(/^(critical|warning|info)$/)
      expect.soft(rule.annotations?.summary, name).toBeTruthy()
    }
    const alerts = rules.map((rule) => rule.alert).filter((alert) => alert !== undefined)
    expect(new Set(alerts).size).toBe(alerts.length)

    // Grafana's own limit for a uid: it is what links to the dashboard keep across imports.
    expect(dashboard.uid).toMatch(/^[A-Za-z0-9_-]{1,40}$/)
    const ids = panels.map((panel) => panel.id)
    for (const id of ids) expect(id).toEqual(expect.any(Number))
    expect(new Set(ids).size).toBe(ids.length)
    for (const panel of panels.filter((candidate) => candidate.type !== 'row')) {
      expect.soft(panel.description, panel.title).toBeTruthy()
      expect.soft(panel.targets?.length, panel.title).toBeGreaterThan(0)
    }
    // Rows collapsed in the file hold their panels: the walk must have gone into them.
    expect(panels.some((panel) => panel.type === 'row' && (panel.panels?.length ?? 0) > 0)).toBe(true)
  })

  it('name only metrics a live /metrics exposes, once a document and an event went through', async () => {
    const user = uniqueName('monitoring-user')
    const authorization = `Bearer ${apiKey}`
    const accepted = await fetch(`${baseUrl}/v1/memories`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        document: 'Noor moved to Porto in May and teaches chemistry at a secondary school there.',
        document_type: 'ai-chat-conversation',
        mode: 'fast',
        user_id: user,
      }),
    })
    expect(accepted.status).toBe(201)
    const { ingestion_id: ingestionId } = (await accepted.json()) as { ingestion_id: string }
    const finished = await eventually(async () => {
      const response = await fetch(`${baseUrl}/v1/memories/${ingestionId}/status`, {
        headers: { authorization },
      })
      const { status } = (await response.json()) as { status: string }
      return ['completed', 'failed', 'partial_success'].includes(status) ? status : undefined
    }, 90_000)
    expect(finished).toBe('completed')

    const events = await fetch(`${baseUrl}/v1/events/batch`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          {
            event_type: 'user_message',
            conversation_id: uniqueName('monitoring-conversation'),
            user_id: user,
            content: 'Where did Noor move to?',
          },
        ],
      }),
    })
    expect(events.status).toBe(200)

    // The pipeline counts a document once its job is written, which may be a moment after the status reads it.
    const { exposition, samples } = await eventually(async () => {
      const response = await fetch(`${baseUrl}/metrics`)
      expect(response.status).toBe(200)
      const text = await response.text()
      const parsed = parsePrometheusText(text)
      return sampleValue(parsed, 'memory_service_pipeline_documents_total', { outcome: 'completed' }) > 0 &&
        sampleValue(parsed, 'memory_service_events_total', { transport: 'http', outcome: 'accepted' }) > 0
        ? { exposition: text, samples: parsed }
        : undefined
    }, 30_000)
    const types = familyTypes(exposition)

    expect(expressions.length).toBeGreaterThan(20)
    const missing = expressions.flatMap(({ where, expr }) =>
      metricNamesIn(expr)
        .filter((name) => !exposes(types, samples, name))
        .map((name) => `${where}: ${name}`),
    )
    expect(missing).toEqual([])
    // A query naming nothing the check above sees would pass it unchecked (a prefix misspelt); only Prometheus'
    // own `up` is expected there.
    const unchecked = expressions.filter(
      ({ expr }) => metricNamesIn(expr).length === 0 && !/^up\b/.test(expr.trim()),
    )
    expect(unchecked.map(({ where }) => where)).toEqual([])

    // The other way round: a metric the service gained is not left off the dashboard.
    const onDashboard = new Set(
      panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricNamesIn(target.expr ?? ''))),
    )
    const shown = (family: string) =>
      [family, `${family}_bucket`, `${family}_count`, `${family}_sum`].some((name) => onDashboard.has(name))
    expect(
      [...types.keys()].filter((family) => family.startsWith('memory_service_') && !shown(family)),
    ).toEqual([])
  }, 180_000)
})
