/**
 * When a failed delivery is tried again: the configured delays (5 s, 1 min, 5 min, 30 min, 2 h, 5 h, then every
 * 5 h by default) within a window (24 h) that starts at the first attempt or at a redelivery; past it the delivery
 * fails and its webhook is disabled.
 */
export interface WebhookRetryPolicy {
  /** Delay before retry n (1-based) is delaysMs[n - 1]; the last one repeats. */
  delaysMs: readonly number[]
  /** How long after the start of its cycle a delivery may still be attempted. */
  windowMs: number
}

const unitMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/** `500ms`, `5s`, `1m`, `2h`, `1d` in milliseconds. */
export function parseDuration(text: string): number {
  const match = /^([0-9]+)(ms|s|m|h|d)$/.exec(text.trim())
  if (!match) throw new Error(`not a duration: ${JSON.stringify(text)} (expected e.g. 500ms, 5s, 1m, 2h, 1d)`)
  return Number(match[1]) * unitMs[match[2] as keyof typeof unitMs]
}

export function retryPolicyOf(settings: {
  retrySchedule: readonly string[]
  retryWindow: string
}): WebhookRetryPolicy {
  if (settings.retrySchedule.length === 0) throw new Error('the retry schedule needs at least one delay')
  return {
    delaysMs: settings.retrySchedule.map(parseDuration),
    windowMs: parseDuration(settings.retryWindow),
  }
}

export const defaultWebhookRetryPolicy: WebhookRetryPolicy = retryPolicyOf({
  retrySchedule: ['5s', '1m', '5m', '30m', '2h', '5h'],
  retryWindow: '24h',
})

/** The delay before the retry that follows the `failures`-th failed attempt of a cycle (failures ≥ 1). */
export function retryDelayMs(policy: WebhookRetryPolicy, failures: number): number {
  const index = Math.min(Math.max(failures, 1), policy.delaysMs.length) - 1
  return policy.delaysMs[index] ?? 0
}

/**
 * When to try again after the `failures`-th failure of a cycle that started at `cycleStartedAt`, or null when
 * that would be past the window (the delivery then fails for good).
 */
export function nextAttemptAt(
  policy: WebhookRetryPolicy,
  failures: number,
  cycleStartedAt: Date,
  now: Date,
): Date | null {
  const next = now.getTime() + retryDelayMs(policy, failures)
  return next > cycleStartedAt.getTime() + policy.windowMs ? null : new Date(next)
}
