import type {
  CreatedWebhook,
  Webhook,
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookRegistered,
  WebhookUpdateRequest,
} from '@memory-service/contracts'
import {
  AppError,
  checkWebhookUrl,
  generateWebhookSecret,
  invalidInput,
  listWebhooks,
  publicDelivery,
  publicWebhook,
  redelivery,
  type SecretBox,
  type UrlPolicy,
  type WebhookEventFactory,
  type WebhookRecord,
} from '@memory-service/domain'
import type { ControlPlane } from '@memory-service/log'
import type { DeliveryStore } from '@memory-service/read-models'

/** Each event once, in the order given (the schema requires at least one). */
const uniqueEvents = (events: readonly WebhookRegistered['events'][number][]) =>
  [...new Set(events)] as WebhookRegistered['events']

export interface WebhookCommandsOptions {
  control: ControlPlane
  events: WebhookEventFactory
  secrets: SecretBox
  urlPolicy: UrlPolicy
  deliveries: DeliveryStore
  generateSecret?: () => string
  now?: () => Date
}

/**
 * Webhook registrations of the caller's instance: every change is an event on the control topic (the source of
 * truth, folded into every process's control read model, where the sender finds them); deliveries are read from
 * the deliveries index. The secret is generated here, sealed into the event and shown in the answer, once.
 */
export function createWebhookCommands(options: WebhookCommandsOptions) {
  const { control, events } = options
  const generateSecret = options.generateSecret ?? (() => generateWebhookSecret())
  const now = options.now ?? (() => new Date())

  function requireUrl(url: string): string {
    const check = checkWebhookUrl(url, options.urlPolicy)
    if (!check.ok) throw invalidInput({ url: check.reason }, 'The webhook URL is not allowed')
    return url
  }

  function find(instanceId: string, webhookId: string): WebhookRecord {
    const webhook = control.state.webhooks.get(webhookId)
    if (webhook?.instance_id !== instanceId)
      throw new AppError('WEBHOOK_NOT_FOUND', 'Webhook not found', { webhook_id: webhookId })
    return webhook
  }

  async function appendOne(event: Parameters<ControlPlane['append']>[0][number], correlationId: string) {
    const [applied] = await control.append([event], correlationId)
    return applied ?? false
  }

  async function findDelivery(webhook: WebhookRecord, deliveryId: string) {
    const stored = /^whd_[0-9a-f]{32}$/.test(deliveryId)
      ? await options.deliveries.get(deliveryId)
      : undefined
    if (stored?.delivery.webhook_id !== webhook.webhook_id)
      throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND', 'Delivery not found', {
        webhook_id: webhook.webhook_id,
        delivery_id: deliveryId,
      })
    return stored
  }

  return {
    async create(
      instanceId: string,
      body: WebhookCreateRequest,
      keyId: string,
      correlationId: string,
    ): Promise<CreatedWebhook> {
      const url = requireUrl(body.url)
      const webhookId = events.newWebhookId()
      const secret = generateSecret()
      const applied = await appendOne(
        events.registered({
          instance_id: instanceId,
          webhook_id: webhookId,
          url,
          events: uniqueEvents(body.events),
          description: body.description ?? null,
          secret_ciphertext: options.secrets.seal(webhookId, secret),
          created_by: keyId,
        }),
        correlationId,
      )
      if (!applied) throw new Error(`webhook ${webhookId} was not registered`)
      return { ...publicWebhook(find(instanceId, webhookId)), secret }
    },

    list(instanceId: string, page: number, pageSize: number): WebhookList {
      return listWebhooks(control.state.webhooks, instanceId, page, pageSize)
    },

    get(instanceId: string, webhookId: string): Webhook {
      return publicWebhook(find(instanceId, webhookId))
    },

    async update(
      instanceId: string,
      webhookId: string,
      body: WebhookUpdateRequest,
      keyId: string,
      correlationId: string,
    ): Promise<Webhook> {
      find(instanceId, webhookId)
      if (Object.keys(body).length === 0) throw invalidInput({ body: 'must change at least one field' })
      await appendOne(
        events.changed({
          instance_id: instanceId,
          webhook_id: webhookId,
          ...(body.url !== undefined ? { url: requireUrl(body.url) } : {}),
          ...(body.events !== undefined ? { events: uniqueEvents(body.events) } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.status !== undefined
            ? {
                status: body.status,
                disabled_reason: body.status === 'disabled' ? `disabled by ${keyId}` : null,
              }
            : {}),
          changed_by: keyId,
        }),
        correlationId,
      )
      return publicWebhook(find(instanceId, webhookId))
    },

    async delete(instanceId: string, webhookId: string, keyId: string, correlationId: string): Promise<void> {
      find(instanceId, webhookId)
      await appendOne(
        events.deleted({ instance_id: instanceId, webhook_id: webhookId, deleted_by: keyId }),
        correlationId,
      )
    },

    async deliveries(
      instanceId: string,
      webhookId: string,
      page: number,
      pageSize: number,
    ): Promise<WebhookDeliveryList> {
      const webhook = find(instanceId, webhookId)
      const { items, total } = await options.deliveries.listOfWebhook(webhook.webhook_id, page, pageSize)
      return {
        items: items.map(publicDelivery),
        page,
        page_size: pageSize,
        total,
        has_more: (page - 1) * pageSize + items.length < total,
      }
    },

    /** Sends a delivery again (a new retry cycle, due now); the webhook must be active. */
    async redeliver(instanceId: string, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
      const webhook = find(instanceId, webhookId)
      const stored = await findDelivery(webhook, deliveryId)
      if (webhook.status !== 'active')
        throw new AppError('WEBHOOK_DISABLED', 'The webhook is disabled; enable it before redelivering', {
          webhook_id: webhookId,
          disabled_reason: webhook.disabled_reason,
        })
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const current = attempt === 0 ? stored : await findDelivery(webhook, deliveryId)
        const written = await options.deliveries.replace(current, redelivery(current.delivery, now()), {
          refresh: true,
        })
        if (written) return publicDelivery(written.delivery)
      }
      throw new AppError('SERVICE_UNAVAILABLE', 'The delivery is being sent; try again', {
        retry_after_seconds: 1,
        reason: 'delivery_busy',
      })
    },
  }
}

export type WebhookCommands = ReturnType<typeof createWebhookCommands>
