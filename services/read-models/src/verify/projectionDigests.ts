/**
 * What `memory-service verify` compares: for each instance, the entries a projection holds (a memory at a version,
 * a conversation turn) as a count and a hash, computed the same way from the log (what a fresh rebuild would write)
 * and from the live store. Pure: the reading is done by verifyProjections.ts.
 */
import { createHash } from 'node:crypto'
import type { ConversationEventRecorded, MemoryChanged, UserDataErased } from '@memory-service/contracts'

export interface InstanceDigest {
  count: number
  hash: string
  /** The entries themselves, sorted, to name what differs. */
  entries: string[]
}

export type Digests = Map<string, InstanceDigest>

/** Groups entries (instance id, entry key) into one digest per instance: sorted keys, their count and sha256. */
export function digestsOf(entries: Iterable<{ instanceId: string; key: string }>): Digests {
  const byInstance = new Map<string, Set<string>>()
  for (const { instanceId, key } of entries) {
    const keys = byInstance.get(instanceId) ?? new Set<string>()
    keys.add(key)
    byInstance.set(instanceId, keys)
  }
  const digests: Digests = new Map()
  for (const [instanceId, keys] of byInstance) {
    const sorted = [...keys].sort()
    const hash = createHash('sha256')
    for (const key of sorted) hash.update(key).update('\n')
    digests.set(instanceId, { count: sorted.length, hash: hash.digest('hex').slice(0, 16), entries: sorted })
  }
  return digests
}

/**
 * The memories a fresh rebuild leaves: for each memory its highest version, unless that change deleted it (or the
 * instance's configuration withholds it, which the caller has already turned into a deletion). Key: `id@version`.
 */
export function expectedMemories(
  events: Iterable<Pick<MemoryChanged, 'memory_id' | 'instance_id' | 'version' | 'change'>>,
): { instanceId: string; key: string }[] {
  const latest = new Map<string, { instanceId: string; version: number; deleted: boolean }>()
  for (const event of events) {
    const known = latest.get(event.memory_id)
    if (known && known.version >= event.version) continue
    latest.set(event.memory_id, {
      instanceId: event.instance_id,
      version: event.version,
      deleted: event.change === 'deleted',
    })
  }
  return [...latest].flatMap(([id, { instanceId, version, deleted }]) =>
    deleted ? [] : [{ instanceId, key: memoryKey(id, version) }],
  )
}

export const memoryKey = (id: string, version: number): string => `${id}@${String(version)}`

/**
 * The turns a fresh rebuild leaves: every recorded event once (by conversation and event id, however often the log
 * holds it), except an erased user's turns received before the erasure. Key: the turn's document id.
 */
export function expectedTurns(
  events: Iterable<ConversationEventRecorded | UserDataErased>,
  documentIdOf: (instanceId: string, conversationId: string, eventId: string) => string,
): { instanceId: string; key: string }[] {
  const turns: ConversationEventRecorded[] = []
  const erasedAt = new Map<string, string>()
  for (const event of events) {
    if (event.type === 'user_data_erased') {
      const key = `${event.instance_id}/${event.user_id}`
      const known = erasedAt.get(key)
      if (known === undefined || event.erased_at > known) erasedAt.set(key, event.erased_at)
    } else turns.push(event)
  }
  return turns.flatMap((turn) => {
    const erased = erasedAt.get(`${turn.instance_id}/${turn.user_id}`)
    if (erased !== undefined && turn.received_at <= erased) return []
    return [
      {
        instanceId: turn.instance_id,
        key: documentIdOf(turn.instance_id, turn.conversation_id, turn.event_id),
      },
    ]
  })
}

export interface InstanceDrift {
  instance_id: string
  expected: { count: number; hash: string }
  actual: { count: number; hash: string }
  /** A few entries the log has and the projection lacks (or holds at another version). */
  missing: string[]
  /** A few entries the projection has and the log does not explain. */
  unexpected: string[]
}

/** Every instance whose projection differs from the log, with samples of the difference. */
export function driftBetween(expected: Digests, actual: Digests, sampleSize = 5): InstanceDrift[] {
  const drift: InstanceDrift[] = []
  const none: InstanceDigest = { count: 0, hash: '', entries: [] }
  for (const instanceId of [...new Set([...expected.keys(), ...actual.keys()])].sort()) {
    const want = expected.get(instanceId) ?? none
    const have = actual.get(instanceId) ?? none
    if (want.hash === have.hash && want.count === have.count) continue
    const held = new Set(have.entries)
    const logged = new Set(want.entries)
    drift.push({
      instance_id: instanceId,
      expected: { count: want.count, hash: want.hash },
      actual: { count: have.count, hash: have.hash },
      missing: want.entries.filter((entry) => !held.has(entry)).slice(0, sampleSize),
      unexpected: have.entries.filter((entry) => !logged.has(entry)).slice(0, sampleSize),
    })
  }
  return drift
}
