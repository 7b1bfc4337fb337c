import type { MemoryClient } from '@memory-service/client'
import type { UserErasureReceipt } from '@memory-service/contracts'
import { eventually } from './testEngines.js'

/**
 * Erases the user and waits for the erasure job: the receipt once `completed`. The request's own answer is checked
 * to be the same erasure, `running` or already done.
 */
export async function completedErasure(
  client: Pick<MemoryClient, 'users'>,
  userId: string,
): Promise<UserErasureReceipt> {
  const accepted = await client.users.erase(userId)
  if (accepted.user_id !== userId || accepted.receipt_id !== accepted.log.erasure_event_id)
    throw new Error(`not this user's erasure: ${JSON.stringify(accepted)}`)
  return eventually(async () => {
    const receipt = await client.users.erasure(userId, accepted.receipt_id)
    return receipt.status === 'completed' ? receipt : undefined
  }, 60_000)
}
