/**
 * Usage analytics on the real stack: usage events (seeded with known values, and produced by live API calls) go
 * through Kafka and the analytics projector into ClickHouse; every analytics route answers numbers that match what
 * was sent, counted here independently. A replayed event is counted once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEventProducer, type EventProducer } from '@memory-service/log'
import { type OutgoingEvent } from '@memory-service/domain'
import {
  USAGE_SUBJECT,
  USAGE_TOPIC,
  usageEvent,
  usageRecordedSchema,
  type UsageMetric,
} from '@memory-service/domain'
import { type CreatedInstance } from '@memory-service/contracts'
import { createMemoryClient } from '@memory-service/client'
import { eventually, startGatewayWithInstance } from '../support/testEngines.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let producer: EventProducer

async function get(path: string, key = instance.api_key.key) {
  const response = await fetch(`${harness.gateway.addresses.http ?? ''}${path}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  const text = await response.text()
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> }
}

const hour = 3_600_000
const currentHour = Math.floor(Date.now() / hour) * hour
const at = (offsetMs: number) => new Date(currentHour + offsetMs).toISOString()
const sent: {
  metric: UsageMetric
  value: number
  latency?: number
  at: string
  dims?: Record<string, string>
}[] = []

function seed(
  metric: UsageMetric,
  value: number,
  when: string,
  options: { latency?: number; dims?: Record<string, string> } = {},
): OutgoingEvent {
  sent.push({ metric, value, at: when, ...options })
  return usageEvent(
    {
      instanceId: instance.instance.instance_id,
      metric,
      value,
      measuredBy: `analytics-e2e-${String(sent.length)}`,
      occurredAt: when,
      ...(options.latency !== undefined ? { latencyMs: options.latency } : {}),
      dimensions: options.dims ?? {},
    },
    'analytics-e2e',
  )
}

const query = (params: Record<string, string>) =>
  new URLSearchParams({ instance_id: instance.instance.instance_id, ...params }).toString()

beforeAll(async () => {
  harness = await startGatewayWithInstance('analytics', { withWorkers: true })
  instance = await harness.createInstance('analytics-seeded')
  await harness.codec.register([{ subject: USAGE_SUBJECT, schema: usageRecordedSchema }])
  producer = await createEventProducer(harness.kafka, harness.codec)
  const events: OutgoingEvent[] = []
  // This hour and the one before: 60 context fetches with latencies 1..60 ms, users alternating.
  for (let index = 1; index <= 60; index += 1) {
    events.push(
      seed('context_fetch', 1, at(index <= 30 ? -hour + index * 1000 : index * 1000), {
        latency: index,
        dims: { user_id: index % 2 === 0 ? 'u-even' : 'u-odd' },
      }),
    )
  }
  for (let index = 0; index < 4; index += 1) events.push(seed('memories_stored', 5, at(index * 1000)))
  // Tokens: two models, two operations.
  for (let index = 0; index < 3; index += 1) {
    events.push(
      seed('llm_input_tokens', 1000, at(index * 1000), {
        dims: { operation: 'ingestion', model: 'gpt-4o-mini' },
      }),
    )
    events.push(
      seed('llm_output_tokens', 200, at(index * 1000), {
        dims: { operation: 'ingestion', model: 'gpt-4o-mini' },
      }),
    )
  }
  for (let index = 0; index < 2; index += 1)
    events.push(
      seed('llm_input_tokens', 500, at(index * 1000), {
        dims: { operation: 'retrieval', model: 'house-model' },
      }),
    )
  // The previous 24 hours' worth for change_pct: 40 memories stored 25–47 hours ago.
  for (let index = 0; index < 8; index += 1)
    events.push(seed('memories_stored', 5, at(-25 * hour - index * hour)))
  await producer.append(USAGE_TOPIC, events)
  // A replay of the first ten: the same event ids must not be counted again.
  await producer.append(USAGE_TOPIC, events.slice(0, 10))
}, 240_000)

afterAll(async () => {
  await producer.close()
  await harness.close()
})

describe('analytics routes', () => {
  it('metrics: hour buckets with zeros where nothing happened, per group, with a summary', async () => {
    const range = { start: at(-3 * hour), end: at(hour) }
    const answer = await eventually(async () => {
      const reply = await get(
        `/v1/analytics/metrics?${query({ metric: 'context_fetch', bucket: 'hour', ...range })}`,
      )
      return (reply.body.summary as { total: number } | undefined)?.total === 60 ? reply.body : undefined
    }, 60_000)
    expect(answer.data_points).toEqual([
      { timestamp: at(-3 * hour), value: 0, group: null },
      { timestamp: at(-2 * hour), value: 0, group: null },
      { timestamp: at(-hour), value: 30, group: null },
      { timestamp: at(0), value: 30, group: null },
    ])
    expect(answer.summary).toEqual({ total: 60, average: 15, min: 0, max: 30 })

    const byUser = await get(
      `/v1/analytics/metrics?${query({ metric: 'context_fetch', bucket: 'day', start: at(-24 * hour), end: at(hour), group_by: 'user_id' })}`,
    )
    const totals: Record<string, number> = {}
    for (const point of byUser.body.data_points as { value: number; group: string }[])
      totals[point.group] = (totals[point.group] ?? 0) + point.value
    expect(totals).toEqual({ 'u-even': 30, 'u-odd': 30 })
  })

  it('latency: count, average and t-digest percentiles per bucket match the latencies sent', async () => {
    const reply = await get(
      `/v1/analytics/latency?${query({ operation: 'context_fetch', bucket: 'hour', start: at(-hour), end: at(hour) })}`,
    )
    expect(reply.status, reply.text).toBe(200)
    const [previous, current] = reply.body.data_points as {
      count: number
      avg: number
      p50: number
      p99: number
    }[]
    // Sent: 1..30 in the previous hour, 31..60 in this one.
    expect(previous).toMatchObject({ count: 30, avg: 15.5 })
    expect(current).toMatchObject({ count: 30, avg: 45.5 })
    expect(previous?.p50).toBeGreaterThanOrEqual(14)
    expect(previous?.p50).toBeLessThanOrEqual(17)
    expect(current?.p99).toBeGreaterThanOrEqual(58)
    expect(current?.p99).toBeLessThanOrEqual(60)
  })

  it('tokens: per operation and per model, priced from the price table (a model without a price costs 0)', async () => {
    const range = { bucket: 'day', start: at(-hour), end: at(hour) }
    const byOperation = await get(`/v1/analytics/tokens?${query({ ...range, group_by: 'operation' })}`)
    expect(byOperation.status, byOperation.text).toBe(200)
    const points = (byOperation.body.data_points as { group: string; input_tokens: number }[]).filter(
      (point) => point.input_tokens > 0,
    )
    expect(points.map(({ group, input_tokens }) => [group, input_tokens]).sort()).toEqual([
      ['ingestion', 3000],
      ['retrieval', 1000],
    ])
    // gpt-4o-mini: 3000 input at 0.15 and 600 output at 0.6 per million.
    expect(byOperation.body.summary).toEqual({
      total_input_tokens: 4000,
      total_output_tokens: 600,
      total_tokens: 4600,
      total_estimated_cost_usd: 0.00081,
    })
  })

  it('summary: totals of the period, change against the seeded previous one, health', async () => {
    const reply = await get(`/v1/analytics/summary?${query({})}`)
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body).toMatchObject({
      instance_id: instance.instance.instance_id,
      period: '24h',
      // 60 memories_stored usage events were seeded, but this instance holds no memory: stored now is 0.
      memories: { total_stored: 0, created_in_period: 20, change_pct: -50 },
      context_fetches: { total: 60, avg_latency_ms: 30.5 },
      tokens: { total_input: 4000, total_output: 600, estimated_cost_usd: 0.00081, change_pct: null },
      health: { status: 'healthy', error_rate_pct: 0 },
    })
    // Live calls of this test count as api_call events: at least the ones already answered.
    expect((reply.body.api_calls as { total: number }).total).toBeGreaterThan(0)
  })

  it('refuses what it cannot answer honestly, and other instances', async () => {
    const cases: [Record<string, string>, string][] = [
      [
        { metric: 'context_fetch', bucket: 'minute', start: at(-40 * 24 * hour), end: at(-39 * 24 * hour) },
        'start',
      ],
      [{ metric: 'context_fetch', bucket: 'hour', start: at(0), end: at(-hour) }, 'end'],
      [{ metric: 'context_fetch', bucket: 'minute', start: at(-72 * hour), end: at(0) }, 'bucket'],
      [{ metric: 'gossip', bucket: 'hour', start: at(-hour), end: at(0) }, 'metric'],
    ]
    for (const [params, field] of cases) {
      const reply = await get(`/v1/analytics/metrics?${query(params)}`)
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body.code).toBe('INVALID_INPUT')
      expect(Object.keys((reply.body.details as { fields: Record<string, string> }).fields)).toContain(field)
    }
    const foreign = await get(
      `/v1/analytics/summary?${new URLSearchParams({ instance_id: harness.instance.instance.instance_id }).toString()}`,
    )
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({ code: 'INSTANCE_NOT_FOUND' })
  })

  it('export: the seeded rows as CSV with a header, each once, and as Parquet, with a file name', async () => {
    const range = { start: at(-2 * hour), end: at(2 * hour) }
    const download = async (format: string) => {
      const response = await fetch(
        `${harness.gateway.addresses.http ?? ''}/v1/analytics/export?${query({ ...range, format })}`,
        { headers: { authorization: `Bearer ${instance.api_key.key}` } },
      )
      return { response, bytes: Buffer.from(await response.arrayBuffer()) }
    }
    const csv = await eventually(async () => {
      const { response, bytes } = await download('csv')
      expect(response.status, bytes.toString()).toBe(200)
      const [header, ...rows] = bytes.toString('utf8').trim().split('\n')
      const fetches = rows.filter((row) => row.includes('"context_fetch"'))
      return fetches.length >= 60 ? { response, header, rows, fetches } : undefined
    })
    expect(csv.response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(csv.response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="usage-inst_[0-9a-f]{16}-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.csv"$/,
    )
    expect(csv.response.headers.get('x-correlation-id')).toBeTruthy()
    expect(csv.header?.split(',')).toEqual(
      [
        'occurred_at',
        'metric',
        'value',
        'latency_ms',
        'user_id',
        'customer_id',
        'document_type',
        'mode',
        'operation',
        'model',
        'stage',
        'status_code',
        'compression_ratio',
        'validation_score',
        'event_id',
      ].map((column) => `"${column}"`),
    )
    // Sixty fetches seeded (ten of them sent twice): each once, with the latencies sent.
    expect(csv.fetches).toHaveLength(60)
    const latencies = csv.fetches.map((row) => Number(row.split(',')[3])).sort((a, b) => a - b)
    expect(latencies).toEqual(Array.from({ length: 60 }, (_, index) => index + 1))
    const stored = csv.rows.filter((row) => row.includes('"memories_stored"'))
    expect(stored).toHaveLength(4)

    const parquet = await download('parquet')
    expect(parquet.response.status).toBe(200)
    expect(parquet.response.headers.get('content-type')).toBe('application/vnd.apache.parquet')
    expect(parquet.bytes.subarray(0, 4).toString()).toBe('PAR1')
    expect(parquet.bytes.subarray(-4).toString()).toBe('PAR1')
    expect(parquet.bytes.length).toBeGreaterThan(500)

    const refused: [Record<string, string>, string][] = [
      [{ start: at(0), end: at(-hour) }, 'end'],
      [{ start: at(-401 * 24 * hour), end: at(0) }, 'start'],
      [{ ...range, format: 'xml' }, 'format'],
    ]
    for (const [params, field] of refused) {
      const reply = await get(`/v1/analytics/export?${query(params)}`)
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body.code).toBe('INVALID_INPUT')
      expect(Object.keys((reply.body.details as { fields: Record<string, string> }).fields)).toContain(field)
    }
    const foreign = await get(
      `/v1/analytics/export?${new URLSearchParams({ instance_id: harness.instance.instance.instance_id, ...range }).toString()}`,
    )
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({ code: 'INSTANCE_NOT_FOUND' })
  })

  it('summary: total_stored is what the instance holds now, so a deleted memory no longer counts', async () => {
    const owner = await harness.createInstance('analytics-stored-now')
    const client = createMemoryClient({
      baseUrl: harness.gateway.addresses.http ?? '',
      apiKey: owner.api_key.key,
    })
    const totalStored = async () =>
      (await client.analytics.summary({ instance_id: owner.instance.instance_id })).memories.total_stored
    const accepted = await client.memories.ingest({
      document: 'Ana lives in Porto. Ana works as a nurse. Ana plays the cello.',
      document_type: 'note',
      mode: 'fast',
      user_id: 'ana',
    })
    const stored = await eventually(async () => {
      const status = await client.memories.status(accepted.ingestion_id)
      return status.status === 'completed' ? status.memory_ids : undefined
    }, 60_000)
    expect(stored.length).toBeGreaterThan(1)
    await eventually(async () => ((await totalStored()) === stored.length ? true : undefined))
    await client.memories.delete(stored[0] ?? '')
    await eventually(async () => ((await totalStored()) === stored.length - 1 ? true : undefined))
  })
})
