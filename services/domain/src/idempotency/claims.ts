import { storeIdOf } from '../externalIds.js'
/**
 * Idempotency claims, the pure part. A claim records that one request took a client-supplied id (an event_id, a
 * document_id) within an instance. It is written before the event is appended to Kafka (`pending`) and marked
 * `appended` after Kafka acknowledged it.
 */
export type ClaimKind = 'event' | 'document' | 'transcript' | 'compaction'

export interface Claim {
  instance_id: string
  kind: ClaimKind
  client_id: string
  state: 'pending' | 'appended'
  /** The gateway process that holds a pending claim. */
  owner: string
  claimed_at: string
  /** What the claimed id became: the stored event id, or the ingestion id of a document. */
  record_id: string
}

export type ExistingClaimVerdict = 'duplicate' | 'in_flight' | 'abandoned'

/**
 * What a second request for a claimed id gets. An appended claim is a duplicate. A pending claim is in flight (also
 * answered as a duplicate: the first request is still writing it) unless its lease ran out, which means its gateway
 * died between claiming and appending; then the new request may take it over and append.
 */
export function judgeExistingClaim(claim: Claim, nowMs: number, leaseMs: number): ExistingClaimVerdict {
  if (claim.state === 'appended') return 'duplicate'
  return nowMs - Date.parse(claim.claimed_at) > leaseMs ? 'abandoned' : 'in_flight'
}

/** The claim's document id; a client id (a conversation id, a document id) of any length fits Elasticsearch's limit. */
export function claimDocumentId(claim: Pick<Claim, 'instance_id' | 'kind' | 'client_id'>): string {
  return storeIdOf(claim.instance_id, `${claim.kind}:${claim.client_id}`)
}
