import type { ErrorBody } from '@memory-service/contracts'
import { errorCatalog, type ErrorCode } from './errorCatalog.js'

export type ErrorDetails = Record<string, unknown>

/**
 * The one error type handlers throw. Its code comes from {@link errorCatalog}; the HTTP and gRPC layers turn it
 * into the spec's body `{ error, code, details }`.
 */
export class AppError extends Error {
  readonly httpStatus: number

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'AppError'
    this.httpStatus = errorCatalog[code].httpStatus
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError
}

/**
 * Builds the error body for a response. Server errors never expose their message: the body carries the
 * correlation id so the full error can be found in the logs.
 */
export function toErrorBody(error: AppError, correlationId: string): ErrorBody {
  if (error.httpStatus >= 500 && error.code === 'INTERNAL_ERROR') {
    return { error: 'Internal server error', code: error.code, details: { correlation_id: correlationId } }
  }
  return { error: error.message, code: error.code, details: error.details }
}

/** 400 INVALID_INPUT with the spec's `details.fields` map (field name → message). */
export function invalidInput(
  fields: Record<string, string>,
  message = 'Request validation failed',
): AppError {
  return new AppError('INVALID_INPUT', message, { fields })
}
