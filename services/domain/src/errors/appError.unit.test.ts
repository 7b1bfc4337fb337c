import { describe, expect, it } from 'vitest'
import { AppError, invalidInput, toErrorBody } from './appError.js'
import { errorCatalog, type ErrorCode } from './errorCatalog.js'

describe('error catalog', () => {
  it('maps each code of the spec to the spec status', () => {
    const specStatuses: Record<
      Exclude<
        ErrorCode,
        | 'NOT_FOUND'
        | 'METHOD_NOT_ALLOWED'
        | 'URI_TOO_LONG'
        | 'DOCUMENT_ALREADY_INGESTED'
        | 'TRANSCRIPT_CONFLICT'
        | 'COMPACTION_IN_PROGRESS'
        | 'WEBHOOK_NOT_FOUND'
        | 'WEBHOOK_DELIVERY_NOT_FOUND'
        | 'WEBHOOK_DISABLED'
        | 'BULK_COUNT_MISMATCH'
      >,
      number
    > = {
      UNAUTHORIZED: 401,
      CREDENTIAL_INVALID: 401,
      FORBIDDEN: 403,
      INVALID_INPUT: 400,
      INSTANCE_NOT_FOUND: 404,
      CONVERSATION_NOT_FOUND: 404,
      CONFIG_NOT_FOUND: 404,
      CONFIG_CONFLICT: 409,
      CONFIG_VALIDATION_ERROR: 400,
      CONFIG_ALREADY_ACTIVE: 409,
      RATE_LIMITED: 429,
      INTERNAL_ERROR: 500,
      SERVICE_UNAVAILABLE: 503,
    }
    for (const [code, status] of Object.entries(specStatuses)) {
      expect(errorCatalog[code as ErrorCode].httpStatus, code).toBe(status)
    }
    // Our additions: an unknown route, a known path with another method, an over-long path parameter, and codes
    // for the 409 cases the spec describes without naming a code.
    expect(errorCatalog.NOT_FOUND.httpStatus).toBe(404)
    expect(errorCatalog.METHOD_NOT_ALLOWED.httpStatus).toBe(405)
    expect(errorCatalog.URI_TOO_LONG.httpStatus).toBe(414)
    expect(errorCatalog.DOCUMENT_ALREADY_INGESTED.httpStatus).toBe(409)
    expect(errorCatalog.TRANSCRIPT_CONFLICT.httpStatus).toBe(409)
    expect(errorCatalog.COMPACTION_IN_PROGRESS.httpStatus).toBe(409)
    // Webhooks (the spec leaves them to us): a missing webhook or delivery, a redelivery to a disabled webhook.
    expect(errorCatalog.WEBHOOK_NOT_FOUND.httpStatus).toBe(404)
    expect(errorCatalog.WEBHOOK_DELIVERY_NOT_FOUND.httpStatus).toBe(404)
    expect(errorCatalog.WEBHOOK_DISABLED.httpStatus).toBe(409)
    // A bulk edit by filter whose confirmed count no longer matches.
    expect(errorCatalog.BULK_COUNT_MISMATCH.httpStatus).toBe(409)
  })

  it('marks exactly 429, 500 and 503 as retryable, as the spec advises', () => {
    const retryable = Object.entries(errorCatalog)
      .filter(([, definition]) => definition.retryable)
      .map(([code]) => code)
      .sort()
    expect(retryable).toEqual(['INTERNAL_ERROR', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'])
  })
})

describe('toErrorBody', () => {
  it('builds the whole body from code, message and details', () => {
    const error = new AppError('FORBIDDEN', 'Missing permission', {
      required_permission: 'memories:write',
      current_permissions: ['memories:read'],
    })
    expect(toErrorBody(error, 'corr-12345678')).toEqual({
      error: 'Missing permission',
      code: 'FORBIDDEN',
      details: { required_permission: 'memories:write', current_permissions: ['memories:read'] },
    })
  })

  it('hides the message of an internal error and gives the correlation id instead', () => {
    const error = new AppError('INTERNAL_ERROR', 'connection refused to 10.0.0.7:9092')
    expect(toErrorBody(error, 'corr-12345678')).toEqual({
      error: 'Internal server error',
      code: 'INTERNAL_ERROR',
      details: { correlation_id: 'corr-12345678' },
    })
  })

  it('puts field messages under details.fields for invalid input', () => {
    expect(toErrorBody(invalidInput({ mode: 'must be fast or long-range' }), 'c-12345678')).toEqual({
      error: 'Request validation failed',
      code: 'INVALID_INPUT',
      details: { fields: { mode: 'must be fast or long-range' } },
    })
  })
})
