import type { Client } from '@elastic/elasticsearch'
import type { UserErasureReceipt } from '@memory-service/contracts'
import { ERASURE_RECEIPTS_INDEX } from '@memory-service/domain'

/** What the user held when the erasure was asked for: the persistence writer may remove their turns before the job counts them. */
export interface ErasureFound {
  turns: number
  conversations: number
}

export interface ErasureRecord {
  receipt: UserErasureReceipt
  found: ErasureFound
}

/**
 * User erasures by receipt id (the id of their UserDataErased event): written running by the request, moved to
 * completed by the erasure job. Not a projection: the record that an erasure was asked for and what it removed.
 */
export function createErasureReceipts(client: Client, index: string = ERASURE_RECEIPTS_INDEX) {
  return {
    /** Read back by id (real time in Elasticsearch): no refresh is waited for. */
    async save(record: ErasureRecord): Promise<void> {
      const { receipt } = record
      await client.index({
        index,
        id: receipt.receipt_id,
        document: {
          receipt_id: receipt.receipt_id,
          instance_id: receipt.instance_id,
          user_id: receipt.user_id,
          status: receipt.status,
          erased_at: receipt.erased_at,
          completed_at: receipt.completed_at,
          receipt,
          found: record.found,
        },
      })
    },

    /** The instance's erasure, or null (another instance's is not found either). */
    async get(instanceId: string, receiptId: string): Promise<ErasureRecord | null> {
      const response = await client.get<{ instance_id: string } & ErasureRecord>(
        { index, id: receiptId },
        { ignore: [404] },
      )
      const source = response.found ? response._source : undefined
      if (!source || source.instance_id !== instanceId) return null
      return { receipt: source.receipt, found: source.found }
    },
  }
}

export type ErasureReceipts = ReturnType<typeof createErasureReceipts>
