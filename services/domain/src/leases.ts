/**
 * Leases, the pure part: a name held by one holder until it expires, renewed while the holder works. Whoever finds
 * a lease expired may take it (its holder died, or stopped renewing); nobody else may.
 */
export interface Lease {
  name: string
  holder: string
  acquired_at: string
  expires_at: string
}

export type LeaseVerdict = 'free' | 'ours' | 'expired' | 'held'

/** What a would-be holder may do with the lease found under a name (null: none). */
export function judgeLease(found: Lease | null, holder: string, nowMs: number): LeaseVerdict {
  if (!found) return 'free'
  if (found.holder === holder) return 'ours'
  return Date.parse(found.expires_at) <= nowMs ? 'expired' : 'held'
}

/** The lease `holder` writes when it takes or renews `name` at `nowMs`. */
export function leaseFor(
  name: string,
  holder: string,
  nowMs: number,
  ttlMs: number,
  acquiredAt?: string,
): Lease {
  return {
    name,
    holder,
    acquired_at: acquiredAt ?? new Date(nowMs).toISOString(),
    expires_at: new Date(nowMs + ttlMs).toISOString(),
  }
}
