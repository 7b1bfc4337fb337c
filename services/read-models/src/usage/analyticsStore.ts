import { usageTables } from '@memory-service/domain'
import type { ClickhouseStore } from '@memory-service/engines'
import type { UsageMetric } from '@memory-service/domain'
import { clickhouseDateTime, type TimeBucket, type TimeRange } from '@memory-service/domain'

/** Dimensions a series can be split by; each is a column of the roll-ups (never interpolated from input). */
export const groupColumns = ['user_id', 'customer_id', 'document_type', 'mode', 'operation', 'model'] as const
export type GroupColumn = (typeof groupColumns)[number]

const rollupTable: Record<TimeBucket, string> = {
  minute: usageTables.minute,
  hour: usageTables.hour,
  day: usageTables.day,
}

/** A bucket start as ClickHouse text (named apart from the column, which the WHERE clause compares). */
interface Slot {
  slot: string
  grp: string
}

export interface LatencyRow {
  bucket: string
  count: number
  avg: number
  p50: number
  p95: number
  p99: number
}

/** Totals of one period for the summary. */
export interface PeriodTotals {
  apiCalls: number
  failedApiCalls: number
  apiLatencyAvg: number
  memoriesStored: number
  contextFetches: number
  contextFetchAvg: number
  contextFetchP95: number
  compactions: number
  compactionRatioAvg: number
  compactionScoreAvg: number
  tokensByModel: { model: string; input: number; output: number }[]
}

/** The analytics queries; every one reads a roll-up, except compaction quality, which only the raw table keeps. */
export function createAnalyticsStore(clickhouse: ClickhouseStore) {
  const table = (bucket: TimeBucket) => `${clickhouse.database}.${rollupTable[bucket]}`
  const window = (instanceId: string, range: Pick<TimeRange, 'from' | 'to'>) => ({
    instance: instanceId,
    from: clickhouseDateTime(range.from),
    to: clickhouseDateTime(range.to),
  })
  const inWindow = 'instance_id = {instance:String} AND bucket >= {from:DateTime} AND bucket < {to:DateTime}'

  return {
    async metricSeries(instanceId: string, metric: UsageMetric, range: TimeRange, groupBy?: GroupColumn) {
      const rows = await clickhouse.query<Slot & { value: number }>(
        `SELECT toString(bucket) AS slot, ${groupBy ?? "''"} AS grp, sum(total) AS value
           FROM ${table(range.bucket)}
          WHERE ${inWindow} AND metric = {metric:String}
          GROUP BY slot, grp ORDER BY slot, grp`,
        { ...window(instanceId, range), metric },
      )
      return rows.map(({ slot, ...row }) => ({ bucket: slot, ...row }))
    },

    async latencySeries(instanceId: string, metric: UsageMetric, range: TimeRange): Promise<LatencyRow[]> {
      const rows = await clickhouse.query<{ slot: string; count: string; total: number; q: number[] }>(
        `SELECT toString(bucket) AS slot, sum(latency_count) AS count, sum(latency_sum) AS total,
                quantilesTDigestIfMerge(0.5, 0.95, 0.99)(latency) AS q
           FROM ${table(range.bucket)}
          WHERE ${inWindow} AND metric = {metric:String}
          GROUP BY slot HAVING count > 0 ORDER BY slot`,
        { ...window(instanceId, range), metric },
      )
      return rows.map(({ slot, count, total, q }) => ({
        bucket: slot,
        count: Number(count),
        avg: Number(count) > 0 ? total / Number(count) : 0,
        p50: q[0] ?? 0,
        p95: q[1] ?? 0,
        p99: q[2] ?? 0,
      }))
    },

    async tokenSeries(instanceId: string, range: TimeRange, groupBy?: 'operation' | 'model' | 'user_id') {
      const rows = await clickhouse.query<Slot & { model: string; input: number; output: number }>(
        `SELECT toString(bucket) AS slot, ${groupBy ?? "''"} AS grp, model,
                sumIf(total, metric = 'llm_input_tokens') AS input, sumIf(total, metric = 'llm_output_tokens') AS output
           FROM ${table(range.bucket)}
          WHERE ${inWindow} AND metric IN ('llm_input_tokens', 'llm_output_tokens')
          GROUP BY slot, grp, model ORDER BY slot, grp`,
        window(instanceId, range),
      )
      return rows.map(({ slot, ...row }) => ({ bucket: slot, ...row }))
    },

    /** Everything the summary reports for one period, from hour buckets (the summary's periods are whole hours). */
    async periodTotals(instanceId: string, range: Pick<TimeRange, 'from' | 'to'>): Promise<PeriodTotals> {
      const params = window(instanceId, range)
      const [metrics] = await clickhouse.query<Record<string, number | string>>(
        `SELECT
           sumIf(events, metric = 'api_call') AS api_calls,
           sumIf(events, metric = 'api_call' AND failed = 1) AS failed_api_calls,
           sumIf(latency_sum, metric = 'api_call') / greatest(sumIf(latency_count, metric = 'api_call'), 1) AS api_latency_avg,
           sumIf(total, metric = 'memories_stored') AS memories_stored,
           sumIf(events, metric = 'context_fetch') AS context_fetches,
           sumIf(latency_sum, metric = 'context_fetch') / greatest(sumIf(latency_count, metric = 'context_fetch'), 1) AS context_fetch_avg,
           sumIf(events, metric = 'context_compact') AS compactions
         FROM ${table('hour')} WHERE ${inWindow}`,
        params,
      )
      const [fetchQuantiles] = await clickhouse.query<{ q: number[] }>(
        `SELECT quantilesTDigestIfMerge(0.5, 0.95, 0.99)(latency) AS q
           FROM ${table('hour')} WHERE ${inWindow} AND metric = 'context_fetch'`,
        params,
      )
      // Compaction quality is kept per event in the raw table only (compactions are few); same window.
      const [quality] = await clickhouse.query<{ ratio: number | null; score: number | null }>(
        `SELECT avgIf(compression_ratio, metric = 'context_compact') AS ratio,
                avgIf(validation_score, metric = 'context_compact') AS score
           FROM ${clickhouse.database}.${usageTables.raw}
          WHERE instance_id = {instance:String} AND metric = 'context_compact'
            AND occurred_at >= {from:DateTime} AND occurred_at < {to:DateTime}`,
        params,
      )
      const tokensByModel = await clickhouse.query<{ model: string; input: number; output: number }>(
        `SELECT model, sumIf(total, metric = 'llm_input_tokens') AS input, sumIf(total, metric = 'llm_output_tokens') AS output
           FROM ${table('hour')}
          WHERE ${inWindow} AND metric IN ('llm_input_tokens', 'llm_output_tokens')
          GROUP BY model ORDER BY model`,
        params,
      )
      const number = (key: string) => Number(metrics?.[key] ?? 0)
      return {
        apiCalls: number('api_calls'),
        failedApiCalls: number('failed_api_calls'),
        apiLatencyAvg: number('api_latency_avg'),
        memoriesStored: number('memories_stored'),
        contextFetches: number('context_fetches'),
        contextFetchAvg: number('context_fetch_avg'),
        contextFetchP95: Number.isFinite(fetchQuantiles?.q[1]) ? (fetchQuantiles?.q[1] ?? 0) : 0,
        compactions: number('compactions'),
        compactionRatioAvg: Number.isFinite(quality?.ratio) ? Number(quality?.ratio) : 0,
        compactionScoreAvg: Number.isFinite(quality?.score) ? Number(quality?.score) : 0,
        tokensByModel,
      }
    },
  }
}

export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>
