import type { ErrorBody } from '@memory-service/contracts'

export type ErrorCode = ErrorBody['code']

/** The gRPC status codes the catalog uses (grpc/grpc's status.proto numbers; @grpc/grpc-js's `status` enum). */
export const GrpcStatus = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const

export interface ErrorCodeDefinition {
  httpStatus: number
  grpcStatus: (typeof GrpcStatus)[keyof typeof GrpcStatus]
  /** Whether a client may retry the same request unchanged (spec: retry 429, 500, 503 with backoff). */
  retryable: boolean
}

/** The one table of error codes: every code the API returns, its HTTP status and its gRPC status. */
export const errorCatalog: Readonly<Record<ErrorCode, ErrorCodeDefinition>> = {
  UNAUTHORIZED: { httpStatus: 401, grpcStatus: GrpcStatus.UNAUTHENTICATED, retryable: false },
  CREDENTIAL_INVALID: { httpStatus: 401, grpcStatus: GrpcStatus.UNAUTHENTICATED, retryable: false },
  FORBIDDEN: { httpStatus: 403, grpcStatus: GrpcStatus.PERMISSION_DENIED, retryable: false },
  INVALID_INPUT: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, retryable: false },
  NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, retryable: false },
  METHOD_NOT_ALLOWED: { httpStatus: 405, grpcStatus: GrpcStatus.UNIMPLEMENTED, retryable: false },
  URI_TOO_LONG: { httpStatus: 414, grpcStatus: GrpcStatus.INVALID_ARGUMENT, retryable: false },
  INSTANCE_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, retryable: false },
  CONVERSATION_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, retryable: false },
  DOCUMENT_ALREADY_INGESTED: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, retryable: false },
  TRANSCRIPT_CONFLICT: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, retryable: false },
  COMPACTION_IN_PROGRESS: { httpStatus: 409, grpcStatus: GrpcStatus.ABORTED, retryable: false },
  CONFIG_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, retryable: false },
  CONFIG_CONFLICT: { httpStatus: 409, grpcStatus: GrpcStatus.FAILED_PRECONDITION, retryable: false },
  CONFIG_VALIDATION_ERROR: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, retryable: false },
  CONFIG_ALREADY_ACTIVE: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, retryable: false },
  WEBHOOK_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, retryable: false },
  WEBHOOK_DELIVERY_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, retryable: false },
  WEBHOOK_DISABLED: { httpStatus: 409, grpcStatus: GrpcStatus.FAILED_PRECONDITION, retryable: false },
  BULK_COUNT_MISMATCH: { httpStatus: 409, grpcStatus: GrpcStatus.FAILED_PRECONDITION, retryable: false },
  RATE_LIMITED: { httpStatus: 429, grpcStatus: GrpcStatus.RESOURCE_EXHAUSTED, retryable: true },
  INTERNAL_ERROR: { httpStatus: 500, grpcStatus: GrpcStatus.INTERNAL, retryable: true },
  SERVICE_UNAVAILABLE: { httpStatus: 503, grpcStatus: GrpcStatus.UNAVAILABLE, retryable: true },
}
