import { createHash } from 'node:crypto'

/**
 * Identifiers our clients bring (user, customer and conversation ids): any text of 1 to 200 characters without
 * control characters, so `auth0|123`, `a+b@x.com` and `team/42` are taken as they are. Characters are code
 * points, as JSON Schema's maxLength counts them: 200 emoji are 200 characters.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are refused.
export const externalIdPattern = /^[^\u0000-\u001f\u007f-\u009f]{1,200}$/u
/** The same rule for JSON Schema (the length is the schema's maxLength). */
export const externalIdSchemaPattern = '^[^\\u0000-\\u001f\\u007f-\\u009f]+$'

/** Elasticsearch refuses document ids longer than 512 bytes. */
const maxStoreIdBytes = 512

/**
 * A store document id for an external id within an instance: `<instance>:<id>` as long as it fits (so ids stay
 * readable and existing documents keep theirs), a hash of the id beyond that — 200 characters of four-byte UTF-8
 * would not fit. The instance id has no colon, so the prefix cannot be confused.
 */
export function storeIdOf(instanceId: string, externalId: string): string {
  const plain = `${instanceId}:${externalId}`
  if (Buffer.byteLength(plain) <= maxStoreIdBytes) return plain
  return `${instanceId}:sha256:${createHash('sha256').update(externalId).digest('hex')}`
}
