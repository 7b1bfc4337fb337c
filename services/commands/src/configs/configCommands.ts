import { AppError } from '@memory-service/domain'
import type { ControlEventFactory } from '@memory-service/domain'
import type { ControlPlane } from '@memory-service/log'
import type { Page } from '@memory-service/domain'
import {
  configValidationError,
  defaultArchitectureConfig,
  parseConfigText,
  locateConfigProblems,
  validateArchitectureConfig,
  type ArchitectureConfig,
  type ConfigFormat,
  type ServedEmbeddings,
} from '@memory-service/domain'
import {
  applyRefusal,
  findConfigVersion,
  reviewRefusal,
  type ConfigStatus,
  type ConfigVersionRecord,
} from '@memory-service/domain'

/** Who acts on a configuration: the calling key. */
export interface ConfigActor {
  keyId: string
  permissions: readonly string[]
}

/**
 * The configuration lifecycle as operators drive it (dashboard and instance routes): every step is an event on the
 * control topic, checked here against the read model first for a precise answer, and checked again by the fold in
 * log order, which is what decides when two operators race.
 */
export function createConfigCommands(
  control: ControlPlane,
  events: ControlEventFactory,
  served: ServedEmbeddings,
) {
  const versions = () => control.state.configs
  const defaults = defaultArchitectureConfig(served)
  const find = (instanceId: string, configId: string) => findConfigVersion(versions(), instanceId, configId)

  async function appendOne(
    event: Parameters<ControlPlane['append']>[0][number],
    correlationId: string,
  ): Promise<boolean> {
    const [applied] = await control.append([event], correlationId)
    return applied ?? false
  }

  const raceLost = (configId: string) => new Error(`configuration event for ${configId} was not applied`)

  return {
    /** The configuration an instance acts on: its active version's, or the defaults before it has one. */
    effective(instanceId: string): ArchitectureConfig {
      const activeId = versions().active.get(instanceId)
      return (activeId ? versions().byId.get(activeId)?.configuration : undefined) ?? defaults
    },

    active(instanceId: string): ConfigVersionRecord {
      const activeId = versions().active.get(instanceId)
      if (!activeId) {
        throw new AppError(
          'CONFIG_NOT_FOUND',
          'The instance has no active configuration version yet (POST /instances/{id}/memory-architecture/init)',
          { config_id: null, instance_id: instanceId },
        )
      }
      return find(instanceId, activeId)
    },

    get: find,

    /** Newest first. */
    list(
      instanceId: string,
      page: number,
      pageSize: number,
      status?: ConfigStatus,
    ): Page<ConfigVersionRecord> {
      const all = [...(versions().byInstance.get(instanceId) ?? [])]
        .reverse()
        .filter((version) => status === undefined || version.status === status)
      const start = (page - 1) * pageSize
      const items = all.slice(start, start + pageSize)
      return {
        items,
        page,
        page_size: pageSize,
        total: all.length,
        has_more: start + items.length < all.length,
      }
    },

    /**
     * Gives an instance its first version, active at once, from the defaults (nothing to review: it is what the
     * instance already runs with). An instance that has versions is left as it is.
     */
    async init(
      instanceId: string,
      correlationId: string,
    ): Promise<{ created: boolean; version: ConfigVersionRecord }> {
      const activeId = versions().active.get(instanceId)
      const current =
        (activeId && versions().byId.get(activeId)) || versions().byInstance.get(instanceId)?.at(-1)
      if (current) return { created: false, version: current }
      const proposed = events.configVersionProposed({
        instanceId,
        configuration: defaults,
        sourceFormat: 'default',
        proposedBy: 'system',
        initial: true,
      })
      const configId = proposed.config_id
      const applied = await control.append(
        [
          proposed,
          events.configVersionReviewed({
            instanceId,
            configId,
            decision: 'approved',
            comment: 'initial configuration (the defaults)',
            reviewedBy: 'system',
          }),
          events.configVersionApplied({ instanceId, configId, appliedBy: 'system' }),
        ],
        correlationId,
      )
      return { created: applied.every(Boolean), version: find(instanceId, configId) }
    },

    async propose(
      instanceId: string,
      text: string,
      format: ConfigFormat,
      actor: ConfigActor,
      correlationId: string,
    ): Promise<ConfigVersionRecord> {
      const parsed = parseConfigText(text, format)
      if ('problems' in parsed) throw configValidationError(parsed.problems)
      const validated = validateArchitectureConfig(parsed.value, served)
      if ('problems' in validated) throw configValidationError(locateConfigProblems(text, validated.problems))
      const event = events.configVersionProposed({
        instanceId,
        configuration: validated.config,
        sourceFormat: format,
        proposedBy: actor.keyId,
      })
      if (!(await appendOne(event, correlationId)))
        throw new Error(`configuration version ${event.config_id} was not applied`)
      return find(instanceId, event.config_id)
    },

    async review(
      instanceId: string,
      configId: string,
      decision: 'approved' | 'rejected',
      comment: string,
      actor: ConfigActor,
      correlationId: string,
    ): Promise<ConfigVersionRecord> {
      const refusal = reviewRefusal(find(instanceId, configId), decision, actor)
      if (refusal) throw refusal
      const event = events.configVersionReviewed({
        instanceId,
        configId,
        decision,
        comment,
        reviewedBy: actor.keyId,
      })
      // Another reviewer may have been first; the fold kept theirs and this answer says so.
      if (!(await appendOne(event, correlationId)))
        throw reviewRefusal(find(instanceId, configId), decision, actor) ?? raceLost(configId)
      return find(instanceId, configId)
    },

    async apply(
      instanceId: string,
      configId: string,
      actor: ConfigActor,
      correlationId: string,
    ): Promise<ConfigVersionRecord> {
      const refusal = applyRefusal(find(instanceId, configId))
      if (refusal) throw refusal
      const event = events.configVersionApplied({ instanceId, configId, appliedBy: actor.keyId })
      if (!(await appendOne(event, correlationId)))
        throw applyRefusal(find(instanceId, configId)) ?? raceLost(configId)
      return find(instanceId, configId)
    },
  }
}

export type ConfigCommands = ReturnType<typeof createConfigCommands>
