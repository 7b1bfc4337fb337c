import type { Instance } from '@memory-service/contracts'

export type Tier = Instance['tier']
export type RateLimit = Instance['rate_limit']

/** Per API key (spec, Limits). Enterprise limits are set per instance when it is created. */
export const tierRateLimits: Readonly<Record<Exclude<Tier, 'enterprise'>, RateLimit>> = {
  free: { requests_per_minute: 60, burst: 10 },
  pro: { requests_per_minute: 600, burst: 50 },
}

/** The limits of a new instance, or a message naming what is wrong with the request. */
export function resolveRateLimit(tier: Tier, custom: RateLimit | undefined): RateLimit | { problem: string } {
  if (tier === 'enterprise') return custom ?? { problem: 'rate_limit is required for the enterprise tier' }
  if (custom !== undefined)
    return { problem: `rate_limit can only be set for the enterprise tier, not ${tier}` }
  return tierRateLimits[tier]
}
