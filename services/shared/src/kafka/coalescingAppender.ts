import { createCoalescer } from '../batching/coalescer.js'
import type { EventProducer, OutgoingEvent } from './eventProducer.js'

export interface EventAppender {
  /** Resolves once the events are in the log (acks=all). */
  append(topic: string, events: OutgoingEvent[]): Promise<void>
}

/**
 * Merges concurrent appends into one produce request. The idempotent producer has one request in flight at a time,
 * so workers that each append a few events would queue behind one another. A merged request that fails is retried
 * append by append, so an event that cannot be written fails only its own caller.
 */
export function createCoalescingAppender(
  producer: EventProducer,
  options: { maxEvents?: number } = {},
): EventAppender {
  const append = createCoalescer<{ topic: string; events: OutgoingEvent[] }, undefined>({
    maxSize: options.maxEvents ?? 1000,
    sizeOf: (request) => request.events.length,
    async run(requests) {
      await producer.appendMany(requests)
      return requests.map(() => undefined)
    },
  })
  return {
    append: (topic, events) => (events.length === 0 ? Promise.resolve() : append({ topic, events })),
  }
}
