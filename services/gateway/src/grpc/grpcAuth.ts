import * as grpc from '@grpc/grpc-js'
import {
  AppError,
  authenticate,
  errorCatalog,
  requirePermission,
  toErrorBody,
  type ControlState,
  type Permission,
  type Principal,
} from '@memory-service/domain'

/**
 * The spec's error as a gRPC status: the status code from the error table, the message, and the stable code and
 * the body in metadata (`error-code`, `error-body` as JSON), so gRPC clients match on the same codes as REST ones.
 */
/** The catalog's numbers are gRPC's status codes (the domain names them without depending on grpc-js). */
function grpcStatusOf(code: number): grpc.status {
  return grpc.status[grpc.status[code] as keyof typeof grpc.status]
}

export function toGrpcError(error: AppError, correlationId: string): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata()
  metadata.set('error-code', error.code)
  metadata.set('error-body', JSON.stringify(toErrorBody(error, correlationId)))
  metadata.set('x-correlation-id', correlationId)
  return {
    code: grpcStatusOf(errorCatalog[error.code].grpcStatus),
    details: toErrorBody(error, correlationId).error,
    metadata,
  }
}

/**
 * Authenticates a gRPC call from its `authorization: Bearer <key>` metadata, like the REST front door.
 * @throws AppError UNAUTHORIZED, CREDENTIAL_INVALID or FORBIDDEN
 */
export function authenticateCall(
  state: ControlState,
  metadata: grpc.Metadata,
  permission: Permission,
): Principal {
  const values = metadata.get('authorization').map(String)
  const principal = authenticate(
    state,
    values.length === 1 ? values[0] : values.length === 0 ? undefined : values,
  )
  requirePermission(principal, permission)
  return principal
}
