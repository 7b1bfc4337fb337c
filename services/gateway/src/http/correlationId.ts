import { randomUUID } from 'node:crypto'

export const CORRELATION_ID_RESPONSE_HEADER = 'X-Correlation-Id'

const acceptable = /^[A-Za-z0-9._:-]{8,128}$/

/**
 * A caller may pass its own X-Correlation-Id to tie our logs to theirs; anything that does not look like an id
 * (too short, too long, odd characters that could forge log lines) is replaced by a fresh one.
 */
export function correlationIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header
  return value !== undefined && acceptable.test(value) ? value : randomUUID()
}
