import type { ControlPlane } from '@memory-service/log'
import {
  createControlEventFactory,
  projectionPolicy,
  type PolicyLookup,
  type ProjectionPolicy,
  type ServedEmbeddings,
} from '@memory-service/domain'
import { createConfigCommands } from './configCommands.js'

/** Each instance's projection policy from its active configuration version, computed once per version. */
export function createPolicyLookup(control: ControlPlane, served: ServedEmbeddings): PolicyLookup {
  const configs = createConfigCommands(control, createControlEventFactory(), served)
  const policies = new Map<string, ProjectionPolicy>()
  const defaults = projectionPolicy(configs.effective(''))
  return (instanceId) => {
    const activeId = control.state.configs.active.get(instanceId)
    if (!activeId) return defaults
    let policy = policies.get(activeId)
    if (!policy) policies.set(activeId, (policy = projectionPolicy(configs.effective(instanceId))))
    return policy
  }
}
