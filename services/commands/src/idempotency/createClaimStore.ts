import type { Client } from '@elastic/elasticsearch'
import { AppError, claimDocumentId, judgeExistingClaim, type Claim } from '@memory-service/domain'

export type ClaimRequest = Pick<Claim, 'instance_id' | 'kind' | 'client_id' | 'record_id'>

export type ClaimOutcome =
  { outcome: 'claimed'; claim: Claim } | { outcome: 'duplicate'; claim: Claim; inFlight: boolean }

export interface ClaimStore {
  /**
   * Claims every id at once; for each, either this request won it or it was taken before.
   * @throws AppError SERVICE_UNAVAILABLE when Elasticsearch cannot be reached (nothing was claimed)
   */
  claim(requests: ClaimRequest[]): Promise<ClaimOutcome[]>
  /** Marks claims whose events Kafka acknowledged. */
  confirm(claims: Claim[]): Promise<void>
  /** Gives ids back after their append failed, so a retry can claim them. */
  release(claims: Claim[]): Promise<void>
}

export interface ClaimStoreOptions {
  index: string
  /** Identifies this process in pending claims. */
  owner: string
  /** A pending claim older than this is taken over: its gateway died before appending. @default 30000 */
  leaseMs?: number
  now?: () => number
}

/**
 * Claims in Elasticsearch: a document per id, created with `op_type: create`, which the primary shard accepts
 * exactly once whatever the number of gateways racing for it. Reads by id are real-time, so no refresh is needed,
 * and each batch costs one bulk request (plus one multi-get when some ids were taken).
 */
export function createClaimStore(client: Client, options: ClaimStoreOptions): ClaimStore {
  const leaseMs = options.leaseMs ?? 30_000
  const now = options.now ?? Date.now

  async function takeOver(id: string, claim: Claim, seqNo: number, primaryTerm: number): Promise<boolean> {
    try {
      await client.index({
        index: options.index,
        id,
        document: claim,
        if_seq_no: seqNo,
        if_primary_term: primaryTerm,
      })
      return true
    } catch (error) {
      if ((error as { meta?: { statusCode?: number } }).meta?.statusCode === 409) return false
      throw error
    }
  }

  async function claimAll(requests: ClaimRequest[]): Promise<ClaimOutcome[]> {
    if (requests.length === 0) return []
    const claimedAt = new Date(now()).toISOString()
    const claims: Claim[] = requests.map((request) => ({
      ...request,
      state: 'pending',
      owner: options.owner,
      claimed_at: claimedAt,
    }))
    const response = await client.bulk({
      operations: claims.flatMap((claim) => [
        { create: { _index: options.index, _id: claimDocumentId(claim) } },
        claim,
      ]),
    })
    const outcomes: (ClaimOutcome | undefined)[] = []
    const taken: number[] = []
    response.items.forEach((item, index) => {
      const claim = claims[index]
      if (!claim) return
      if (!item.create?.error) outcomes[index] = { outcome: 'claimed', claim }
      else if (item.create.status === 409) taken.push(index)
      else
        throw new Error(
          `claim of ${claimDocumentId(claim)} failed: ${item.create.error.type} ${item.create.error.reason ?? ''}`,
        )
    })
    if (taken.length > 0) {
      const ids = taken.map((index) => claimDocumentId(claims[index] as Claim))
      const existing = await client.mget<Claim>({ index: options.index, ids })
      for (const [position, index] of taken.entries()) {
        const doc = existing.docs[position]
        const claim = claims[index] as Claim
        const found = doc && 'found' in doc && doc.found ? doc : undefined
        if (!found?._source) {
          // Released between our create and our read: a later retry will claim it.
          outcomes[index] = { outcome: 'duplicate', claim, inFlight: true }
          continue
        }
        const verdict = judgeExistingClaim(found._source, now(), leaseMs)
        if (
          verdict === 'abandoned' &&
          (await takeOver(found._id, claim, found._seq_no ?? 0, found._primary_term ?? 0))
        ) {
          outcomes[index] = { outcome: 'claimed', claim }
        } else {
          outcomes[index] = {
            outcome: 'duplicate',
            claim: found._source,
            inFlight: verdict !== 'duplicate',
          }
        }
      }
    }
    return outcomes.map((outcome) => {
      if (!outcome) throw new Error('claim outcome missing')
      return outcome
    })
  }

  return {
    async claim(requests) {
      try {
        return await claimAll(requests)
      } catch (error) {
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'The idempotency store is unavailable; nothing was written',
          { retry_after_seconds: 5, reason: 'idempotency_store_unavailable' },
          { cause: error },
        )
      }
    },
    async confirm(claims) {
      if (claims.length === 0) return
      await client.bulk({
        operations: claims.flatMap((claim) => [
          { update: { _index: options.index, _id: claimDocumentId(claim) } },
          { doc: { state: 'appended' } },
        ]),
      })
    },
    async release(claims) {
      if (claims.length === 0) return
      await client.bulk({
        operations: claims.map((claim) => ({
          delete: { _index: options.index, _id: claimDocumentId(claim) },
        })),
      })
    },
  }
}
