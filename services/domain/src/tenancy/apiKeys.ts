import { createHash, randomBytes } from 'node:crypto'

/**
 * An API key is `msk_<16 hex key id>_<43-char base64url secret>` (256 random bits). The service stores only its
 * SHA-256: the secret is random and long, so a slow password hash would add latency without adding safety.
 */
const apiKeyPattern = /^msk_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/

export interface GeneratedApiKey {
  key: string
  key_id: string
  key_prefix: string
  key_hash: string
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

export function generateApiKey(random: (size: number) => Buffer = randomBytes): GeneratedApiKey {
  const id = random(8).toString('hex')
  const key = `msk_${id}_${random(32).toString('base64url')}`
  return { key, key_id: `key_${id}`, key_prefix: `msk_${id}`, key_hash: hashApiKey(key) }
}

export function isWellFormedApiKey(token: string): boolean {
  return apiKeyPattern.test(token)
}

/** The token of an `Authorization: Bearer <token>` header, or why there is none. */
export function parseBearer(header: string | string[] | undefined): { token: string } | { problem: string } {
  if (header === undefined || header === '') return { problem: 'Authorization header is missing' }
  if (Array.isArray(header)) return { problem: 'Authorization header must appear once' }
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim())
  if (!match?.[1]) return { problem: 'Authorization header must be "Bearer <API key>"' }
  if (!isWellFormedApiKey(match[1])) return { problem: 'The bearer value is not an API key' }
  return { token: match[1] }
}
