import { takeToken, type Bucket, type RateDecision, type RateLimit } from '@memory-service/domain'

export interface RateLimiter {
  /** Takes one request from the key's bucket. The decision's numbers are for the key as a whole. */
  take(keyId: string, limit: RateLimit): RateDecision
}

/**
 * Per-key token buckets in this process. With N gateway processes behind a load balancer, each process enforces
 * 1/N of the key's rate and burst (N from `gatewayCount`), so together they never allow more than the key's limit;
 * with key affinity at the balancer (hash on the Authorization header) the limit is also exact.
 */
export function createRateLimiter(
  options: { gatewayCount?: () => number; now?: () => number } = {},
): RateLimiter {
  const buckets = new Map<string, Bucket>()
  const now = options.now ?? Date.now
  return {
    take(keyId, limit) {
      const share = Math.max(1, options.gatewayCount?.() ?? 1)
      const local: RateLimit = {
        requests_per_minute: limit.requests_per_minute / share,
        burst: Math.max(1, limit.burst / share),
      }
      const decision = takeToken(buckets.get(keyId), now(), local)
      buckets.set(keyId, decision.bucket)
      return { ...decision, remaining: Math.min(limit.burst, Math.floor(decision.bucket.tokens * share)) }
    },
  }
}
