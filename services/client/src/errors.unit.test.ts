import { status } from '@grpc/grpc-js'
import { describe, expect, it } from 'vitest'
import {
  AuthenticationError,
  ConflictError,
  errorForGrpcStatus,
  errorForStatus,
  InvalidInputError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
} from './errors.js'

describe('client errors', () => {
  it('map HTTP statuses as the spec says', () => {
    expect(errorForStatus(401, { code: 'UNAUTHORIZED' })).toBeInstanceOf(AuthenticationError)
    expect(errorForStatus(403, { code: 'FORBIDDEN' })).toBeInstanceOf(AuthenticationError)
    expect(errorForStatus(404, { code: 'INSTANCE_NOT_FOUND' })).toBeInstanceOf(NotFoundError)
    expect(errorForStatus(503, { code: 'SERVICE_UNAVAILABLE' })).toBeInstanceOf(ServiceUnavailableError)
    expect(errorForStatus(400, { code: 'INVALID_INPUT' })).toBeInstanceOf(InvalidInputError)
    expect(errorForStatus(409, { code: 'CONFLICT' })).toBeInstanceOf(ConflictError)
    const limited = errorForStatus(429, {
      error: 'slow down',
      code: 'RATE_LIMITED',
      details: { retry_after_seconds: 7 },
    })
    expect(limited).toBeInstanceOf(RateLimitError)
    expect(limited).toMatchObject({ message: 'slow down', code: 'RATE_LIMITED', retryAfterSeconds: 7 })
  })

  it('map gRPC statuses to the same errors, reading the spec body from metadata', () => {
    const body = JSON.stringify({ error: 'API key was revoked', code: 'CREDENTIAL_INVALID', details: {} })
    expect(errorForGrpcStatus(status.UNAUTHENTICATED, 'x', body)).toMatchObject({
      name: 'AuthenticationError',
      code: 'CREDENTIAL_INVALID',
      message: 'API key was revoked',
    })
    expect(errorForGrpcStatus(status.UNAVAILABLE, 'connection refused', undefined)).toMatchObject({
      name: 'ServiceUnavailableError',
      code: 'UNAVAILABLE',
    })
  })
})
