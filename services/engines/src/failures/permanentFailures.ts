/**
 * A write an engine refused for what the record holds (a value the mapping cannot take, a type the graph refuses):
 * trying again gives the same answer, unlike a timeout, an engine that is down or one that says "too many requests".
 */
export class RejectedWriteError extends Error {
  readonly permanent = true
  constructor(
    message: string,
    /** The engine's own reason per refused item, for the dead letter. */
    readonly reasons: string[] = [],
  ) {
    super(message)
    this.name = 'RejectedWriteError'
  }
}

/** Neo4j's codes for a statement its data makes invalid; security, cluster and transaction codes are not the data's fault. */
const permanentNeo4jCodes = [
  'Neo.ClientError.Statement.',
  'Neo.ClientError.Schema.ConstraintValidationFailed',
  'Neo.ClientError.Procedure.ProcedureCallFailed',
]

/**
 * Whether a failure of applying records will repeat however often they are retried. Only such failures may move a
 * record aside (a dead letter); anything else — an engine down, a timeout, overload, an unknown error — is retried,
 * so that an outage never dead-letters good records.
 */
export function isPermanentFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  if ((error as { permanent?: unknown }).permanent === true) return true
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && permanentNeo4jCodes.some((prefix) => code.startsWith(prefix))) return true
  // Elasticsearch refused the request itself as malformed (an id too long, a document it cannot parse).
  const meta = (error as { name?: unknown; meta?: { statusCode?: unknown } }).meta
  return (error as { name?: unknown }).name === 'ResponseError' && meta?.statusCode === 400
}
