import type { Webhook, WebhookChanged, WebhookDeleted, WebhookRegistered } from '@memory-service/contracts'

export type WebhookEvent = WebhookRegistered | WebhookChanged | WebhookDeleted
export type WebhookEventType = WebhookRegistered['events'][number]

/** The events a webhook can subscribe to. */
export const webhookEventTypes: readonly WebhookEventType[] = [
  'ingestion.completed',
  'ingestion.failed',
  'ingestion.partial_success',
  'configuration.applied',
  'rebuild.finished',
]

/** A webhook as the control read model keeps it: the public fields, its instance and its sealed secret. */
export interface WebhookRecord extends Webhook {
  instance_id: string
  secret_ciphertext: string
}

export type WebhookApplyOutcome = { applied: true } | { applied: false; reason: string }

/** Folds one webhook event into the registry, in log order; an event for an unknown webhook changes nothing. */
export function applyWebhookEvent(
  webhooks: Map<string, WebhookRecord>,
  event: WebhookEvent,
): WebhookApplyOutcome {
  switch (event.type) {
    case 'webhook_registered': {
      if (webhooks.has(event.webhook_id)) return { applied: false, reason: 'webhook exists' }
      webhooks.set(event.webhook_id, {
        webhook_id: event.webhook_id,
        instance_id: event.instance_id,
        url: event.url,
        events: [...event.events],
        description: event.description,
        status: 'active',
        disabled_reason: null,
        secret_ciphertext: event.secret_ciphertext,
        created_at: event.occurred_at,
        updated_at: event.occurred_at,
      })
      return { applied: true }
    }
    case 'webhook_changed': {
      const webhook = webhooks.get(event.webhook_id)
      if (webhook?.instance_id !== event.instance_id) return { applied: false, reason: 'unknown webhook' }
      if (event.url !== undefined) webhook.url = event.url
      if (event.events !== undefined) webhook.events = [...event.events]
      if (event.description !== undefined) webhook.description = event.description
      if (event.status !== undefined) {
        webhook.status = event.status
        webhook.disabled_reason = event.status === 'disabled' ? (event.disabled_reason ?? null) : null
      }
      webhook.updated_at = event.occurred_at
      return { applied: true }
    }
    case 'webhook_deleted': {
      const webhook = webhooks.get(event.webhook_id)
      if (webhook?.instance_id !== event.instance_id) return { applied: false, reason: 'unknown webhook' }
      webhooks.delete(event.webhook_id)
      return { applied: true }
    }
  }
}

/** The public view of a webhook (never its secret). */
export function publicWebhook(record: WebhookRecord): Webhook {
  return {
    webhook_id: record.webhook_id,
    url: record.url,
    events: [...record.events],
    description: record.description,
    status: record.status,
    disabled_reason: record.disabled_reason,
    created_at: record.created_at,
    updated_at: record.updated_at,
  }
}

/** An instance's webhooks, oldest first, one page. */
export function listWebhooks(
  webhooks: Map<string, WebhookRecord>,
  instanceId: string,
  page: number,
  pageSize: number,
): { items: Webhook[]; page: number; page_size: number; total: number; has_more: boolean } {
  const all = [...webhooks.values()]
    .filter((webhook) => webhook.instance_id === instanceId)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.webhook_id.localeCompare(b.webhook_id))
  const start = (page - 1) * pageSize
  const items = all.slice(start, start + pageSize).map(publicWebhook)
  return { items, page, page_size: pageSize, total: all.length, has_more: start + items.length < all.length }
}
