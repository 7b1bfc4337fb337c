import { randomBytes } from 'node:crypto'
import type { WebhookChanged, WebhookDeleted, WebhookRegistered } from '@memory-service/contracts'

/** Builds webhook control events; ids and clock are injected so tests are deterministic. */
export function createWebhookEventFactory(
  options: { now?: () => Date; random?: (size: number) => Buffer } = {},
) {
  const now = options.now ?? (() => new Date())
  const random = options.random ?? randomBytes
  const envelope = () => ({ event_id: `evt_${random(16).toString('hex')}`, occurred_at: now().toISOString() })
  return {
    newWebhookId: () => `wh_${random(8).toString('hex')}`,
    registered(input: Omit<WebhookRegistered, 'type' | 'event_id' | 'occurred_at'>): WebhookRegistered {
      return { type: 'webhook_registered', ...envelope(), ...input }
    },
    changed(input: Omit<WebhookChanged, 'type' | 'event_id' | 'occurred_at'>): WebhookChanged {
      return { type: 'webhook_changed', ...envelope(), ...input }
    },
    deleted(input: Omit<WebhookDeleted, 'type' | 'event_id' | 'occurred_at'>): WebhookDeleted {
      return { type: 'webhook_deleted', ...envelope(), ...input }
    },
  }
}

export type WebhookEventFactory = ReturnType<typeof createWebhookEventFactory>
