import type { EventProducer, OutgoingEvent } from './eventProducer.js'

export interface EventAppender {
  /** Resolves once the events are in the log (acks=all). */
  append(topic: string, events: OutgoingEvent[]): Promise<void>
}

/**
 * Merges concurrent appends into one produce request. The idempotent producer has one request in flight at a time,
 * so workers that each append a few events would queue behind one another; while a request is in flight the next
 * appends wait and then go together. A merged request that fails is retried append by append, so an event that
 * cannot be written fails only its own caller.
 */
export function createCoalescingAppender(
  producer: EventProducer,
  options: { maxEvents?: number } = {},
): EventAppender {
  const maxEvents = options.maxEvents ?? 1000
  const queue: { topic: string; events: OutgoingEvent[]; resolve(): void; reject(error: unknown): void }[] =
    []
  let running = false

  async function drain(): Promise<void> {
    running = true
    while (queue.length > 0) {
      const batch: typeof queue = []
      let size = 0
      while (queue.length > 0 && (batch.length === 0 || size + (queue[0]?.events.length ?? 0) <= maxEvents)) {
        const next = queue.shift() as (typeof queue)[number]
        batch.push(next)
        size += next.events.length
      }
      try {
        await producer.appendMany(batch)
        for (const request of batch) request.resolve()
      } catch (error) {
        if (batch.length === 1) {
          batch[0]?.reject(error)
          continue
        }
        for (const request of batch) {
          await producer.appendMany([request]).then(
            () => request.resolve(),
            (error: unknown) => request.reject(error),
          )
        }
      }
    }
    running = false
  }

  return {
    append(topic, events) {
      if (events.length === 0) return Promise.resolve()
      return new Promise<void>((resolve, reject) => {
        queue.push({ topic, events, resolve, reject })
        if (!running) void drain()
      })
    },
  }
}
