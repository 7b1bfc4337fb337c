import { status as GrpcStatus } from '@grpc/grpc-js'

/** Base of every error the client library raises; `code` is the service's stable error code when it sent one. */
export class MemoryServiceClientError extends Error {
  /** The HTTP status (a gRPC status is given as the HTTP status the same error has over REST). */
  status = 0
  /** X-Correlation-Id of the failed response: the id to look for in the service's logs. */
  correlationId: string | null = null

  constructor(
    message: string,
    readonly code: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = new.target.name
  }
}

/** 401 and 403: the key is missing, unknown, rotated, revoked or lacks the permission. Do not retry unchanged. */
export class AuthenticationError extends MemoryServiceClientError {}
/** 404. */
export class NotFoundError extends MemoryServiceClientError {}
/** 429: retry after `retryAfterSeconds`. */
export class RateLimitError extends MemoryServiceClientError {
  constructor(
    message: string,
    code: string,
    details: Record<string, unknown>,
    readonly retryAfterSeconds: number,
  ) {
    super(message, code, details)
  }
}
/** 503: a dependency is down; retry with backoff. */
export class ServiceUnavailableError extends MemoryServiceClientError {}
/** 400: fix the request. */
export class InvalidInputError extends MemoryServiceClientError {}
/**
 * 409: a permanent conflict, never retried by the library — a compaction already running
 * (COMPACTION_IN_PROGRESS), another transcript for the conversation, a reused document_id, a configuration in
 * the wrong status.
 */
export class ConflictError extends MemoryServiceClientError {}

/** The spec's mapping from HTTP status to the library's errors. */
export function errorForStatus(
  httpStatus: number,
  body: { error?: string; code?: string; details?: Record<string, unknown> } | null,
  retryAfter?: number,
  correlationId: string | null = null,
): MemoryServiceClientError {
  const error = errorOfStatus(httpStatus, body, retryAfter)
  error.status = httpStatus
  error.correlationId = correlationId
  return error
}

function errorOfStatus(
  httpStatus: number,
  body: { error?: string; code?: string; details?: Record<string, unknown> } | null,
  retryAfter?: number,
): MemoryServiceClientError {
  const message = body?.error ?? `HTTP ${httpStatus}`
  const code = body?.code ?? 'UNEXPECTED_RESPONSE'
  const details = body?.details ?? {}
  if (httpStatus === 401 || httpStatus === 403) return new AuthenticationError(message, code, details)
  if (httpStatus === 404) return new NotFoundError(message, code, details)
  if (httpStatus === 429) {
    const seconds =
      typeof details.retry_after_seconds === 'number' ? details.retry_after_seconds : (retryAfter ?? 1)
    return new RateLimitError(message, code, details, seconds)
  }
  if (httpStatus === 503) return new ServiceUnavailableError(message, code, details)
  if (httpStatus === 400) return new InvalidInputError(message, code, details)
  if (httpStatus === 409) return new ConflictError(message, code, details)
  return new MemoryServiceClientError(message, code, details)
}

const httpStatusOfGrpc: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.UNAUTHENTICATED]: 401,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.INVALID_ARGUMENT]: 400,
}

/** A gRPC status as the same error a REST call would raise; the body travels in the `error-body` metadata. */
function parseErrorBody(
  text: string | undefined,
): { error?: string; code?: string; details?: Record<string, unknown> } | null {
  if (!text) return null
  try {
    return JSON.parse(text) as { error?: string; code?: string; details?: Record<string, unknown> }
  } catch {
    return null
  }
}

export function errorForGrpcStatus(code: GrpcStatus, message: string, errorBody: string | undefined) {
  return errorForStatus(
    httpStatusOfGrpc[code] ?? 500,
    parseErrorBody(errorBody) ?? { error: message, code: GrpcStatus[code] },
  )
}
