import { AppError, invalidInput } from '@memory-service/domain'
import type { CreatedInstance, Instance, IssuedApiKey } from '@memory-service/contracts'
import type { ControlEventFactory } from '@memory-service/domain'
import type { ControlPlane } from '@memory-service/log'
import { keysOfInstance, type KeyRecord } from '@memory-service/domain'
import { permissionPresets, type Permission } from '@memory-service/domain'
import { resolveRateLimit, type RateLimit, type Tier } from '@memory-service/domain'

/** A key as listings show it: never the key, never its hash. */
export type KeySummary = Omit<KeyRecord, 'key_hash'>

function summary(key: KeyRecord): KeySummary {
  const { key_hash, ...rest } = key
  return rest
}

/** What operators do to instances and keys (CLI and dashboard routes): each is an event on the control topic. */
export function createTenancyCommands(control: ControlPlane, events: ControlEventFactory) {
  function activeKey(keyId: string): KeyRecord {
    const key = control.state.keysById.get(keyId)
    if (!key) throw new AppError('NOT_FOUND', 'API key not found', { key_id: keyId })
    if (key.status !== 'active') {
      throw new AppError('CREDENTIAL_INVALID', `API key was already ${key.status}`, { key_id: keyId })
    }
    return key
  }

  function instanceOf(instanceId: string): Instance {
    const instance = control.state.instances.get(instanceId)
    if (!instance) throw new AppError('INSTANCE_NOT_FOUND', 'Instance not found', { instance_id: instanceId })
    return instance
  }

  return {
    async createInstance(
      input: { clientId: string; name: string; tier: Tier; rateLimit?: RateLimit },
      correlationId: string,
    ): Promise<CreatedInstance> {
      const rateLimit = resolveRateLimit(input.tier, input.rateLimit)
      if ('problem' in rateLimit) throw invalidInput({ rate_limit: rateLimit.problem })
      const created = events.instanceCreated({
        clientId: input.clientId,
        name: input.name,
        tier: input.tier,
        rateLimit,
      })
      const issued = events.apiKeyIssued(created.instance_id, permissionPresets.admin)
      const applied = await control.append([created, issued.event], correlationId)
      if (!applied.every(Boolean))
        throw new Error(`instance ${created.instance_id} was not applied: ${JSON.stringify(applied)}`)
      return {
        instance: instanceOf(created.instance_id),
        api_key: {
          key_id: issued.key.key_id,
          key: issued.key.key,
          permissions: [...permissionPresets.admin],
        },
      }
    },

    async issueKey(
      instanceId: string,
      permissions: readonly Permission[],
      correlationId: string,
    ): Promise<IssuedApiKey> {
      instanceOf(instanceId)
      const issued = events.apiKeyIssued(instanceId, permissions)
      const [applied] = await control.append([issued.event], correlationId)
      if (!applied) throw new Error(`key ${issued.key.key_id} was not applied`)
      return { key_id: issued.key.key_id, key: issued.key.key, permissions: [...permissions] }
    },

    /** The new key replaces the old one with the same permissions; the old one answers CREDENTIAL_INVALID from now on. */
    async rotateKey(
      keyId: string,
      correlationId: string,
    ): Promise<IssuedApiKey & { previous_key_id: string }> {
      const rotated = events.apiKeyRotated(activeKey(keyId))
      const [applied] = await control.append([rotated.event], correlationId)
      // Another operator may have rotated or revoked the same key first; then this new key never became valid.
      if (!applied)
        throw new AppError('CREDENTIAL_INVALID', 'API key was changed concurrently', { key_id: keyId })
      return {
        key_id: rotated.key.key_id,
        key: rotated.key.key,
        permissions: rotated.event.permissions,
        previous_key_id: keyId,
      }
    },

    async revokeKey(keyId: string, correlationId: string): Promise<KeySummary> {
      const [applied] = await control.append([events.apiKeyRevoked(activeKey(keyId))], correlationId)
      const key = control.state.keysById.get(keyId)
      if (!applied || !key)
        throw new AppError('CREDENTIAL_INVALID', 'API key was changed concurrently', { key_id: keyId })
      return summary(key)
    },

    /**
     * On a control topic with no instance at all (a new stack), creates a `development` instance on the pro tier
     * for a new client and returns it with its key; otherwise returns undefined.
     */
    async ensureDevelopmentInstance(correlationId: string): Promise<CreatedInstance | undefined> {
      if (control.state.instances.size > 0) return undefined
      return this.createInstance(
        { clientId: events.newClientId(), name: 'development', tier: 'pro' },
        correlationId,
      )
    },

    listKeys(instanceId: string): KeySummary[] {
      instanceOf(instanceId)
      return keysOfInstance(control.state, instanceId).map(summary)
    },
  }
}

export type TenancyCommands = ReturnType<typeof createTenancyCommands>
