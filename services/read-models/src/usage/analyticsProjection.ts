import { usageTables } from '@memory-service/domain'
import type { ClickhouseStore } from '@memory-service/engines'
import type { ConsumedEvent } from '@memory-service/log'
import type { UsageRecorded } from '@memory-service/contracts'

/** One usage event as a row of `usage_raw`; the dimensions the roll-ups group by become columns. */
export function usageRowOf(event: UsageRecorded) {
  const dimensions = event.dimensions
  const status = Number(dimensions.status_code ?? 0)
  return {
    event_id: event.event_id,
    instance_id: event.instance_id,
    metric: event.metric,
    value: event.value,
    latency_ms: event.latency_ms,
    user_id: dimensions.user_id ?? '',
    customer_id: dimensions.customer_id ?? '',
    document_type: dimensions.document_type ?? '',
    mode: dimensions.mode ?? '',
    operation: dimensions.operation ?? '',
    model: dimensions.model ?? '',
    stage: dimensions.stage ?? '',
    status_code: Number.isInteger(status) && status > 0 && status < 1000 ? status : 0,
    compression_ratio: event.compaction?.compression_ratio ?? null,
    validation_score: event.compaction?.validation_score ?? null,
    occurred_at: event.occurred_at,
  }
}

/**
 * Usage events into ClickHouse, each counted once: event ids already in `usage_raw` are skipped (a replayed batch,
 * a redelivered record), and so are repeats within the batch. The roll-ups follow through materialized views.
 * Events of one instance share a partition key, so one consumer sees every copy of an id, in order.
 */
export function createAnalyticsProjection(clickhouse: ClickhouseStore) {
  return async (events: ConsumedEvent<UsageRecorded>[]): Promise<{ written: number; skipped: number }> => {
    const unique = new Map<string, UsageRecorded>()
    for (const { payload } of events) if (!unique.has(payload.event_id)) unique.set(payload.event_id, payload)
    if (unique.size === 0) return { written: 0, skipped: events.length }
    const known = await clickhouse.query<{ event_id: string }>(
      `SELECT event_id FROM ${clickhouse.database}.${usageTables.raw} WHERE event_id IN {ids:Array(String)}`,
      { ids: [...unique.keys()] },
    )
    for (const { event_id } of known) unique.delete(event_id)
    await clickhouse.insert(
      usageTables.raw,
      [...unique.values()].map((event) => usageRowOf(event)),
    )
    return { written: unique.size, skipped: events.length - unique.size }
  }
}
