import type {
  ApiKeyIssued,
  ApiKeyRevoked,
  ApiKeyRotated,
  Instance,
  InstanceCreated,
} from '@memory-service/contracts'
import {
  applyConfigEvent,
  emptyConfigVersions,
  type ConfigEvent,
  type ConfigVersions,
} from '../configs/configVersions.js'
import type { Permission } from './permissions.js'
import { applyWebhookEvent, type WebhookEvent, type WebhookRecord } from '../webhooks/webhookRegistry.js'

export type ControlEvent =
  InstanceCreated | ApiKeyIssued | ApiKeyRotated | ApiKeyRevoked | ConfigEvent | WebhookEvent

export type KeyStatus = 'active' | 'rotated' | 'revoked'

export interface KeyRecord {
  key_id: string
  instance_id: string
  client_id: string
  key_prefix: string
  key_hash: string
  permissions: Permission[]
  status: KeyStatus
  issued_at: string
  ended_at: string | null
  replaced_by: string | null
}

/** The read model of the control topic: instances, keys and configuration versions, as the services query them. */
export interface ControlState {
  instances: Map<string, Instance>
  configs: ConfigVersions
  keysByHash: Map<string, KeyRecord>
  keysById: Map<string, KeyRecord>
  /** Registered webhooks by id (deleted ones are removed). */
  webhooks: Map<string, WebhookRecord>
  appliedEventIds: Set<string>
}

export function emptyControlState(): ControlState {
  return {
    instances: new Map(),
    configs: emptyConfigVersions(),
    keysByHash: new Map(),
    keysById: new Map(),
    webhooks: new Map(),
    appliedEventIds: new Set(),
  }
}

export type ApplyOutcome = { applied: true } | { applied: false; reason: string }

function addKey(state: ControlState, event: ApiKeyIssued | ApiKeyRotated, instance: Instance): void {
  const record: KeyRecord = {
    key_id: event.key_id,
    instance_id: event.instance_id,
    client_id: instance.client_id,
    key_prefix: event.key_prefix,
    key_hash: event.key_hash,
    permissions: [...event.permissions],
    status: 'active',
    issued_at: event.occurred_at,
    ended_at: null,
    replaced_by: null,
  }
  state.keysById.set(record.key_id, record)
  state.keysByHash.set(record.key_hash, record)
}

/**
 * Applies one control event in log order. Events that do not fit the state (a key for an unknown instance, a
 * rotation of a key that is no longer active) change nothing: the log may hold them (two operators racing), and
 * every reader must come to the same state. A replayed event is recognised by its id and ignored.
 */
export function applyControlEvent(state: ControlState, event: ControlEvent): ApplyOutcome {
  if (state.appliedEventIds.has(event.event_id)) return { applied: false, reason: 'event already applied' }
  const outcome = applyNew(state, event)
  if (outcome.applied) state.appliedEventIds.add(event.event_id)
  return outcome
}

function applyNew(state: ControlState, event: ControlEvent): ApplyOutcome {
  switch (event.type) {
    case 'instance_created': {
      if (state.instances.has(event.instance_id)) return { applied: false, reason: 'instance exists' }
      state.instances.set(event.instance_id, {
        instance_id: event.instance_id,
        client_id: event.client_id,
        name: event.name,
        tier: event.tier,
        rate_limit: event.rate_limit,
        created_at: event.occurred_at,
      })
      return { applied: true }
    }
    case 'api_key_issued': {
      const instance = state.instances.get(event.instance_id)
      if (!instance) return { applied: false, reason: 'unknown instance' }
      if (state.keysById.has(event.key_id)) return { applied: false, reason: 'key id exists' }
      addKey(state, event, instance)
      return { applied: true }
    }
    case 'api_key_rotated': {
      const instance = state.instances.get(event.instance_id)
      const previous = state.keysById.get(event.previous_key_id)
      if (!instance || previous?.instance_id !== event.instance_id)
        return { applied: false, reason: 'unknown key' }
      if (previous.status !== 'active') return { applied: false, reason: `key is ${previous.status}` }
      if (state.keysById.has(event.key_id)) return { applied: false, reason: 'key id exists' }
      previous.status = 'rotated'
      previous.ended_at = event.occurred_at
      previous.replaced_by = event.key_id
      addKey(state, event, instance)
      return { applied: true }
    }
    case 'api_key_revoked': {
      const key = state.keysById.get(event.key_id)
      if (key?.instance_id !== event.instance_id) return { applied: false, reason: 'unknown key' }
      if (key.status !== 'active') return { applied: false, reason: `key is ${key.status}` }
      key.status = 'revoked'
      key.ended_at = event.occurred_at
      return { applied: true }
    }
    case 'config_version_proposed':
    case 'config_version_reviewed':
    case 'config_version_applied':
    case 'config_rebuild_changed':
      if (!state.instances.has(event.instance_id)) return { applied: false, reason: 'unknown instance' }
      return applyConfigEvent(state.configs, event)
    case 'webhook_registered':
    case 'webhook_changed':
    case 'webhook_deleted':
      if (!state.instances.has(event.instance_id)) return { applied: false, reason: 'unknown instance' }
      return applyWebhookEvent(state.webhooks, event)
  }
}

export interface Page<T> {
  items: T[]
  page: number
  page_size: number
  total: number
  has_more: boolean
}

/** The instances of one client, oldest first, one page. */
export function listInstances(
  state: ControlState,
  clientId: string,
  page: number,
  pageSize: number,
): Page<Instance> {
  const all = [...state.instances.values()]
    .filter((instance) => instance.client_id === clientId)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.instance_id.localeCompare(b.instance_id))
  const start = (page - 1) * pageSize
  const items = all.slice(start, start + pageSize)
  return { items, page, page_size: pageSize, total: all.length, has_more: start + items.length < all.length }
}

export function keysOfInstance(state: ControlState, instanceId: string): KeyRecord[] {
  return [...state.keysById.values()].filter((key) => key.instance_id === instanceId)
}
