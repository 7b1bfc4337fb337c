/**
 * `npm run bench:analytics`: one million usage events (BENCH_USAGE_EVENTS) for one instance, spread over the last
 * seven days, appended to Kafka and projected into ClickHouse by the analytics projector (the services run in this
 * process, with a fresh in-process ClickHouse); then each analytics route's p50/p95 against the hand-written query an
 * analyst would run on the raw table for the same numbers, in the same run.
 */
import { performance } from 'node:perf_hooks'
import { createClickhouseClient, createClickhouseStore } from '@memory-service/engines'
import { createEventProducer } from '@memory-service/log'
import { type OutgoingEvent } from '@memory-service/domain'
import {
  USAGE_SUBJECT,
  USAGE_TOPIC,
  usageEvent,
  usageRecordedSchema,
  type UsageMetric,
} from '@memory-service/domain'
import { clickhouseDataPath } from '@memory-service/engines'
import { benchConfig, percentile, runId, startBench } from './benchSetup.js'

const total = Number(process.env.BENCH_USAGE_EVENTS ?? 1_000_000)
const requests = Number(process.env.BENCH_REQUESTS ?? 200)
const day = 86_400_000
const now = Date.now()

// A deterministic stream: the i-th event's metric, time, user and latency follow from i.
function eventAt(instanceId: string, index: number): OutgoingEvent {
  const slot = index % 20
  const metric: UsageMetric =
    slot < 10
      ? 'api_call'
      : slot < 13
        ? 'context_fetch'
        : slot < 15
          ? 'memory_get'
          : slot < 17
            ? 'vector_queries'
            : slot === 17
              ? 'llm_input_tokens'
              : slot === 18
                ? 'llm_output_tokens'
                : 'memories_stored'
  const occurredAt = new Date(now - ((index * 7919) % (7 * day))).toISOString()
  const latency = metric === 'api_call' || metric === 'context_fetch' || metric === 'memory_get'
  return usageEvent(
    {
      instanceId,
      metric,
      value: metric.startsWith('llm_') ? 100 + (index % 900) : 1,
      measuredBy: `bench-${runId}-${String(index)}`,
      occurredAt,
      ...(latency ? { latencyMs: 2 + ((index * 37) % 200) + (index % 97 === 0 ? 800 : 0) } : {}),
      dimensions: {
        user_id: `user-${String(index % 100)}`,
        customer_id: `customer-${String(index % 10)}`,
        mode: index % 3 === 0 ? 'long-range' : 'fast',
        ...(metric === 'api_call'
          ? { status_code: index % 100 === 0 ? '503' : '200', operation: 'GET /v1/memories' }
          : {}),
        ...(metric.startsWith('llm_')
          ? {
              model: ['gpt-4o-mini', 'gpt-4o', 'house-model'][index % 3] ?? 'gpt-4o-mini',
              operation: ['ingestion', 'retrieval', 'compaction'][index % 3] ?? 'ingestion',
            }
          : {}),
      },
    },
    `bench-${runId}`,
  )
}

async function timed(run: () => Promise<void>): Promise<{ p50: number; p95: number }> {
  for (let index = 0; index < 10; index += 1) await run()
  const samples: number[] = []
  for (let index = 0; index < requests; index += 1) {
    const started = performance.now()
    await run()
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

async function main(): Promise<void> {
  const bench = await startBench(`analytics-${runId}`, ['gateway', 'projectors'])
  const instanceId = bench.instance.instance_id
  // A second connection to the services' in-process ClickHouse, for counting and the hand-written queries.
  const clickhouse = createClickhouseStore(
    await createClickhouseClient({ ...benchConfig.clickhouse, dataPath: clickhouseDataPath(benchConfig) }),
    benchConfig.clickhouse.database,
  )
  await bench.codec.register([{ subject: USAGE_SUBJECT, schema: usageRecordedSchema }])
  const producer = await createEventProducer(bench.kafka, bench.codec)
  const loadStarted = performance.now()
  for (let start = 0; start < total; start += 5000) {
    const events = Array.from({ length: Math.min(5000, total - start) }, (_, offset) =>
      eventAt(instanceId, start + offset),
    )
    await producer.append(USAGE_TOPIC, events)
  }
  const appendSeconds = (performance.now() - loadStarted) / 1000
  const countRows = async () =>
    Number(
      (
        await clickhouse.query<{ c: string }>(
          `SELECT count() AS c FROM ${clickhouse.database}.usage_raw WHERE instance_id = {instance:String}`,
          { instance: instanceId },
        )
      )[0]?.c ?? 0,
    )
  for (let last = -1; ;) {
    const rows = await countRows()
    if (rows >= total) break
    if (rows !== last) console.log(`clickhouse ${String(rows)}/${String(total)}`)
    last = rows
    await new Promise((resolve) => setTimeout(resolve, 2000))
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000
  await producer.close()

  const call = (path: string) => async () => {
    const response = await fetch(`${bench.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${bench.apiKey}` },
    })
    if (response.status !== 200)
      throw new Error(`${path}: ${String(response.status)} ${await response.text()}`)
    await response.arrayBuffer()
  }
  const sql = (query: string) => async () => {
    await clickhouse.query(query, { instance: instanceId })
  }
  const raw = `${clickhouse.database}.usage_raw`
  const week = new Date(now - 7 * day).toISOString()
  const end = new Date(now).toISOString()
  const params = (extra: Record<string, string>) =>
    new URLSearchParams({ instance_id: instanceId, start: week, end, ...extra }).toString()
  const cases = [
    {
      name: 'metrics api_call, hour × mode',
      api: call(`/v1/analytics/metrics?${params({ metric: 'api_call', bucket: 'hour', group_by: 'mode' })}`),
      raw: sql(
        `SELECT toStartOfHour(occurred_at) AS b, mode, sum(value) FROM ${raw} WHERE instance_id = {instance:String} AND metric = 'api_call' AND occurred_at >= now() - INTERVAL 7 DAY GROUP BY b, mode ORDER BY b`,
      ),
    },
    {
      name: 'latency context_fetch, hour',
      api: call(`/v1/analytics/latency?${params({ operation: 'context_fetch', bucket: 'hour' })}`),
      raw: sql(
        `SELECT toStartOfHour(occurred_at) AS b, avg(latency_ms), quantilesTDigest(0.5, 0.95, 0.99)(latency_ms), count() FROM ${raw} WHERE instance_id = {instance:String} AND metric = 'context_fetch' AND occurred_at >= now() - INTERVAL 7 DAY GROUP BY b ORDER BY b`,
      ),
    },
    {
      name: 'tokens, day × model',
      api: call(`/v1/analytics/tokens?${params({ bucket: 'day', group_by: 'model' })}`),
      raw: sql(
        `SELECT toStartOfDay(occurred_at) AS b, model, sumIf(value, metric = 'llm_input_tokens'), sumIf(value, metric = 'llm_output_tokens') FROM ${raw} WHERE instance_id = {instance:String} AND metric IN ('llm_input_tokens', 'llm_output_tokens') AND occurred_at >= now() - INTERVAL 7 DAY GROUP BY b, model ORDER BY b`,
      ),
    },
    {
      name: 'summary 7d',
      api: call(
        `/v1/analytics/summary?${new URLSearchParams({ instance_id: instanceId, period: '7d' }).toString()}`,
      ),
      raw: sql(
        `SELECT countIf(metric = 'api_call' AND occurred_at >= now() - INTERVAL 7 DAY), countIf(metric = 'api_call' AND occurred_at < now() - INTERVAL 7 DAY),
                countIf(metric = 'api_call' AND status_code >= 500), avgIf(latency_ms, metric = 'api_call'), sumIf(value, metric = 'memories_stored'),
                countIf(metric = 'context_fetch'), quantileTDigestIf(0.95)(latency_ms, metric = 'context_fetch'),
                sumIf(value, metric = 'llm_input_tokens'), sumIf(value, metric = 'llm_output_tokens')
           FROM ${raw} WHERE instance_id = {instance:String} AND occurred_at >= now() - INTERVAL 14 DAY`,
      ),
    },
  ]
  console.log(
    `\nanalytics benchmark: ${String(total)} usage events over 7 days in one instance (${instanceId}), in-process ClickHouse, ${new Date().toISOString()}`,
  )
  console.log(
    `load: Kafka append ${(total / appendSeconds).toFixed(0)} events/s; projected into ClickHouse ${(total / loadSeconds).toFixed(0)} events/s (${loadSeconds.toFixed(0)} s from the first append)`,
  )
  console.log(`${String(requests)} requests each, one client\n`)
  console.log(
    '| query                          | API p50 ms | API p95 ms | raw SQL p50 ms | raw SQL p95 ms | API / raw p50 |',
  )
  console.log(
    '| ------------------------------ | ---------- | ---------- | -------------- | -------------- | ------------- |',
  )
  for (const { name, api, raw: rawQuery } of cases) {
    const viaApi = await timed(api)
    const direct = await timed(rawQuery)
    console.log(
      `| ${name.padEnd(30)} | ${viaApi.p50.toFixed(1).padStart(10)} | ${viaApi.p95.toFixed(1).padStart(10)} | ${direct.p50.toFixed(1).padStart(14)} | ${direct.p95.toFixed(1).padStart(14)} | ${(viaApi.p50 / direct.p50).toFixed(2).padStart(12)}× |`,
    )
  }
  await clickhouse.close()
  await bench.close()
}

await main()
process.exit(0)
