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
const instance = 'inst_0123456789abcdef'

afterAll(async () => {
  await store.command(`DROP DATABASE IF EXISTS ${store.database}`)
  await store.close()
})

function usageRow(id: string, metric: string, occurredAt: string, latency: number | null, value = 1) {
  return {
    event_id: id,
    instance_id: instance,
    metric,
    value,
    latency_ms: latency,
    user_id: 'user-1',
    mode: 'fast',
    occurred_at: occurredAt,
  }
}

describe('clickhouse store and the usage tables', () => {
  it('applies the infra DDL twice without error: raw table, three wide and three narrow roll-ups and their views', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    for (const { source } of ddl) await store.applyDdl(source)
    const tables = await store.query<{ name: string; engine: string }>(
      'SELECT name, engine FROM system.tables WHERE database = {db:String} ORDER BY name',
      { db: store.database },
    )
    expect(tables).toEqual([
      { name: 'usage_day', engine: 'AggregatingMergeTree' },
      { name: 'usage_day_mv', engine: 'MaterializedView' },
      { name: 'usage_hour', engine: 'AggregatingMergeTree' },
      { name: 'usage_hour_mv', engine: 'MaterializedView' },
      { name: 'usage_minute', engine: 'AggregatingMergeTree' },
      { name: 'usage_minute_mv', engine: 'MaterializedView' },
      { name: 'usage_raw', engine: 'MergeTree' },
      { name: 'usage_totals_day', engine: 'AggregatingMergeTree' },
      { name: 'usage_totals_day_mv', engine: 'MaterializedView' },
      { name: 'usage_totals_hour', engine: 'AggregatingMergeTree' },
      { name: 'usage_totals_hour_mv', engine: 'MaterializedView' },
      { name: 'usage_totals_minute', engine: 'AggregatingMergeTree' },
      { name: 'usage_totals_minute_mv', engine: 'MaterializedView' },
    ])
  })

  it('keeps minute buckets 30 days and hour buckets a year through TTLs; day buckets have none', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    const ttlOf = async (table: string) => {
      const [row] = await store.query<{ statement: string }>(`SHOW CREATE TABLE ${store.database}.${table}`)
      return /TTL (.*?)(?:\n|SETTINGS|$)/s.exec(row?.statement ?? '')?.[1]?.trim() ?? null
    }
    expect(await ttlOf('usage_minute')).toMatch(/bucket \+ toIntervalDay\(30\)/)
    expect(await ttlOf('usage_hour')).toMatch(/bucket \+ toIntervalDay\(365\)/)
    expect(await ttlOf('usage_day')).toBeNull()
    expect(await ttlOf('usage_totals_minute')).toMatch(/bucket \+ toIntervalDay\(30\)/)
    expect(await ttlOf('usage_totals_hour')).toMatch(/bucket \+ toIntervalDay\(365\)/)
    expect(await ttlOf('usage_totals_day')).toBeNull()
  })

  it('rolls raw events up by minute, hour and day through the materialized views, with latency percentiles', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    const now = new Date()
    now.setUTCSeconds(0, 0)
    const rows = Array.from({ length: 100 }, (_, index) =>
      usageRow(
        `evt_${String(index)}`,
        'context_fetch',
        new Date(now.getTime() + index * 100).toISOString(),
        index + 1,
      ),
    )
    rows.push(usageRow('evt_no_latency', 'context_fetch', now.toISOString(), null))
    await store.insert('usage_raw', rows)
    for (const table of [
      'usage_minute',
      'usage_hour',
      'usage_day',
      'usage_totals_minute',
      'usage_totals_hour',
      'usage_totals_day',
    ]) {
      const [rollup] = await store.query<{ events: string; latencies: string; avg: number; q: number[] }>(
        `SELECT sum(events) AS events, sum(latency_count) AS latencies, sum(latency_sum) / sum(latency_count) AS avg,
                quantilesTDigestIfMerge(0.5, 0.95, 0.99)(latency) AS q
           FROM ${store.database}.${table}
          WHERE instance_id = {instance:String} AND metric = 'context_fetch'`,
        { instance },
      )
      expect(rollup, table).toMatchObject({ events: '101', latencies: '100' })
      expect(rollup?.avg, table).toBeCloseTo(50.5, 5)
      // t-digest estimates: within a few percent of the exact 50.5, 95.05 and 99.01.
      expect(rollup?.q[0], table).toBeGreaterThan(48)
      expect(rollup?.q[0], table).toBeLessThan(53)
      expect(rollup?.q[1], table).toBeGreaterThan(92)
      expect(rollup?.q[2], table).toBeGreaterThan(96)
    }
  })

  it('fills a narrow roll-up created after the wide one held events once, from the wide one, then keeps it current', async () => {
    const database = uniqueName('test_usage_backfill')
    const other = createClickhouseStore(
      await createClickhouseClient({ ...config.clickhouse, dataPath: clickhouseDataPath(config) }),
      database,
    )
    try {
      const [wide, narrow] = [
        ddl.filter(({ file }) => file.startsWith('001')),
        ddl.filter(({ file }) => !file.startsWith('001')),
      ]
      for (const { source } of wide) await other.applyDdl(source)
      const hour = Date.UTC(2026, 10, 20, 10)
      const before = Array.from({ length: 60 }, (_, index) => ({
        ...usageRow(
          `evt_before_${String(index)}`,
          'context_fetch',
          new Date(hour + index * 60_000).toISOString(),
          index + 1,
        ),
        user_id: `user-${String(index % 7)}`,
        mode: index % 2 === 0 ? 'fast' : 'long-range',
      }))
      await other.insert('usage_raw', before)
      // The narrow roll-ups arrive later (an upgrade): applied twice, as every start does.
      for (const { source } of narrow) await other.applyDdl(source)
      for (const { source } of narrow) await other.applyDdl(source)
      await other.insert('usage_raw', [
        usageRow('evt_after', 'context_fetch', new Date(hour + 30_000).toISOString(), 1000),
      ])
      const totals = async (table: string) =>
        (
          await other.query<{ events: string; latencies: string; q: number[] }>(
            `SELECT sum(events) AS events, sum(latency_count) AS latencies,
                    quantilesTDigestIfMerge(0.5, 0.95, 0.99)(latency) AS q
               FROM ${database}.${table} WHERE metric = 'context_fetch'`,
          )
        )[0]
      for (const unit of ['minute', 'hour', 'day']) {
        const [wideTotals, narrowTotals] = [
          await totals(`usage_${unit}`),
          await totals(`usage_totals_${unit}`),
        ]
        expect(narrowTotals, unit).toMatchObject({ events: '61', latencies: '61' })
        expect(narrowTotals?.q[1], unit).toBeCloseTo(wideTotals?.q[1] ?? -1, 0)
      }
      const [rows] = await other.query<{ c: string }>(
        `SELECT count() AS c FROM ${database}.usage_totals_hour FINAL`,
      )
      expect(rows?.c).toBe('1')
    } finally {
      await other.command(`DROP DATABASE IF EXISTS ${database}`)
      await other.close()
    }
  })

  it('binds query parameters server-side, so quotes in values cannot change the query', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    await store.insert('usage_raw', [usageRow("evt_' OR 1=1 --", 'api_call', new Date().toISOString(), null)])
    const rows = await store.query<{ c: string }>(
      `SELECT count() AS c FROM ${store.database}.usage_raw WHERE event_id = {id:String}`,
      { id: "evt_' OR 1=1 --" },
    )
    expect(rows).toEqual([{ c: '1' }])
    const none = await store.query<{ c: string }>(
      `SELECT count() AS c FROM ${store.database}.usage_raw WHERE event_id = {id:String}`,
      { id: "' OR 1=1 --" },
    )
    expect(none).toEqual([{ c: '0' }])
  })

  it('drops minute buckets past their TTL when parts merge, and keeps the day buckets', async () => {
    for (const { source } of ddl) await store.applyDdl(source)
    await store.insert('usage_raw', [
      usageRow('evt_old', 'ttl_probe', '2020-01-01T00:00:00.000Z', 5),
      usageRow('evt_new', 'ttl_probe', new Date().toISOString(), 5),
    ])
    for (const table of ['usage_raw', 'usage_minute', 'usage_hour', 'usage_day'])
      await store.command(`OPTIMIZE TABLE ${store.database}.${table} FINAL`)
    const count = async (table: string) =>
      (
        await store.query<{ c: string }>(
          `SELECT count() AS c FROM ${store.database}.${table} WHERE metric = 'ttl_probe' AND ${table === 'usage_raw' ? 'occurred_at' : 'bucket'} < '2021-01-01'`,
        )
      )[0]?.c
    expect(await count('usage_raw')).toBe('0')
    expect(await count('usage_minute')).toBe('0')
    expect(await count('usage_hour')).toBe('0')
    expect(await count('usage_day')).toBe('1')
  })
})
