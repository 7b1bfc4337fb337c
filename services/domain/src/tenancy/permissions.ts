import type { ApiKeyIssued } from '@memory-service/contracts'

export type Permission = ApiKeyIssued['permissions'][number]

export const allPermissions: readonly Permission[] = [
  'instances:read',
  'instances:write',
  'memories:read',
  'memories:write',
  'events:write',
  'analytics:read',
  'configs:read',
  'configs:write',
  'configs:review',
  'configs:apply',
  'webhooks:read',
  'webhooks:write',
]

/**
 * Named permission sets for issuing keys. `admin` is what the first key of an instance gets; `read-only` can
 * read everything and change nothing (no admin operation); `ingest` is for agents that write and search.
 */
export const permissionPresets = {
  admin: allPermissions,
  'read-only': ['instances:read', 'memories:read', 'analytics:read', 'configs:read', 'webhooks:read'],
  ingest: ['memories:read', 'memories:write', 'events:write'],
} as const satisfies Record<string, readonly Permission[]>

export type PermissionPreset = keyof typeof permissionPresets

export function isPermission(value: string): value is Permission {
  return (allPermissions as readonly string[]).includes(value)
}
