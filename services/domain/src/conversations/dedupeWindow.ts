import { hash } from 'node:crypto'

/** Where a record sits in the log. */
export interface LogPosition {
  partition: number
  offset: number
}

/** What a record of an event id turned out to be, in the order of its partition. */
export type Occurrence = 'first' | 'repeat' | 'again'

export interface DedupeWindowStats {
  entries: number
  /** Entries let go before their time because the window was full: repeats of them are no longer recognised. */
  evictedEarly: number
  /** Age of the oldest event id still remembered (ms), or 0 when empty. */
  oldestMs: number
}

export interface DedupeWindow {
  /**
   * Records a record of the log, in partition order. `first`: no earlier record had this key; `repeat`: an earlier
   * record (another position) had it; `again`: this very record was observed before (a re-read).
   */
  observe(key: string, position: LogPosition, timestampMs: number): Occurrence
  /** The position of the first record with this key, if still in the window. */
  firstOf(key: string): LogPosition | undefined
  stats(): DedupeWindowStats
}

interface Entry {
  partition: number
  offset: number
  at: number
}

/**
 * The event ids recorded in the log over the last `windowMs`, each with the position of its first record. Every
 * gateway reads the same partitions in the same order, so every gateway agrees on which record of an id came first:
 * that record is the accepted one, any later one a duplicate. Memory is bounded by `maxEntries` (the oldest go
 * first, and are counted).
 */
export function createDedupeWindow(options: {
  windowMs: number
  maxEntries: number
  now?: () => number
}): DedupeWindow {
  const now = options.now ?? Date.now
  // Insertion order is observation order, roughly time order: expiry looks only at the oldest entries.
  const entries = new Map<string, Entry>()
  let evictedEarly = 0
  let sinceEviction = 0

  function evict(): void {
    sinceEviction = 0
    const cutoff = now() - options.windowMs
    for (const [key, entry] of entries) {
      if (entry.at >= cutoff && entries.size <= options.maxEntries) break
      if (entry.at >= cutoff) evictedEarly += 1
      entries.delete(key)
    }
  }

  return {
    observe(key, position, timestampMs) {
      const known = entries.get(key)
      if (known) {
        return known.partition === position.partition && known.offset === position.offset ? 'again' : 'repeat'
      }
      // Older than the window: a repeat of it would not be recognised anyway, so it is not worth the memory.
      if (timestampMs < now() - options.windowMs) return 'first'
      entries.set(key, { partition: position.partition, offset: position.offset, at: timestampMs })
      // Expiry in rounds: looking at the oldest entry for every record costs more than it saves.
      if ((sinceEviction += 1) >= 1000 || entries.size > options.maxEntries) evict()
      return 'first'
    },
    firstOf(key) {
      const entry = entries.get(key)
      return entry ? { partition: entry.partition, offset: entry.offset } : undefined
    },
    stats() {
      evict()
      const oldest = entries.values().next().value
      return { entries: entries.size, evictedEarly, oldestMs: oldest ? Math.max(0, now() - oldest.at) : 0 }
    },
  }
}

/**
 * The identity of a client event id: unique within its conversation (one conversation is one partition, so "first"
 * is well defined). Hashed to 96 bits: short keys keep the window small, and a collision (which would make a new
 * event look recorded) needs about 2^48 ids. `crypto.hash` is the one-shot form: no hash object per call on the
 * hot path.
 */
export function eventIdentity(instanceId: string, conversationId: string, eventId: string): string {
  return hash('sha1', JSON.stringify([instanceId, conversationId, eventId]), 'base64url').slice(0, 16)
}
