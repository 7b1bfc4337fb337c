import type { ServiceConfig } from '@memory-service/contracts'
import {
  createSecretBox,
  retryPolicyOf,
  webhookSecretKeyFrom,
  type SecretBox,
  type UrlPolicy,
  type WebhookRetryPolicy,
} from '@memory-service/domain'

export interface WebhookSettings {
  secrets: SecretBox
  urlPolicy: UrlPolicy
  retry: WebhookRetryPolicy
  timeoutMs: number
  concurrency: number
  pollIntervalMs: number
}

/**
 * The webhook settings of a process from its configuration. Without WEBHOOK_SECRET_KEY the public development key
 * seals the secrets, which is said once as a warning (the key itself is never logged).
 */
export function webhookSettingsOf(
  config: ServiceConfig['webhooks'],
  warn: (message: string) => void,
): WebhookSettings {
  const { key, development } = webhookSecretKeyFrom(config.secretKey)
  if (development)
    warn(
      'WEBHOOK_SECRET_KEY is not set: webhook signing secrets are sealed with the public development key; set it (32 random bytes, hex or base64) in production',
    )
  return {
    secrets: createSecretBox(key),
    urlPolicy: { allowedHosts: config.allowedHosts },
    retry: retryPolicyOf(config),
    timeoutMs: config.timeoutMs,
    concurrency: config.concurrency,
    pollIntervalMs: config.pollIntervalMs,
  }
}
