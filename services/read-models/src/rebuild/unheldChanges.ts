import type { MemoryChanged } from '@memory-service/contracts'

/**
 * Of a batch, the changes the store does not hold yet: per memory the latest event, kept when it is a memory the store
 * lacks (or holds at an older version), or a deletion (withheld, or deleted) of one the store still holds. A memory
 * the store already holds at its version is identical and not written again: rewriting an index's documents costs
 * the searches on it (new segments, merges), so only what the policy changed is written.
 */
export function unheldChanges<Event extends { payload: MemoryChanged }>(
  events: Event[],
  held: Map<string, number>,
): Event[] {
  const latest = new Map<string, Event>()
  for (const event of events) {
    const known = latest.get(event.payload.memory_id)
    if (!known || known.payload.version < event.payload.version) latest.set(event.payload.memory_id, event)
  }
  return [...latest.values()].filter(({ payload }) => {
    const version = held.get(payload.memory_id)
    return payload.change === 'deleted'
      ? version !== undefined && version <= payload.version
      : version === undefined || version < payload.version
  })
}
