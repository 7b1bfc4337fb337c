import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

/**
 * Signing secrets. The sender needs a secret in plaintext to sign, so unlike an API key it cannot be hashed: it is
 * sealed with AES-256-GCM under a key from configuration (WEBHOOK_SECRET_KEY), with the webhook id as additional
 * authenticated data (a sealed secret copied onto another webhook does not open), and only the sealed form is in
 * the log. The plaintext leaves the service once, in the answer to the registration.
 */

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes. */
export function generateWebhookSecret(random: (size: number) => Buffer = randomBytes): string {
  return `whsec_${random(24).toString('base64')}`
}

/** The fixed key used when WEBHOOK_SECRET_KEY is not set: for development only (it is public). */
export const DEVELOPMENT_WEBHOOK_KEY = createHash('sha256')
  .update('memory-service development webhook secret key (set WEBHOOK_SECRET_KEY)')
  .digest()

/** The 32-byte key from its configured text (64 hex characters or base64); the development key when absent. */
export function webhookSecretKeyFrom(text: string | undefined): { key: Buffer; development: boolean } {
  if (text === undefined || text === '') return { key: DEVELOPMENT_WEBHOOK_KEY, development: true }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64')
  if (key.length !== 32) throw new Error('WEBHOOK_SECRET_KEY must be 32 bytes (64 hex characters or base64)')
  return { key, development: false }
}

export interface SecretBox {
  seal(webhookId: string, secret: string): string
  /** @throws Error when the sealed text was not sealed for this webhook with this key */
  open(webhookId: string, sealed: string): string
}

export function createSecretBox(key: Buffer, random: (size: number) => Buffer = randomBytes): SecretBox {
  if (key.length !== 32) throw new Error('a webhook secret key is 32 bytes')
  return {
    seal(webhookId, secret) {
      const iv = random(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(webhookId, 'utf8'))
      const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))
      return `v1.${parts.join('.')}`
    },
    open(webhookId, sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.')
      if (version !== 'v1' || !iv || !tag || !ciphertext) throw new Error('not a sealed webhook secret')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAAD(Buffer.from(webhookId, 'utf8'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8')
    },
  }
}
