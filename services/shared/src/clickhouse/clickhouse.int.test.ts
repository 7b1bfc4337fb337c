import { afterAll, describe, expect, it } from 'vitest'
import { clickhouseDataPath } from '../connectEngines.js'
import { loadEngineDeclarations } from '../provisioning/provisionEngines.js'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createClickhouseClient, createClickhouseStore } from './createClickhouseStore.js'

const config = testConfig()
const store = createClickhouseStore(
  await createClickhouseClient({ ...config.clickhouse, dataPath: clickhouseDataPath(config) }),
  uniqueName('test_usage'),
)
const ddl = loadEngineDeclarations().clickhouseDdl

afterAll(async () => {
  await store.command(`DROP DATABASE IF EXISTS ${store.database}`)
  await store.close()
})

function usageEvent(id: string, metric: string, occurredAt: string, latency: number | null, value = 1) {
  return {
    event_id: id,
    instance_id: 'inst_0123456789abcdef',
    metric,
    value,
    latency_ms: latency,
    user_id: 'user-1',
    dimensions: { mode: 'fast' },
    occurred_at: occurredAt,
  }
}

describe('clickhouse store', () => {
  it('applies the infra DDL twice without error (tables, roll-up and materialized view)', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    for (const { source } of ddl) await store.applyDdl(source)
    const tables = await store.query<{ name: string; engine: string }>(
      'SELECT name, engine FROM system.tables WHERE database = {db:String} ORDER BY name',
      { db: store.database },
    )
    expect(tables).toEqual([
      { name: 'usage_by_minute', engine: 'AggregatingMergeTree' },
      { name: 'usage_by_minute_mv', engine: 'MaterializedView' },
      { name: 'usage_events', engine: 'ReplacingMergeTree' },
    ])
  })

  it('rolls raw events up by minute through the materialized view, with latency quantiles', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    const now = new Date()
    now.setUTCSeconds(0, 0)
    const minute = now.toISOString()
    const events = Array.from({ length: 100 }, (_, index) =>
      usageEvent(
        `evt_${index}`,
        'context_fetch',
        new Date(now.getTime() + index * 100).toISOString(),
        index + 1,
      ),
    )
    await store.insert('usage_events', events)
    const rows = await store.query<{ bucket: string; events: string; p50: number; p99: number }>(
      `SELECT bucket, countMerge(events) AS events, quantilesMerge(0.5, 0.95, 0.99)(latency)[1] AS p50,
              quantilesMerge(0.5, 0.95, 0.99)(latency)[3] AS p99
         FROM ${store.database}.usage_by_minute
        WHERE instance_id = {instance:String} AND metric = {metric:String}
        GROUP BY bucket ORDER BY bucket`,
      { instance: 'inst_0123456789abcdef', metric: 'context_fetch' },
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ bucket: minute.replace('T', ' ').replace(/\.\d+Z$/, ''), events: '100' })
    expect(rows[0]?.p50).toBeCloseTo(50.5, 0)
    expect(rows[0]?.p99).toBeGreaterThan(98)
  })

  it('binds query parameters server-side, so quotes in values cannot change the query', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    await store.insert('usage_events', [
      usageEvent("evt_' OR 1=1 --", 'api_call', new Date().toISOString(), null),
    ])
    const rows = await store.query<{ c: string }>(
      `SELECT count() AS c FROM ${store.database}.usage_events WHERE event_id = {id:String}`,
      { id: "evt_' OR 1=1 --" },
    )
    expect(rows).toEqual([{ c: '1' }])
    const none = await store.query<{ c: string }>(
      `SELECT count() AS c FROM ${store.database}.usage_events WHERE event_id = {id:String}`,
      { id: "' OR 1=1 --" },
    )
    expect(none).toEqual([{ c: '0' }])
  })

  it('drops rows past their TTL when parts merge', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    const old = '2020-01-01T00:00:00.000Z'
    await store.insert('usage_events', [
      usageEvent('evt_old', 'ttl_probe', old, 5),
      usageEvent('evt_new', 'ttl_probe', new Date().toISOString(), 5),
    ])
    await store.command(`OPTIMIZE TABLE ${store.database}.usage_events FINAL`)
    await store.command(`OPTIMIZE TABLE ${store.database}.usage_by_minute FINAL`)
    const raw = await store.query<{ event_id: string }>(
      `SELECT event_id FROM ${store.database}.usage_events WHERE metric = 'ttl_probe' ORDER BY event_id`,
    )
    expect(raw).toEqual([{ event_id: 'evt_new' }])
    const minutes = await store.query<{ c: string }>(
      `SELECT count() AS c FROM ${store.database}.usage_by_minute WHERE metric = 'ttl_probe' AND bucket < '2021-01-01'`,
    )
    expect(minutes).toEqual([{ c: '0' }])
  })
})
