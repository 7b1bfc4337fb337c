import { AppError } from '../errors/appError.js'
import { hashApiKey, parseBearer } from './apiKeys.js'
import type { ControlState, KeyRecord } from './controlState.js'
import type { Permission } from './permissions.js'
import type { Instance } from '@memory-service/contracts'

/** Who is calling: an active key, its instance and its client. */
export interface Principal {
  key: KeyRecord
  instance: Instance
}

/**
 * Resolves the caller from an Authorization header value (REST header or gRPC metadata).
 * @throws AppError UNAUTHORIZED when the header is missing or malformed or the key is unknown,
 *   CREDENTIAL_INVALID when the key was rotated or revoked.
 */
export function authenticate(state: ControlState, authorization: string | string[] | undefined): Principal {
  const bearer = parseBearer(authorization)
  if ('problem' in bearer) throw new AppError('UNAUTHORIZED', bearer.problem)
  const key = state.keysByHash.get(hashApiKey(bearer.token))
  const instance = key ? state.instances.get(key.instance_id) : undefined
  if (!key || !instance) throw new AppError('UNAUTHORIZED', 'Unknown API key')
  if (key.status !== 'active') throw new AppError('CREDENTIAL_INVALID', `API key was ${key.status}`)
  return { key, instance }
}

/** @throws AppError FORBIDDEN naming the permission the key lacks and the ones it has. */
export function requirePermission(principal: Principal, permission: Permission): void {
  if (principal.key.permissions.includes(permission)) return
  throw new AppError('FORBIDDEN', `This API key lacks the permission ${permission}`, {
    required_permission: permission,
    current_permissions: principal.key.permissions,
  })
}

/**
 * An instance the caller may administer: any instance of its own client. Another client's instance and a missing
 * one give the same answer, so nobody learns whether another client's instance exists.
 * @throws AppError INSTANCE_NOT_FOUND
 */
export function requireClientInstance(
  state: ControlState,
  principal: Principal,
  instanceId: string,
): Instance {
  const instance = state.instances.get(instanceId)
  if (instance?.client_id !== principal.instance.client_id) {
    throw new AppError('INSTANCE_NOT_FOUND', 'Instance not found', { instance_id: instanceId })
  }
  return instance
}

/**
 * The instance whose data a request may read or change: only the key's own instance. Memory data never crosses
 * instances, not even within one client.
 * @throws AppError INSTANCE_NOT_FOUND
 */
export function requireOwnInstance(principal: Principal, instanceId: string): Instance {
  if (instanceId !== principal.instance.instance_id) {
    throw new AppError('INSTANCE_NOT_FOUND', 'Instance not found', { instance_id: instanceId })
  }
  return principal.instance
}
