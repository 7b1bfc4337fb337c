import type { Client } from '@elastic/elasticsearch'
import { pageWindow, sourcesOf, totalHitsOf } from '@memory-service/engines'
import { WEBHOOK_DELIVERIES_INDEX, type DeliveryRecord } from '@memory-service/domain'

/** A delivery as read, with what a conditional write needs (Elasticsearch's sequence number and primary term). */
export interface StoredDelivery {
  delivery: DeliveryRecord
  seqNo: number
  primaryTerm: number
}

/**
 * The deliveries read model (`mem-webhook-deliveries-v1`): created once per (webhook, source event) with
 * op_type=create (the first writer wins, so a replay or two consumers create one delivery), then changed only by
 * conditional writes (if_seq_no), so a sender's claim, its result and a redelivery never overwrite each other.
 */
export interface DeliveryStore {
  /** Creates the deliveries that do not exist yet; returns how many were new. */
  createMany(deliveries: DeliveryRecord[]): Promise<number>
  get(deliveryId: string): Promise<StoredDelivery | undefined>
  /** A webhook's deliveries, newest first. */
  listOfWebhook(
    webhookId: string,
    page: number,
    pageSize: number,
  ): Promise<{ items: DeliveryRecord[]; total: number }>
  /** Pending deliveries due at `now`, the most overdue first. */
  due(now: Date, limit: number): Promise<StoredDelivery[]>
  /** Writes `delivery` if the stored one is still the one read; the new version, or undefined if it changed. */
  replace(
    stored: StoredDelivery,
    delivery: DeliveryRecord,
    options?: { refresh?: boolean },
  ): Promise<StoredDelivery | undefined>
}

function isConflict(error: unknown): boolean {
  return (error as { meta?: { statusCode?: number } }).meta?.statusCode === 409
}

export function createDeliveryStore(client: Client, index = WEBHOOK_DELIVERIES_INDEX): DeliveryStore {
  return {
    async createMany(deliveries) {
      if (deliveries.length === 0) return 0
      const response = await client.bulk({
        operations: deliveries.flatMap((delivery) => [
          { create: { _index: index, _id: delivery.delivery_id } },
          delivery,
        ]),
      })
      let created = 0
      const failures: string[] = []
      for (const item of response.items) {
        const error = item.create?.error
        if (!error) created += 1
        else if (error.type !== 'version_conflict_engine_exception')
          failures.push(`${item.create?._id ?? '?'}: ${error.type} ${error.reason ?? ''}`)
      }
      if (failures.length > 0) throw new Error(`Creating webhook deliveries failed: ${failures.join('; ')}`)
      return created
    },
    async get(deliveryId) {
      const response = await client.get<DeliveryRecord>({ index, id: deliveryId }, { ignore: [404] })
      if (!response.found || !response._source) return undefined
      return {
        delivery: response._source,
        seqNo: response._seq_no ?? 0,
        primaryTerm: response._primary_term ?? 0,
      }
    },
    async listOfWebhook(webhookId, page, pageSize) {
      const response = await client.search<DeliveryRecord>({
        index,
        query: { term: { webhook_id: webhookId } },
        sort: [{ created_at: 'desc' }, { delivery_id: 'asc' }],
        ...pageWindow(page, pageSize),
        track_total_hits: true,
      })
      return { items: sourcesOf(response.hits.hits), total: totalHitsOf(response.hits.total) }
    },
    async due(now, limit) {
      const response = await client.search<DeliveryRecord>({
        index,
        query: {
          bool: {
            filter: [
              { term: { status: 'pending' } },
              { range: { next_attempt_at: { lte: now.toISOString() } } },
            ],
          },
        },
        sort: [{ next_attempt_at: 'asc' }],
        size: limit,
        seq_no_primary_term: true,
      })
      return response.hits.hits.flatMap((hit) =>
        hit._source
          ? [{ delivery: hit._source, seqNo: hit._seq_no ?? 0, primaryTerm: hit._primary_term ?? 0 }]
          : [],
      )
    },
    async replace(stored, delivery, options) {
      try {
        const response = await client.index({
          index,
          id: delivery.delivery_id,
          document: delivery,
          if_seq_no: stored.seqNo,
          if_primary_term: stored.primaryTerm,
          refresh: options?.refresh ?? false,
        })
        return { delivery, seqNo: response._seq_no ?? 0, primaryTerm: response._primary_term ?? 0 }
      } catch (error) {
        if (isConflict(error)) return undefined
        throw error
      }
    },
  }
}
