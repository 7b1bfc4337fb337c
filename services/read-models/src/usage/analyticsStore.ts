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

/** The narrow roll-ups: operation, model and failed only, a few rows per bucket and metric. */
const totalsTable: Record<TimeBucket, string> = {
  minute: usageTables.totalsMinute,
  hour: usageTables.totalsHour,
  day: usageTables.totalsDay,
}

/** The dimensions the narrow roll-ups keep; a series grouped by another reads the wide ones. */
const narrowColumns: readonly GroupColumn[] = ['operation', 'model']

/** An ISO timestamp as ClickHouse DateTime64(3) text, UTC. */
const withMilliseconds = (iso: string) => new Date(iso).toISOString().replace('T', ' ').replace('Z', '')

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

/**
 * The analytics queries; every one reads a roll-up (the narrow one when it can), except compaction quality, which
 * only the raw table keeps.
 */
export function createAnalyticsStore(clickhouse: ClickhouseStore) {
  /** The narrow roll-up unless the series is split by a dimension only the wide one keeps. */
  const table = (bucket: TimeBucket, groupBy?: GroupColumn) =>
    `${clickhouse.database}.${(groupBy === undefined || narrowColumns.includes(groupBy) ? totalsTable : rollupTable)[bucket]}`
  const window = (instanceId: string, range: Pick<TimeRange, 'from' | 'to'>) => ({
    instance: instanceId,
    from: clickhouseDateTime(range.from),
    to: clickhouseDateTime(range.to),
  })
  const inWindow = 'instance_id = {instance:String} AND bucket >= {from:DateTime} AND bucket < {to:DateTime}'

  return {
    /**
     * Every usage row of the instance in [from, to), oldest first, in ClickHouse's own CSVWithNames or Parquet: what
     * an analyst loads into their tools. Read from the raw table (400 days), streamed as ClickHouse writes it.
     */
    exportRows(instanceId: string, from: string, to: string, format: 'CSVWithNames' | 'Parquet') {
      return clickhouse.streamAs(
        format,
        `SELECT occurred_at, metric, value, latency_ms, user_id, customer_id, document_type, mode, operation, model,
                stage, status_code, compression_ratio, validation_score, event_id
           FROM ${clickhouse.database}.${usageTables.raw}
          WHERE instance_id = {instance:String}
            AND occurred_at >= {from:DateTime64(3, 'UTC')} AND occurred_at < {to:DateTime64(3, 'UTC')}
          ORDER BY occurred_at, event_id`,
        { instance: instanceId, from: withMilliseconds(from), to: withMilliseconds(to) },
      )
    },

    async metricSeries(instanceId: string, metric: UsageMetric, range: TimeRange, groupBy?: GroupColumn) {
      const rows = await clickhouse.query<Slot & { value: number }>(
        `SELECT toString(bucket) AS slot, ${groupBy ?? "''"} AS grp, sum(total) AS value
           FROM ${table(range.bucket, groupBy)}
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
           FROM ${table(range.bucket, groupBy)}
          WHERE ${inWindow} AND metric IN ('llm_input_tokens', 'llm_output_tokens')
          GROUP BY slot, grp, model ORDER BY slot, grp`,
        window(instanceId, range),
      )
      return rows.map(({ slot, ...row }) => ({ bucket: slot, ...row }))
    },

    /**
     * Everything the summary reports for a period and the one before it, in one query over the hour buckets (the
     * summary's periods are whole hours); compaction quality, which only the raw table keeps, in a scalar subquery.
     */
    async summaryTotals(
      instanceId: string,
      periods: { previousFrom: Date; from: Date; to: Date },
    ): Promise<{ current: PeriodTotals; previous: PeriodTotals }> {
      const params = {
        instance: instanceId,
        previousFrom: clickhouseDateTime(periods.previousFrom),
        from: clickhouseDateTime(periods.from),
        to: clickhouseDateTime(periods.to),
      }
      // Each total twice: `_c` for the period, `_p` for the one before (`cur` tells a row's period).
      const both = (name: string, expression: (period: string) => string) =>
        `${expression('cur')} AS ${name}_c, ${expression('NOT cur')} AS ${name}_p`
      const [row] = await clickhouse.query<Record<string, unknown>>(
        `SELECT
           ${both('api_calls', (p) => `sumIf(events, metric = 'api_call' AND ${p})`)},
           ${both('failed_api_calls', (p) => `sumIf(events, metric = 'api_call' AND failed = 1 AND ${p})`)},
           ${both('api_latency_avg', (p) => `sumIf(latency_sum, metric = 'api_call' AND ${p}) / greatest(sumIf(latency_count, metric = 'api_call' AND ${p}), 1)`)},
           ${both('memories_stored', (p) => `sumIf(total, metric = 'memories_stored' AND ${p})`)},
           ${both('context_fetches', (p) => `sumIf(events, metric = 'context_fetch' AND ${p})`)},
           ${both('context_fetch_avg', (p) => `sumIf(latency_sum, metric = 'context_fetch' AND ${p}) / greatest(sumIf(latency_count, metric = 'context_fetch' AND ${p}), 1)`)},
           ${both('context_fetch_q', (p) => `quantilesTDigestIfMergeIf(0.5, 0.95, 0.99)(latency, metric = 'context_fetch' AND ${p})`)},
           ${both('compactions', (p) => `sumIf(events, metric = 'context_compact' AND ${p})`)},
           ${both('input_by_model', (p) => `sumMapIf([model], [total], metric = 'llm_input_tokens' AND ${p})`)},
           ${both('output_by_model', (p) => `sumMapIf([model], [total], metric = 'llm_output_tokens' AND ${p})`)},
           (SELECT tuple(avgIf(compression_ratio, occurred_at >= {from:DateTime}),
                         avgIf(validation_score, occurred_at >= {from:DateTime}),
                         avgIf(compression_ratio, occurred_at < {from:DateTime}),
                         avgIf(validation_score, occurred_at < {from:DateTime}))
              FROM ${clickhouse.database}.${usageTables.raw}
             WHERE instance_id = {instance:String} AND metric = 'context_compact'
               AND occurred_at >= {previousFrom:DateTime} AND occurred_at < {to:DateTime}) AS quality
         FROM (SELECT *, bucket >= {from:DateTime} AS cur FROM ${table('hour')}
                WHERE instance_id = {instance:String} AND bucket >= {previousFrom:DateTime} AND bucket < {to:DateTime})`,
        params,
      )
      const quality = (row?.quality as (number | null)[] | undefined) ?? []
      const totalsOf = (
        period: 'c' | 'p',
        ratio: number | null | undefined,
        score: number | null | undefined,
      ) => {
        const number = (key: string) => Number(row?.[`${key}_${period}`] ?? 0)
        const quantiles = (row?.[`context_fetch_q_${period}`] as number[] | undefined) ?? []
        const [models = [], inputs = []] =
          (row?.[`input_by_model_${period}`] as [string[], (number | string)[]] | undefined) ?? []
        const [outputModels = [], outputs = []] =
          (row?.[`output_by_model_${period}`] as [string[], (number | string)[]] | undefined) ?? []
        const tokens = new Map<string, { model: string; input: number; output: number }>()
        const entry = (model: string) => tokens.get(model) ?? { model, input: 0, output: 0 }
        models.forEach((model, index) =>
          tokens.set(model, { ...entry(model), input: Number(inputs[index] ?? 0) }),
        )
        outputModels.forEach((model, index) =>
          tokens.set(model, { ...entry(model), output: Number(outputs[index] ?? 0) }),
        )
        const finite = (value: number | null | undefined) => (Number.isFinite(value) ? Number(value) : 0)
        return {
          apiCalls: number('api_calls'),
          failedApiCalls: number('failed_api_calls'),
          apiLatencyAvg: number('api_latency_avg'),
          memoriesStored: number('memories_stored'),
          contextFetches: number('context_fetches'),
          contextFetchAvg: number('context_fetch_avg'),
          contextFetchP95: finite(quantiles[1]),
          compactions: number('compactions'),
          compactionRatioAvg: finite(ratio),
          compactionScoreAvg: finite(score),
          tokensByModel: [...tokens.values()].sort((a, b) => (a.model < b.model ? -1 : 1)),
        }
      }
      return {
        current: totalsOf('c', quality[0], quality[1]),
        previous: totalsOf('p', quality[2], quality[3]),
      }
    },
  }
}

export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>
