import type { MemoryStore } from '../memories/memoryStore.js'
import { healthOf } from '@memory-service/domain'
import type {
  AnalyticsLatencyResponse,
  AnalyticsMetricsResponse,
  AnalyticsSummaryResponse,
  AnalyticsTokensResponse,
} from '@memory-service/contracts'
import type { UsageMetric } from '@memory-service/domain'
import type { AnalyticsStore, GroupColumn, PeriodTotals } from './analyticsStore.js'
import { exportRangeOf, timeRangeOf, zeroFilled, type TimeBucket } from '@memory-service/domain'
import { changePct, estimatedCostUsd, type TokenPrice } from '@memory-service/domain'

const round = (value: number, digits = 6) => Number(value.toFixed(digits))

export const summaryPeriodHours = { '24h': 24, '7d': 168, '30d': 720, '90d': 2160 } as const
export type SummaryPeriod = keyof typeof summaryPeriodHours

/** The four analytics reports of the spec, from the roll-ups; ranges validated, empty buckets zero-filled. */
export function createAnalyticsReports(
  store: AnalyticsStore,
  prices: ReadonlyMap<string, TokenPrice>,
  /** What is stored now comes from the memories read model: usage events count what was stored, not what remains. */
  memories: Pick<MemoryStore, 'count'>,
  /**
   * Usage rows carry a keyed pseudonym instead of the user id; grouped by user, a report names the users who still
   * have a data key (an erased user stays a pseudonym nobody can link to them).
   */
  users: { usersOfPseudonyms(instanceId: string, pseudonyms: string[]): Promise<Map<string, string>> } = {
    usersOfPseudonyms: () => Promise.resolve(new Map()),
  },
) {
  async function namingUsers<Row extends { grp: string }>(
    instanceId: string,
    groupBy: string | undefined,
    rows: Row[],
  ): Promise<Row[]> {
    if (groupBy !== 'user_id') return rows
    const pseudonyms = [...new Set(rows.map((row) => row.grp).filter((grp) => grp.startsWith('psn_')))]
    const named = await users.usersOfPseudonyms(instanceId, pseudonyms)
    return rows.map((row) => ({ ...row, grp: named.get(row.grp) ?? row.grp }))
  }

  return {
    /** The instance's usage rows in [start, end) as ClickHouse writes them: CSV with a header row, or Parquet. */
    exportUsage(instanceId: string, query: { start: string; end: string; format: 'csv' | 'parquet' }) {
      const { from, to } = exportRangeOf(query.start, query.end)
      return store.exportRows(instanceId, from, to, query.format === 'parquet' ? 'Parquet' : 'CSVWithNames')
    },

    async metrics(
      instanceId: string,
      query: { metric: UsageMetric; bucket: TimeBucket; start: string; end: string; group_by?: GroupColumn },
    ): Promise<AnalyticsMetricsResponse> {
      const range = timeRangeOf(query.bucket, query.start, query.end)
      const rows = await namingUsers(
        instanceId,
        query.group_by,
        await store.metricSeries(instanceId, query.metric, range, query.group_by),
      )
      const points = zeroFilled(
        range,
        rows.map(({ bucket, grp, value }) => ({
          bucket,
          group: query.group_by ? grp : null,
          point: { value },
        })),
        { value: 0 },
      )
      const values = points.map((point) => point.value)
      const total = values.reduce((sum, value) => sum + value, 0)
      return {
        instance_id: instanceId,
        metric: query.metric,
        bucket: query.bucket,
        start: query.start,
        end: query.end,
        data_points: points,
        summary: {
          total,
          average: values.length > 0 ? round(total / values.length) : 0,
          min: values.length > 0 ? Math.min(...values) : 0,
          max: values.length > 0 ? Math.max(...values) : 0,
        },
      }
    },

    async latency(
      instanceId: string,
      query: {
        operation: 'context_fetch' | 'context_compact' | 'ingestion' | 'memory_get'
        bucket: TimeBucket
        start: string
        end: string
      },
    ): Promise<AnalyticsLatencyResponse> {
      const range = timeRangeOf(query.bucket, query.start, query.end)
      const rows = await store.latencySeries(instanceId, query.operation, range)
      const points = zeroFilled(
        range,
        rows.map(({ bucket, ...point }) => ({
          bucket,
          group: null,
          point: {
            avg: round(point.avg, 3),
            p50: round(point.p50, 3),
            p95: round(point.p95, 3),
            p99: round(point.p99, 3),
            count: point.count,
          },
        })),
        { avg: 0, p50: 0, p95: 0, p99: 0, count: 0 },
      )
      return {
        instance_id: instanceId,
        operation: query.operation,
        bucket: query.bucket,
        start: query.start,
        end: query.end,
        data_points: points.map(({ group: _group, ...point }) => point),
      }
    },

    async tokens(
      instanceId: string,
      query: { bucket: TimeBucket; start: string; end: string; group_by?: 'operation' | 'model' | 'user_id' },
    ): Promise<AnalyticsTokensResponse> {
      const range = timeRangeOf(query.bucket, query.start, query.end)
      const rows = await namingUsers(
        instanceId,
        query.group_by,
        await store.tokenSeries(instanceId, range, query.group_by),
      )
      // Cost is priced per model, then summed into the requested groups.
      const merged = new Map<
        string,
        { bucket: string; group: string | null; input: number; output: number; cost: number }
      >()
      for (const row of rows) {
        const group = query.group_by ? row.grp : null
        const key = `${row.bucket}\u0000${group ?? ''}`
        const entry = merged.get(key) ?? { bucket: row.bucket, group, input: 0, output: 0, cost: 0 }
        entry.input += row.input
        entry.output += row.output
        entry.cost += estimatedCostUsd(prices, row.model, row.input, row.output)
        merged.set(key, entry)
      }
      const points = zeroFilled(
        range,
        [...merged.values()].map(({ bucket, group, input, output, cost }) => ({
          bucket,
          group,
          point: {
            input_tokens: input,
            output_tokens: output,
            total_tokens: input + output,
            estimated_cost_usd: round(cost),
          },
        })),
        { input_tokens: 0, output_tokens: 0, total_tokens: 0, estimated_cost_usd: 0 },
      )
      const sum = (pick: (point: (typeof points)[number]) => number) =>
        points.reduce((total, point) => total + pick(point), 0)
      return {
        instance_id: instanceId,
        bucket: query.bucket,
        start: query.start,
        end: query.end,
        data_points: points,
        summary: {
          total_input_tokens: sum((point) => point.input_tokens),
          total_output_tokens: sum((point) => point.output_tokens),
          total_tokens: sum((point) => point.total_tokens),
          total_estimated_cost_usd: round(sum((point) => point.estimated_cost_usd)),
        },
      }
    },

    async summary(
      instanceId: string,
      period: SummaryPeriod,
      now = new Date(),
    ): Promise<AnalyticsSummaryResponse> {
      const hours = summaryPeriodHours[period]
      // Whole hours: the period ending with the current hour, and the one before it.
      const end = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000)
      const start = new Date(end.getTime() - hours * 3_600_000)
      const previousStart = new Date(start.getTime() - hours * 3_600_000)
      const [{ current, previous }, storedNow] = await Promise.all([
        store.summaryTotals(instanceId, { previousFrom: previousStart, from: start, to: end }),
        memories.count(instanceId),
      ])
      const tokens = (totals: PeriodTotals) =>
        totals.tokensByModel.reduce(
          (sum, { model, input, output }) => ({
            input: sum.input + input,
            output: sum.output + output,
            cost: sum.cost + estimatedCostUsd(prices, model, input, output),
          }),
          { input: 0, output: 0, cost: 0 },
        )
      const currentTokens = tokens(current)
      const previousTokens = tokens(previous)
      const errorRate = current.apiCalls > 0 ? (current.failedApiCalls / current.apiCalls) * 100 : 0
      return {
        instance_id: instanceId,
        period,
        api_calls: { total: current.apiCalls, change_pct: changePct(current.apiCalls, previous.apiCalls) },
        memories: {
          total_stored: storedNow,
          created_in_period: current.memoriesStored,
          change_pct: changePct(current.memoriesStored, previous.memoriesStored),
        },
        context_fetches: {
          total: current.contextFetches,
          avg_latency_ms: round(current.contextFetchAvg, 3),
          p95_latency_ms: round(current.contextFetchP95, 3),
          change_pct: changePct(current.contextFetches, previous.contextFetches),
        },
        compactions: {
          total: current.compactions,
          avg_compression_ratio: round(current.compactionRatioAvg, 3),
          avg_validation_score: round(current.compactionScoreAvg, 4),
        },
        tokens: {
          total_input: currentTokens.input,
          total_output: currentTokens.output,
          estimated_cost_usd: round(currentTokens.cost),
          change_pct: changePct(
            currentTokens.input + currentTokens.output,
            previousTokens.input + previousTokens.output,
          ),
        },
        health: {
          status: healthOf(errorRate),
          error_rate_pct: round(errorRate, 3),
          avg_latency_ms: round(current.apiLatencyAvg, 3),
        },
      }
    },
  }
}

export type AnalyticsReports = ReturnType<typeof createAnalyticsReports>
