import type { IngestionJobChanged } from '@memory-service/contracts'
import {
  newDelivery,
  noticeOfControlEvent,
  noticeOfJobChange,
  subscribersOf,
  type ControlEvent,
  type DeliveryRecord,
  type WebhookNotice,
  type WebhookRecord,
} from '@memory-service/domain'

/**
 * The webhook dispatcher's projection: reads job transitions (mem.ingestion-jobs.v1) and configuration events
 * (mem.control.v1) in a consumer group of its own and creates one delivery per subscribed webhook in the
 * deliveries index. It never sends: the sender does, apart, so a slow receiver holds back neither this consumer
 * nor the pipeline. A replay creates nothing new (delivery ids derive from webhook and source event).
 */
export function createWebhookDispatch(options: {
  /** The registered webhooks (the control read model). */
  webhooks(): Iterable<WebhookRecord>
  store: { createMany(deliveries: DeliveryRecord[]): Promise<number> }
  /**
   * Whether the control read model accepted a control event (configuration applied, rebuild finished): a report
   * it refused (a runner that does not own the rebuild, say) tells no webhook. Without it every event counts.
   */
  accepted?: (event: ControlEvent, offset: string) => Promise<boolean>
  now?: () => Date
}) {
  const now = options.now ?? (() => new Date())
  return async (
    events: {
      payload: IngestionJobChanged | ControlEvent
      offset: string
      headers?: Record<string, string>
    }[],
  ): Promise<{ notices: number; created: number }> => {
    const notices: (WebhookNotice & { traceparent?: string })[] = []
    for (const { payload, offset, headers } of events) {
      const traceparent = headers?.traceparent
      if (payload.type === 'ingestion_job_changed') {
        const notice = noticeOfJobChange(payload)
        if (notice) notices.push({ ...notice, ...(traceparent ? { traceparent } : {}) })
        continue
      }
      const notice = noticeOfControlEvent(payload)
      if (notice && (!options.accepted || (await options.accepted(payload, offset))))
        notices.push({ ...notice, ...(traceparent ? { traceparent } : {}) })
    }
    if (notices.length === 0) return { notices: 0, created: 0 }
    const webhooks = [...options.webhooks()]
    const at = now()
    const deliveries = notices.flatMap((notice) =>
      subscribersOf(webhooks, notice).map((webhook) => newDelivery(webhook, notice, at, notice.traceparent)),
    )
    return { notices: notices.length, created: await options.store.createMany(deliveries) }
  }
}
