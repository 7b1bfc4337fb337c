import { usageTables } from '@memory-service/domain'
import type { ConfigHistory, ConfigUsage, CurrentConfig } from '@memory-service/contracts'
import type { ClickhouseStore } from '@memory-service/engines'
import { changePct } from '@memory-service/domain'
import type { ConfigVersionRecord } from '@memory-service/domain'

const withMilliseconds = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '')
const round = (value: number, digits = 2) => Number((Number.isFinite(value) ? value : 0).toFixed(digits))

/** What the reports read of an instance's configuration versions (the control plane's read model answers it). */
export interface ConfigVersionsView {
  active(instanceId: string): ConfigVersionRecord
  list(instanceId: string, page: number, pageSize: number): { items: ConfigVersionRecord[] }
}

/**
 * Usage of an instance while each configuration version was active. A version's window starts and ends at
 * arbitrary instants, so it is read from the raw events (kept 400 days, ordered by instance, metric and time),
 * not from the minute roll-ups, which would count the minute of a switch towards both versions.
 */
export function createConfigReports(clickhouse: ClickhouseStore, configs: ConfigVersionsView) {
  async function usageBetween(instanceId: string, from: Date, to: Date): Promise<ConfigUsage> {
    const [row] = await clickhouse.query<Record<string, number | string | number[]>>(
      `SELECT
         countIf(metric = 'api_call') AS api_calls,
         countIf(metric = 'api_call' AND status_code >= 500) AS failed_api_calls,
         avgIf(latency_ms, metric = 'api_call' AND latency_ms IS NOT NULL) AS latency_avg,
         quantilesTDigestIf(0.5, 0.95, 0.99)(assumeNotNull(latency_ms), metric = 'api_call' AND latency_ms IS NOT NULL) AS latency_q,
         sumIf(value, metric = 'memories_stored') AS memories_stored,
         sumIf(value, metric = 'llm_input_tokens') AS input_tokens,
         sumIf(value, metric = 'llm_output_tokens') AS output_tokens
       FROM ${clickhouse.database}.${usageTables.raw}
       WHERE instance_id = {instance:String}
         AND occurred_at >= {from:DateTime64(3)} AND occurred_at < {to:DateTime64(3)}`,
      { instance: instanceId, from: withMilliseconds(from), to: withMilliseconds(to) },
    )
    const number = (key: string) => round(Number(row?.[key] ?? 0))
    const quantiles = (row?.latency_q as number[] | undefined) ?? []
    const apiCalls = number('api_calls')
    const failed = number('failed_api_calls')
    const input = number('input_tokens')
    const output = number('output_tokens')
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      api_calls: apiCalls,
      failed_api_calls: failed,
      error_rate_pct: apiCalls > 0 ? round((failed / apiCalls) * 100, 3) : 0,
      latency_ms: {
        avg: number('latency_avg'),
        p50: round(quantiles[0] ?? 0),
        p95: round(quantiles[1] ?? 0),
        p99: round(quantiles[2] ?? 0),
      },
      memories_stored: number('memories_stored'),
      tokens: { input, output, total: input + output },
    }
  }

  const usageOf = (version: ConfigVersionRecord, now: Date) =>
    usageBetween(
      version.instance_id,
      new Date(version.applied_at ?? now),
      version.superseded_at ? new Date(version.superseded_at) : now,
    )

  return {
    async current(instanceId: string): Promise<CurrentConfig> {
      const config = configs.active(instanceId)
      return { instance_id: instanceId, config, usage: await usageOf(config, new Date()) }
    },

    /** Every version that was active, newest first, each compared with the one active before it. */
    async history(instanceId: string): Promise<ConfigHistory> {
      const now = new Date()
      const applied = configs
        .list(instanceId, 1, Number.MAX_SAFE_INTEGER)
        .items.filter((version) => version.applied_at !== null)
        .sort((a, b) => (b.applied_at ?? '').localeCompare(a.applied_at ?? ''))
      const usages = await Promise.all(applied.map((version) => usageOf(version, now)))
      return {
        instance_id: instanceId,
        versions: applied.map((config, position) => {
          const usage = usages[position] as ConfigUsage
          const previous = applied[position + 1]
          const before = usages[position + 1]
          return {
            config,
            usage,
            compared_to_previous:
              previous && before
                ? {
                    config_id: previous.config_id,
                    latency_p95_change_pct: changePct(usage.latency_ms.p95, before.latency_ms.p95),
                    error_rate_change_pct: changePct(usage.error_rate_pct, before.error_rate_pct),
                    api_calls_change_pct: changePct(usage.api_calls, before.api_calls),
                    memories_stored_change_pct: changePct(usage.memories_stored, before.memories_stored),
                    tokens_change_pct: changePct(usage.tokens.total, before.tokens.total),
                  }
                : null,
          }
        }),
      }
    },
  }
}

export type ConfigReports = ReturnType<typeof createConfigReports>
