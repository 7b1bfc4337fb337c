import type { EventAppender } from './coalescingAppender.js'
import type { OutgoingEvent } from '@memory-service/domain'

export interface BackgroundAppender {
  /** Takes events to append soon; never waits and never throws (a failed append is reported to `onError`). */
  record(events: OutgoingEvent[]): void
  /** Appends what is held now; resolves once it is in the log (or failed). */
  flush(): Promise<void>
}

/**
 * For events nobody waits for (usage records): they are held for up to `lingerMs` and appended together, so a
 * request does not pay a produce of its own after its answer, and the next request's write does not queue behind
 * it.
 */
export function createBackgroundAppender(
  appender: EventAppender,
  topic: string,
  options: {
    onError(error: unknown, count: number): void
    /** @default 100 */
    lingerMs?: number
    /** Held events that trigger an append at once. @default 1000 */
    maxEvents?: number
    /** Runs `flush` after `ms` (injected by tests). @default setTimeout, unref'd */
    schedule?: (flush: () => void, ms: number) => void
  },
): BackgroundAppender {
  const lingerMs = options.lingerMs ?? 100
  const maxEvents = options.maxEvents ?? 1000
  const schedule =
    options.schedule ??
    ((flush: () => void, ms: number) => {
      setTimeout(flush, ms).unref()
    })
  let held: OutgoingEvent[] = []
  let scheduled = false

  async function flush(): Promise<void> {
    scheduled = false
    const events = held
    held = []
    if (events.length === 0) return
    try {
      await appender.append(topic, events)
    } catch (error) {
      options.onError(error, events.length)
    }
  }

  return {
    record(events) {
      held.push(...events)
      if (held.length >= maxEvents) void flush()
      else if (!scheduled && held.length > 0) {
        scheduled = true
        schedule(() => void flush(), lingerMs)
      }
    },
    flush,
  }
}
