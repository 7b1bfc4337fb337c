import { createHash } from 'node:crypto'
import type {
  ConfigRebuildChanged,
  ConfigVersionApplied,
  IngestionJobChanged,
  WebhookDelivery as PublicDelivery,
} from '@memory-service/contracts'
import { nextAttemptAt, type WebhookRetryPolicy } from './retrySchedule.js'
import type { WebhookEventType, WebhookRecord } from './webhookRegistry.js'

/** Something that happened that webhooks may be told about, read from one event of the log. */
export interface WebhookNotice {
  /** Identifies the source event: with the webhook id it makes the delivery id, so a replay creates nothing new. */
  source_id: string
  instance_id: string
  type: WebhookEventType
  occurred_at: string
  data: Record<string, unknown>
}

const terminalJobTypes: Partial<Record<IngestionJobChanged['status'], WebhookEventType>> = {
  completed: 'ingestion.completed',
  failed: 'ingestion.failed',
  partial_success: 'ingestion.partial_success',
}

/** A job transition to a terminal status (mem.ingestion-jobs.v1); queued and processing tell no webhook. */
export function noticeOfJobChange(event: IngestionJobChanged): WebhookNotice | undefined {
  const type = terminalJobTypes[event.status]
  if (!type) return undefined
  return {
    source_id: `job:${event.ingestion_id}:${event.version}`,
    instance_id: event.instance_id,
    type,
    occurred_at: event.changed_at,
    data: {
      instance_id: event.instance_id,
      ingestion_id: event.ingestion_id,
      status: event.status,
      document_type: event.document_type,
      mode: event.mode,
      user_id: event.user_id,
      customer_id: event.customer_id,
      memory_ids: event.memory_ids,
      errors: event.errors,
      ...(event.reason ? { reason: event.reason } : {}),
      finished_at: event.changed_at,
    },
  }
}

/** A configuration version applied, or the rebuild its apply started finished (mem.control.v1). */
export function noticeOfControlEvent(event: { type: string }): WebhookNotice | undefined {
  if (event.type === 'config_version_applied') {
    const applied = event as ConfigVersionApplied
    return {
      source_id: `control:${applied.event_id}`,
      instance_id: applied.instance_id,
      type: 'configuration.applied',
      occurred_at: applied.occurred_at,
      data: {
        instance_id: applied.instance_id,
        config_id: applied.config_id,
        applied_by: applied.applied_by,
        applied_at: applied.occurred_at,
      },
    }
  }
  if (event.type === 'config_rebuild_changed') {
    const rebuild = event as ConfigRebuildChanged
    // One projection done is progress; the rebuild is finished by the event without a projection.
    if (rebuild.status === 'running' || rebuild.projection !== undefined) return undefined
    return {
      // One finish per rebuild, even when two runners both report it.
      source_id: `rebuild:${rebuild.instance_id}:${rebuild.config_id}`,
      instance_id: rebuild.instance_id,
      type: 'rebuild.finished',
      occurred_at: rebuild.occurred_at,
      data: {
        instance_id: rebuild.instance_id,
        config_id: rebuild.config_id,
        status: rebuild.status,
        ...(rebuild.error !== undefined ? { error: rebuild.error } : {}),
        finished_at: rebuild.occurred_at,
      },
    }
  }
  return undefined
}

/**
 * The webhooks a notice goes to: active ones of its instance that subscribe to its type and existed when it
 * happened (a webhook is never told about what happened before it was registered, so a replay of old events
 * sends nothing to a new webhook).
 */
export function subscribersOf(webhooks: Iterable<WebhookRecord>, notice: WebhookNotice): WebhookRecord[] {
  return [...webhooks].filter(
    (webhook) =>
      webhook.instance_id === notice.instance_id &&
      webhook.status === 'active' &&
      webhook.events.includes(notice.type) &&
      webhook.created_at <= notice.occurred_at,
  )
}

/** `whd_` + 32 hex derived from (webhook, source event): one delivery per pair, whoever creates it first. */
export function deliveryIdOf(webhookId: string, sourceId: string): string {
  return `whd_${createHash('sha256').update(`${webhookId}\n${sourceId}`).digest('hex').slice(0, 32)}`
}

/** The body sent, the Standard Webhooks shape `{type, timestamp, data}`; the same bytes on every attempt. */
export function deliveryBody(notice: WebhookNotice): string {
  return JSON.stringify({ type: notice.type, timestamp: notice.occurred_at, data: notice.data })
}

export type DeliveryStatus = PublicDelivery['status']

/** A delivery as the deliveries index keeps it. */
export interface DeliveryRecord {
  delivery_id: string
  webhook_id: string
  instance_id: string
  event_type: WebhookEventType
  source_id: string
  /** The JSON body, exactly as sent. */
  payload: string
  status: DeliveryStatus
  /** Attempts made, in all. */
  attempts: number
  /** Attempts since the cycle started (the first attempt, or the last redelivery). */
  cycle_attempts: number
  cycle_started_at: string
  next_attempt_at: string | null
  last_attempt_at: string | null
  last_status_code: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  /** The W3C trace context of the event that caused it, when traced: its attempts continue that trace. */
  traceparent?: string
}

export function newDelivery(
  webhook: WebhookRecord,
  notice: WebhookNotice,
  now: Date,
  traceparent?: string,
): DeliveryRecord {
  const at = now.toISOString()
  return {
    ...(traceparent ? { traceparent } : {}),
    delivery_id: deliveryIdOf(webhook.webhook_id, notice.source_id),
    webhook_id: webhook.webhook_id,
    instance_id: webhook.instance_id,
    event_type: notice.type,
    source_id: notice.source_id,
    payload: deliveryBody(notice),
    status: 'pending',
    attempts: 0,
    cycle_attempts: 0,
    cycle_started_at: at,
    next_attempt_at: at,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    created_at: at,
    updated_at: at,
  }
}

export function publicDelivery(record: DeliveryRecord): PublicDelivery {
  return {
    delivery_id: record.delivery_id,
    webhook_id: record.webhook_id,
    event_type: record.event_type,
    status: record.status,
    attempts: record.attempts,
    last_status_code: record.last_status_code,
    last_error: record.last_error,
    next_attempt_at: record.status === 'pending' ? record.next_attempt_at : null,
    last_attempt_at: record.last_attempt_at,
    created_at: record.created_at,
  }
}

/** What one attempt got: an HTTP status, or an error before any answer (refused address, timeout, reset). */
export type AttemptResult = { statusCode: number } | { error: string }

const maxErrorLength = 500

/**
 * The delivery after an attempt: 2xx succeeded; anything else (3xx included: redirects are not followed, 4xx, 5xx,
 * no answer) is retried on the schedule, or fails once the next try would be past the window; `giveUp` then says
 * the webhook is to be disabled with `reason`.
 */
export function afterAttempt(
  delivery: DeliveryRecord,
  result: AttemptResult,
  policy: WebhookRetryPolicy,
  now: Date,
): { delivery: DeliveryRecord; giveUp?: { reason: string } } {
  const at = now.toISOString()
  const statusCode = 'statusCode' in result ? result.statusCode : null
  const attempted = {
    ...delivery,
    attempts: delivery.attempts + 1,
    cycle_attempts: delivery.cycle_attempts + 1,
    last_attempt_at: at,
    last_status_code: statusCode,
    updated_at: at,
  }
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    return { delivery: { ...attempted, status: 'succeeded', next_attempt_at: null, last_error: null } }
  }
  const error = (
    'error' in result
      ? result.error
      : statusCode !== null && statusCode >= 300 && statusCode < 400
        ? `HTTP ${statusCode}: redirects are not followed`
        : `HTTP ${statusCode}`
  ).slice(0, maxErrorLength)
  const next = nextAttemptAt(policy, attempted.cycle_attempts, new Date(delivery.cycle_started_at), now)
  if (next) {
    return {
      delivery: { ...attempted, status: 'pending', next_attempt_at: next.toISOString(), last_error: error },
    }
  }
  return {
    delivery: { ...attempted, status: 'failed', next_attempt_at: null, last_error: error },
    giveUp: {
      reason: `delivery ${delivery.delivery_id} failed for the whole retry window (${attempted.cycle_attempts} attempts); last error: ${error}`,
    },
  }
}

/** A delivery that stops because its webhook was deleted or disabled meanwhile. */
export function abandoned(delivery: DeliveryRecord, why: string, now: Date): DeliveryRecord {
  const at = now.toISOString()
  return { ...delivery, status: 'failed', next_attempt_at: null, last_error: why, updated_at: at }
}

/** A delivery sent again on request: a new cycle, due now. */
export function redelivery(delivery: DeliveryRecord, now: Date): DeliveryRecord {
  const at = now.toISOString()
  return {
    ...delivery,
    status: 'pending',
    cycle_attempts: 0,
    cycle_started_at: at,
    next_attempt_at: at,
    updated_at: at,
  }
}
