import { contextFrom, inSpan, SpanKind, webhookDeliveries, withTraceHeaders } from '@memory-service/engines'
import { Webhook } from 'standardwebhooks'
import {
  abandoned,
  afterAttempt,
  type AttemptResult,
  type DeliveryRecord,
  type WebhookRecord,
  type WebhookRetryPolicy,
} from '@memory-service/domain'
import type { StoredDelivery } from './deliveryStore.js'

/** One POST to a receiver. */
export interface WebhookRequest {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
}

/** Sends one request; never throws: a refusal, a timeout or a reset is an `{error}` result. */
export interface WebhookTransport {
  send(request: WebhookRequest): Promise<AttemptResult>
}

export interface WebhookSenderOptions {
  store: {
    due(now: Date, limit: number): Promise<StoredDelivery[]>
    replace(stored: StoredDelivery, delivery: DeliveryRecord): Promise<StoredDelivery | undefined>
  }
  transport: WebhookTransport
  /** The webhook as the control read model has it now (undefined once deleted). */
  webhookOf(webhookId: string): WebhookRecord | undefined
  /** The webhook's signing secret in plaintext (opened from its sealed form). */
  secretOf(webhook: WebhookRecord): string
  /** Disables a webhook whose delivery failed for the whole window, with the reason. */
  disable(webhook: WebhookRecord, reason: string): Promise<void>
  policy: WebhookRetryPolicy
  /** One attempt's limit (10 s by default). */
  timeoutMs: number
  /** Deliveries in flight at once. */
  concurrency: number
  /** Deliveries in flight at once to one webhook (a quarter of `concurrency` by default), so a slow receiver cannot take every slot. */
  perWebhook?: number
  now: () => Date
  warn?: (details: Record<string, unknown>, message: string) => void
}

export interface WebhookSender {
  /** Claims due deliveries up to the free slots and starts sending them; resolves once they are started. */
  tick(): Promise<number>
  /** Resolves when every send started so far has been recorded. */
  drain(): Promise<void>
  inFlight(): number
  /** Ticks every `intervalMs` until stopped. */
  start(intervalMs: number): void
  stop(): Promise<void>
}

/** Standard Webhooks headers for one attempt: the id stays the same on every attempt, the timestamp is now. */
export function signedHeaders(
  secret: string,
  deliveryId: string,
  body: string,
  at: Date,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'memory-service-webhooks/1',
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(deliveryId, at, body),
  }
}

/**
 * The sender: picks due deliveries, claims each by moving its next attempt past the attempt's timeout (a
 * conditional write, so two senders never send one delivery at once, and a sender that dies mid-send leaves it
 * to be retried after the lease), POSTs it signed, and records the attempt and the next one. At least once: a
 * receiver may see a delivery again (same `webhook-id`) if the result could not be recorded.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const sending = new Map<string, Promise<void>>()
  const perWebhook = options.perWebhook ?? Math.max(1, Math.floor(options.concurrency / 4))
  const sendingTo = new Map<string, number>()
  let timer: NodeJS.Timeout | undefined
  let ticking: Promise<number> | undefined
  let stopped = false
  const warn = options.warn ?? (() => undefined)

  async function record(stored: StoredDelivery, delivery: DeliveryRecord): Promise<void> {
    // A redelivery asked for meanwhile wins: it sends again anyway.
    await options.store.replace(stored, delivery)
  }

  function send(claimed: StoredDelivery): Promise<void> {
    const traceparent = claimed.delivery.traceparent
    return inSpan(
      'webhook deliver',
      {
        kind: SpanKind.CLIENT,
        ...(traceparent ? { parent: contextFrom({ traceparent }) } : {}),
        attributes: {
          'memory_service.role': 'webhooks',
          'memory_service.webhook.event_type': claimed.delivery.event_type,
        },
      },
      () => attempt(claimed),
    )
  }

  async function attempt(claimed: StoredDelivery): Promise<void> {
    const delivery = claimed.delivery
    const webhook = options.webhookOf(delivery.webhook_id)
    if (!webhook) {
      webhookDeliveries.inc({ outcome: 'abandoned' })
      return record(claimed, abandoned(delivery, 'webhook deleted', options.now()))
    }
    if (webhook.status !== 'active') {
      webhookDeliveries.inc({ outcome: 'abandoned' })
      return record(claimed, abandoned(delivery, 'webhook disabled', options.now()))
    }
    let result: AttemptResult
    try {
      const headers = signedHeaders(
        options.secretOf(webhook),
        delivery.delivery_id,
        delivery.payload,
        options.now(),
      )
      withTraceHeaders(headers)
      result = await options.transport.send({
        url: webhook.url,
        headers,
        body: delivery.payload,
        timeoutMs: options.timeoutMs,
      })
    } catch (error) {
      result = { error: error instanceof Error ? error.message : String(error) }
    }
    const outcome = afterAttempt(delivery, result, options.policy, options.now())
    webhookDeliveries.inc({
      outcome:
        outcome.delivery.status === 'succeeded'
          ? 'delivered'
          : outcome.delivery.status === 'pending'
            ? 'failed'
            : 'abandoned',
    })
    await record(claimed, outcome.delivery)
    if (outcome.giveUp) await options.disable(webhook, outcome.giveUp.reason)
  }

  async function tickOnce(): Promise<number> {
    const free = options.concurrency - sending.size
    if (free <= 0) return 0
    const now = options.now()
    const due = await options.store.due(now, options.concurrency * 4)
    let started = 0
    for (const stored of due) {
      if (started >= free) break
      const webhookId = stored.delivery.webhook_id
      if (sending.has(stored.delivery.delivery_id) || (sendingTo.get(webhookId) ?? 0) >= perWebhook) continue
      const lease = new Date(now.getTime() + options.timeoutMs + 30_000).toISOString()
      const claimed = await options.store.replace(stored, { ...stored.delivery, next_attempt_at: lease })
      if (!claimed) continue // another sender has it
      const id = stored.delivery.delivery_id
      sendingTo.set(webhookId, (sendingTo.get(webhookId) ?? 0) + 1)
      const done = send(claimed)
        .catch((error: unknown) => warn({ err: error, delivery_id: id }, 'webhook delivery not recorded'))
        .finally(() => {
          sending.delete(id)
          const left = (sendingTo.get(webhookId) ?? 1) - 1
          if (left > 0) sendingTo.set(webhookId, left)
          else sendingTo.delete(webhookId)
        })
      sending.set(id, done)
      started += 1
    }
    return started
  }

  const sender: WebhookSender = {
    tick() {
      ticking ??= tickOnce().finally(() => (ticking = undefined))
      return ticking
    },
    async drain() {
      while (sending.size > 0) await Promise.all([...sending.values()])
    },
    inFlight: () => sending.size,
    start(intervalMs) {
      const loop = () => {
        if (stopped) return
        sender
          .tick()
          .catch((error: unknown) => warn({ err: error }, 'webhook sender could not read due deliveries'))
          .finally(() => {
            if (!stopped) timer = setTimeout(loop, intervalMs).unref()
          })
      }
      loop()
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await ticking?.catch(() => 0)
      await sender.drain()
    },
  }
  return sender
}
