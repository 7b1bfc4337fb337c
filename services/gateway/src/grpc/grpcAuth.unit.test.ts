import * as grpc from '@grpc/grpc-js'
import { describe, expect, it } from 'vitest'
import {
  AppError,
  applyControlEvent,
  createControlEventFactory,
  emptyControlState,
  permissionPresets,
} from '@memory-service/domain'
import { authenticateCall, toGrpcError } from './grpcAuth.js'

const events = createControlEventFactory()
const state = emptyControlState()
const instance = events.instanceCreated({
  clientId: events.newClientId(),
  name: 'grpc',
  tier: 'pro',
  rateLimit: { requests_per_minute: 600, burst: 50 },
})
const reader = events.apiKeyIssued(instance.instance_id, permissionPresets['read-only'])
applyControlEvent(state, instance)
applyControlEvent(state, reader.event)

function metadataWith(...values: string[]): grpc.Metadata {
  const metadata = new grpc.Metadata()
  for (const value of values) metadata.add('authorization', value)
  return metadata
}

function failure(action: () => unknown): AppError {
  try {
    action()
  } catch (error) {
    if (error instanceof AppError) return error
  }
  throw new Error('expected an AppError')
}

describe('gRPC authentication', () => {
  it('accepts the bearer key in metadata and names the instance', () => {
    const principal = authenticateCall(state, metadataWith(`Bearer ${reader.key.key}`), 'memories:read')
    expect(principal.instance.instance_id).toBe(instance.instance_id)
  })

  it('refuses a missing or repeated header as UNAUTHORIZED and a missing permission as FORBIDDEN', () => {
    expect(failure(() => authenticateCall(state, metadataWith(), 'memories:read')).code).toBe('UNAUTHORIZED')
    const twice = metadataWith(`Bearer ${reader.key.key}`, `Bearer ${reader.key.key}`)
    expect(failure(() => authenticateCall(state, twice, 'memories:read')).code).toBe('UNAUTHORIZED')
    const forbidden = failure(() =>
      authenticateCall(state, metadataWith(`Bearer ${reader.key.key}`), 'events:write'),
    )
    expect(forbidden.code).toBe('FORBIDDEN')
  })

  it('maps each error to its gRPC status and carries the spec body in metadata', () => {
    const error = new AppError('FORBIDDEN', 'no', {
      required_permission: 'events:write',
      current_permissions: [],
    })
    const status = toGrpcError(error, 'corr-12345678')
    expect(status.code).toBe(grpc.status.PERMISSION_DENIED)
    expect(status.metadata?.get('error-code')).toEqual(['FORBIDDEN'])
    expect(JSON.parse(String(status.metadata?.get('error-body')[0]))).toEqual({
      error: 'no',
      code: 'FORBIDDEN',
      details: { required_permission: 'events:write', current_permissions: [] },
    })
    expect(toGrpcError(new AppError('UNAUTHORIZED', 'x'), 'c').code).toBe(grpc.status.UNAUTHENTICATED)
    expect(toGrpcError(new AppError('RATE_LIMITED', 'x'), 'c').code).toBe(grpc.status.RESOURCE_EXHAUSTED)
  })
})
