import { createCoalescer } from '@memory-service/domain'
import type { EncodedEvent, EventProducer, RecordPosition } from './eventProducer.js'
import type { OutgoingEvent } from '@memory-service/domain'

export interface EventAppender {
  /** Resolves once the events are in the log (acks=all), with where each landed, in the order given. */
  append(topic: string, events: OutgoingEvent[]): Promise<RecordPosition[]>
}

/**
 * Merges concurrent appends into one produce request. The idempotent producer has one request in flight at a time,
 * so workers that each append a few events would queue behind one another. Each append is encoded before it joins
 * the queue (while the request ahead of it is in flight, and so that an event its schema refuses fails only its
 * own append). A merged request that fails is retried append by append, so an event that cannot be written fails
 * only its own caller.
 */
export function createCoalescingAppender(
  producer: Pick<EventProducer, 'encode' | 'sendEncoded'>,
  options: { maxEvents?: number } = {},
): EventAppender {
  const send = createCoalescer<{ topic: string; messages: EncodedEvent[] }, RecordPosition[]>({
    maxSize: options.maxEvents ?? 1000,
    sizeOf: (request) => request.messages.length,
    async run(requests) {
      const produced = await producer.sendEncoded(requests)
      // Within a topic-partition, records take consecutive offsets from the base, in the order they were sent.
      const base = new Map(
        produced.map((batch) => [`${batch.partition}@${batch.topic}`, Number(batch.baseOffset)]),
      )
      const next = new Map(base)
      return requests.map(({ topic, messages }) =>
        messages.map(({ partition }) => {
          const key = `${partition}@${topic}`
          const offset = next.get(key) ?? -1
          next.set(key, offset + 1)
          return { partition, offset, batchStart: base.get(key) ?? -1 }
        }),
      )
    },
  })
  return {
    async append(topic, events) {
      if (events.length === 0) return []
      return send({ topic, messages: await producer.encode(topic, events) })
    },
  }
}
