import { createHash } from 'node:crypto'
import type { UsageRecorded } from '@memory-service/contracts'
import { readContractSchema } from '@memory-service/contracts/files'
import type { OutgoingEvent } from '../events/outgoingEvent.js'
import { USAGE_TOPIC } from '../topology.js'

export const USAGE_SUBJECT = `${USAGE_TOPIC}-value`
export const usageRecordedSchema = readContractSchema('events/UsageRecorded.v1.schema.json')

export type UsageMetric = UsageRecorded['metric']
export type UsageDimensions = UsageRecorded['dimensions']

/**
 * One usage measurement as an event. The id is derived from what was measured (`measuredBy`, e.g. the ingestion
 * id and stage), not random: a worker that redoes the same work after a crash emits the same id, and the analytics
 * projection counts it once.
 */
export function usageEvent(
  measurement: {
    instanceId: string
    metric: UsageMetric
    value: number
    measuredBy: string
    occurredAt: string
    latencyMs?: number
    dimensions?: UsageDimensions
    compaction?: UsageRecorded['compaction']
  },
  correlationId: string,
): OutgoingEvent {
  const payload: UsageRecorded = {
    type: 'usage_recorded',
    event_id: createHash('sha256')
      .update(`${measurement.instanceId}\u0000${measurement.metric}\u0000${measurement.measuredBy}`)
      .digest('hex')
      .slice(0, 32),
    instance_id: measurement.instanceId,
    metric: measurement.metric,
    value: measurement.value,
    latency_ms: measurement.latencyMs ?? null,
    occurred_at: measurement.occurredAt,
    dimensions: measurement.dimensions ?? {},
    ...(measurement.compaction ? { compaction: measurement.compaction } : {}),
  }
  return { key: measurement.instanceId, subject: USAGE_SUBJECT, payload, correlationId }
}
