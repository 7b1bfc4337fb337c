import type { IngestionJobChanged } from '@memory-service/contracts'
import {
  CONTROL_TOPIC,
  createWebhookEventFactory,
  INGESTION_JOBS_TOPIC,
  serviceConsumerGroups,
  type ControlEvent,
} from '@memory-service/domain'
import type { Engines, Logger } from '@memory-service/engines'
import { createEventConsumer, type ControlPlane } from '@memory-service/log'
import {
  createDeliveryStore,
  createHttpTransport,
  createWebhookDispatch,
  createWebhookSender,
  type WebhookSettings,
  type WebhookTransport,
} from '@memory-service/read-models'

/**
 * Webhooks in the projectors process: the dispatcher (its own consumer group over the job transitions and the
 * control topic) turns terminal jobs, applied configurations and finished rebuilds into deliveries; the sender,
 * apart from it and from the pipeline, sends them with bounded concurrency. A dead receiver slows neither.
 */
export async function startWebhooks(options: {
  engines: Engines
  control: ControlPlane
  settings: WebhookSettings
  logger: Logger
  groupPrefix?: string
  transport?: WebhookTransport
}): Promise<{ close(): Promise<void> }> {
  const { engines, control, settings } = options
  const logger = options.logger.child({ component: 'webhooks' })
  const store = createDeliveryStore(engines.elasticsearch)
  const dispatch = createWebhookDispatch({
    webhooks: () => control.state.webhooks.values(),
    store,
    // This process's control read model follows the same topic: wait until it has read the event, then deliver
    // only what it accepted. Throwing makes the consumer retry the batch (deliveries are created once anyway).
    async accepted(event, offset) {
      for (let waited = 0; waited < 15_000; waited += 25) {
        const outcome = control.outcomeOf(event.event_id, offset)
        if (outcome !== undefined) return outcome
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      throw new Error(`the control read model has not read ${event.event_id} yet`)
    },
  })
  // A new group starts at the end of the topics: webhooks are told about what happens from now on (a webhook is
  // never told about what happened before it was registered anyway).
  const consumer = await createEventConsumer<IngestionJobChanged | ControlEvent>({
    kafka: engines.kafka,
    codec: engines.schemaCodec,
    logger,
    groupId: `${options.groupPrefix ?? ''}${serviceConsumerGroups.webhooks}`,
    topics: [INGESTION_JOBS_TOPIC, CONTROL_TOPIC],
    fromBeginning: false,
    handleBatch: async (events, log) => {
      const { notices, created } = await dispatch(events)
      if (notices > 0) log.debug({ notices, created }, 'webhook deliveries created')
    },
  })
  const events = createWebhookEventFactory()
  const sender = createWebhookSender({
    store,
    transport: options.transport ?? createHttpTransport(settings.urlPolicy),
    webhookOf: (id) => control.state.webhooks.get(id),
    secretOf: (webhook) => settings.secrets.open(webhook.webhook_id, webhook.secret_ciphertext),
    async disable(webhook, reason) {
      logger.warn({ webhook_id: webhook.webhook_id, reason }, 'webhook disabled')
      await control.append(
        [
          events.changed({
            instance_id: webhook.instance_id,
            webhook_id: webhook.webhook_id,
            status: 'disabled',
            disabled_reason: reason,
            changed_by: 'system',
          }),
        ],
        `webhook-sender-${webhook.webhook_id}`,
      )
    },
    policy: settings.retry,
    timeoutMs: settings.timeoutMs,
    concurrency: settings.concurrency,
    now: () => new Date(),
    warn: (details, message) => logger.warn(details, message),
  })
  sender.start(settings.pollIntervalMs)
  logger.info(
    {
      concurrency: settings.concurrency,
      retry_ms: settings.retry.delaysMs,
      window_ms: settings.retry.windowMs,
    },
    'webhook dispatcher and sender ready',
  )
  return {
    async close() {
      await Promise.allSettled([sender.stop(), consumer.close()])
    },
  }
}
