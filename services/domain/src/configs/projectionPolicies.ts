import type { MemoryChanged } from '@memory-service/contracts'
import type { ProjectionPolicy } from './architectureConfig.js'

/** The projection policy of an instance: what its active configuration says each projection stores. */
export type PolicyLookup = (instanceId: string) => ProjectionPolicy

/**
 * Memories a projection does not store under their instance's configuration become deletions at their version:
 * a memory that was stored before the configuration changed is removed, and its tombstone keeps an older event
 * from bringing it back. A later version that qualifies is stored again.
 */
export function withheldAsDeletions<Event extends { payload: MemoryChanged }>(
  events: Event[],
  projection: keyof ProjectionPolicy,
  policyOf: PolicyLookup,
): Event[] {
  return events.map((event) => {
    const { payload } = event
    if (payload.change === 'deleted' || policyOf(payload.instance_id)[projection](payload.memory))
      return event
    return { ...event, payload: { ...payload, change: 'deleted' } }
  })
}
