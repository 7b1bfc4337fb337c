import { createHash, randomBytes } from 'node:crypto'
import type {
  ApiKeyIssued,
  ApiKeyRevoked,
  ApiKeyRotated,
  ConfigRebuildChanged,
  ConfigVersionApplied,
  ConfigVersionProposed,
  ConfigVersionReviewed,
  InstanceCreated,
} from '@memory-service/contracts'
import type { ArchitectureConfig } from '../configs/architectureConfig.js'
import { generateApiKey, type GeneratedApiKey } from './apiKeys.js'
import type { KeyRecord } from './controlState.js'
import type { Permission } from './permissions.js'
import type { RateLimit, Tier } from './tiers.js'

/** Builds control events; ids and clock are injected so tests are deterministic. */
export interface ControlEventFactoryOptions {
  now?: () => Date
  random?: (size: number) => Buffer
}

export function createControlEventFactory(options: ControlEventFactoryOptions = {}) {
  const now = options.now ?? (() => new Date())
  const random = options.random ?? randomBytes
  const envelope = () => ({ event_id: `evt_${random(16).toString('hex')}`, occurred_at: now().toISOString() })

  return {
    newClientId: () => `cli_${random(8).toString('hex')}`,

    instanceCreated(input: {
      clientId: string
      name: string
      tier: Tier
      rateLimit: RateLimit
    }): InstanceCreated {
      return {
        type: 'instance_created',
        ...envelope(),
        instance_id: `inst_${random(8).toString('hex')}`,
        client_id: input.clientId,
        name: input.name,
        tier: input.tier,
        rate_limit: input.rateLimit,
      }
    },

    /** The event and the key it issues; the key leaves this function once and is never stored. */
    apiKeyIssued(
      instanceId: string,
      permissions: readonly Permission[],
    ): { event: ApiKeyIssued; key: GeneratedApiKey } {
      const key = generateApiKey(random)
      return {
        key,
        event: {
          type: 'api_key_issued',
          ...envelope(),
          instance_id: instanceId,
          key_id: key.key_id,
          key_hash: key.key_hash,
          key_prefix: key.key_prefix,
          permissions: [...permissions],
        },
      }
    },

    apiKeyRotated(previous: KeyRecord): { event: ApiKeyRotated; key: GeneratedApiKey } {
      const key = generateApiKey(random)
      return {
        key,
        event: {
          type: 'api_key_rotated',
          ...envelope(),
          instance_id: previous.instance_id,
          previous_key_id: previous.key_id,
          key_id: key.key_id,
          key_hash: key.key_hash,
          key_prefix: key.key_prefix,
          permissions: [...previous.permissions],
        },
      }
    },

    apiKeyRevoked(key: KeyRecord): ApiKeyRevoked {
      return { type: 'api_key_revoked', ...envelope(), instance_id: key.instance_id, key_id: key.key_id }
    },

    configVersionProposed(input: {
      instanceId: string
      configuration: ArchitectureConfig
      sourceFormat: ConfigVersionProposed['source_format']
      proposedBy: string
      /** The initial version has an id derived from its instance, so two racing initializations make one version. */
      initial?: boolean
    }): ConfigVersionProposed {
      const id = input.initial
        ? createHash('sha256').update(`${input.instanceId}:initial`).digest('hex').slice(0, 16)
        : random(8).toString('hex')
      return {
        type: 'config_version_proposed',
        ...envelope(),
        instance_id: input.instanceId,
        config_id: `maca_cfg_${id}`,
        configuration: input.configuration,
        source_format: input.sourceFormat,
        proposed_by: input.proposedBy,
      }
    },

    configVersionReviewed(input: {
      instanceId: string
      configId: string
      decision: ConfigVersionReviewed['decision']
      comment: string
      reviewedBy: string
    }): ConfigVersionReviewed {
      return {
        type: 'config_version_reviewed',
        ...envelope(),
        instance_id: input.instanceId,
        config_id: input.configId,
        decision: input.decision,
        comment: input.comment,
        reviewed_by: input.reviewedBy,
      }
    },

    configVersionApplied(input: {
      instanceId: string
      configId: string
      appliedBy: string
    }): ConfigVersionApplied {
      return {
        type: 'config_version_applied',
        ...envelope(),
        instance_id: input.instanceId,
        config_id: input.configId,
        applied_by: input.appliedBy,
      }
    },

    configRebuildChanged(
      input: { instanceId: string; configId: string } & Pick<
        ConfigRebuildChanged,
        'status' | 'runner' | 'takeover' | 'projection' | 'events_read' | 'behind' | 'error'
      >,
    ): ConfigRebuildChanged {
      const { instanceId, configId, ...progress } = input
      return {
        type: 'config_rebuild_changed',
        ...envelope(),
        instance_id: instanceId,
        config_id: configId,
        ...progress,
      }
    },
  }
}

export type ControlEventFactory = ReturnType<typeof createControlEventFactory>
