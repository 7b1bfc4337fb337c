import { randomUUID } from 'node:crypto'
import type { MemoryChanged } from '@memory-service/contracts'
import {
  factSlotOfReading,
  validityChanges,
  type FactVersion,
  type MemoryState,
  type Validity,
} from '@memory-service/domain'
import type { FactReader } from '@memory-service/engines'

/** A stored memory that states a fact, at the version the projection holds. */
export interface StoredFactVersion {
  version: number
  memory: MemoryState
}

export interface FactScope {
  user_id: string | null
  customer_id: string | null
}

/** One fact of one scope: the memories that share its key are its versions. */
export interface FactOf {
  instanceId: string
  scope: FactScope
  key: string
  /** The memory whose arrival, edit or removal asks for the fact to be settled (the cause of the updates). */
  cause: string
}

export interface FactPorts {
  /** Every stored version of these facts in the scope, including versions stored a moment ago. */
  factVersions(instanceId: string, scope: FactScope, keys: string[]): Promise<StoredFactVersion[]>
  /**
   * Memories of this speaker in the scope that state no fact, became true before `before`, nearest in meaning to
   * `vector` first: a statement that said the fact in other words ("Accra heat today is something else") may be an
   * older version of a fact stated now ("I moved to Toronto").
   */
  unstatedVersions?(
    instanceId: string,
    scope: FactScope,
    query: { speaker: string; vector: number[]; before: string; key: string },
  ): Promise<StoredFactVersion[]>
  /**
   * The fact reader of the memories' model (services/language): an older statement is read as a version of a fact
   * stated now when it reads as that attribute's value of the same speaker. Without it, only an older statement
   * naming the value the new one says it replaced is.
   */
  factReader?: () => Promise<FactReader>
  publishMemories(events: MemoryChanged[], correlationId: string): Promise<void>
  /** Resolves once every event's version is readable from the vector projection (false after a timeout). */
  awaitProjected(events: MemoryChanged[]): Promise<boolean>
}

const rounds = 3

const wordsPattern = (words: string) =>
  new RegExp(
    `(?<![\\p{L}\\d])${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}(?![\\p{L}\\d])`,
    'giu',
  )

/** Whether a text has these words, whole and in this order, whatever their case. */
function mentionsWords(text: string, words: string): boolean {
  return wordsPattern(words).test(text)
}

/** A key of a value added beside others ("we also got a cat": `leilani|pet|miso`). */
const isAddedValue = (key: string) => key.split('|').length > 2

function versionOf(memory: MemoryState): FactVersion {
  return {
    id: memory.id,
    value: memory.fact?.value ?? '',
    valid_from: memory.valid_from ?? '',
    valid_to: memory.valid_to ?? null,
    superseded_by: memory.superseded_by ?? null,
  }
}

/** The facts these memory events state, one per scope and key. */
export function factsOf(events: MemoryChanged[]): FactOf[] {
  const facts = new Map<string, FactOf>()
  for (const { memory, memory_id, instance_id } of events) {
    if (!memory.fact) continue
    const scope = { user_id: memory.scope.user_id, customer_id: memory.scope.customer_id }
    const name = JSON.stringify([instance_id, scope.user_id, scope.customer_id, memory.fact.key])
    if (!facts.has(name))
      facts.set(name, { instanceId: instance_id, scope, key: memory.fact.key, cause: memory_id })
  }
  return [...facts.values()]
}

const nameOf = (fact: FactOf) =>
  JSON.stringify([fact.instanceId, fact.scope.user_id, fact.scope.customer_id, fact.key])

/**
 * Keeps the versions of each fact in a scope consistent: a new memory that states a fact gets the validity the whole
 * set of versions gives it, and stored versions whose validity that changes get a new version (an `updated` event
 * caused by supersession, so history and replays see it). One fact is settled by one writer at a time in a process;
 * a version another process stored meanwhile is reconciled once the writer's own change is visible (whichever of the
 * two settles last sees both).
 */
export function createFactSupersession(ports: FactPorts, now: () => Date) {
  const held = new Map<string, Promise<void>>()

  /** Waits until no other writer of this process settles these facts; resolves with the release. */
  async function lock(facts: FactOf[]): Promise<() => void> {
    const releases: (() => void)[] = []
    // One order for every writer, so two writers of overlapping facts cannot wait for each other.
    for (const name of [...new Set(facts.map(nameOf))].sort()) {
      const before = held.get(name) ?? Promise.resolve()
      let release: () => void = () => undefined
      const mine = new Promise<void>((resolve) => (release = resolve))
      const chained = before.then(() => mine)
      held.set(name, chained)
      await before
      releases.push(() => {
        release()
        if (held.get(name) === chained) held.delete(name)
      })
    }
    return () => releases.forEach((release) => release())
  }

  function updateOf(stored: StoredFactVersion, validity: Validity, cause: string, at: string): MemoryChanged {
    return {
      type: 'memory_changed',
      change: 'updated',
      event_id: randomUUID(),
      memory_id: stored.memory.id,
      instance_id: stored.memory.instance_id,
      version: stored.version + 1,
      changed_at: at,
      memory: { ...stored.memory, ...validity },
      cause: { kind: 'supersession', memory_id: cause },
    }
  }

  async function storedVersions(fact: FactOf): Promise<StoredFactVersion[]> {
    const stored = await ports.factVersions(fact.instanceId, fact.scope, [fact.key])
    return stored.filter(({ memory }) => memory.fact?.key === fact.key)
  }

  /**
   * Older memories of the fact's subject that stated another value of its attribute in other words, read as versions
   * of it now that it is stated: their fact set, so that supersession ends them as any version. An older statement
   * naming the value the new one says it replaced ("moved from Leeds") had that value; any other is read by the fact
   * reader as a version of the attribute ("the takoyaki place near my apartment in Osaka" once "we moved to Sapporo"
   * arrives).
   */
  async function unstated(
    fact: FactOf,
    arriving: MemoryChanged[],
    newIds: Set<string>,
    previousOf: ReadonlyMap<string, string>,
  ): Promise<StoredFactVersion[]> {
    const first = arriving[0]?.memory
    const [subject, attribute, named] = fact.key.split('|')
    const speaker = first?.speaker
    // A value held beside others ("we also got a cat") ends none of them.
    if (!ports.unstatedVersions || !first || !speaker || !subject || !attribute || named !== undefined)
      return []
    if (speaker.toLowerCase() !== subject) return []
    const previous = arriving.flatMap(({ memory_id }) => {
      const words = previousOf.get(memory_id)
      return words ? [words] : []
    })
    const reader = ports.factReader ? await ports.factReader().catch(() => null) : null
    if (!reader && previous.length === 0) return []
    const candidates = await ports.unstatedVersions(fact.instanceId, fact.scope, {
      speaker,
      vector: first.embedding.vector,
      before: first.valid_from ?? first.created_at,
      key: fact.key,
    })
    const versions: StoredFactVersion[] = []
    for (const candidate of candidates) {
      if (newIds.has(candidate.memory.id) || candidate.memory.fact?.key === fact.key) continue
      const replaced = previous.find((words) => mentionsWords(candidate.memory.content, words))
      // A memory read as another fact is read again as a version of this one (the topic reader may have leaned to a
      // neighbouring attribute: a neighbourhood for a residence), unless that fact already ended it or another; a
      // value held beside others only when the new statement names it as the one it replaced.
      const stated = candidate.memory.fact
      if (stated && (candidate.memory.valid_to || candidate.memory.superseded_by)) continue
      if (stated && isAddedValue(stated.key) && !replaced) continue
      const reading = replaced
        ? { attribute, value: replaced, replaces: true }
        : reader
          ? await reader.read(
              { content: candidate.memory.content, speaker, vector: candidate.memory.embedding.vector },
              { asVersionOf: attribute },
            )
          : null
      const read = reading ? factSlotOfReading(reading, speaker) : null
      if (!read || read.key !== fact.key) continue
      if (arriving.some(({ memory }) => memory.fact?.value === read.value)) continue
      versions.push({ ...candidate, memory: { ...candidate.memory, fact: read } })
    }
    return versions
  }

  /**
   * Gives new memories (not yet appended) their validity against what is stored, and returns the updates of stored
   * versions that changes, to be appended with them.
   */
  async function supersede(
    memories: MemoryChanged[],
    /** Older versions named from outside (the model's update decisions), their fact set. */
    named: StoredFactVersion[] = [],
    /** What each new memory says its value replaced ("moved from Leeds"), by memory id. */
    previousOf: ReadonlyMap<string, string> = new Map(),
  ): Promise<MemoryChanged[]> {
    const newIds = new Set(memories.map(({ memory_id }) => memory_id))
    const at = now().toISOString()
    const updates: MemoryChanged[] = []
    for (const fact of factsOf(memories)) {
      const arriving = memories.filter(({ memory }) => memory.fact?.key === fact.key)
      const stored = (await storedVersions(fact)).filter(({ memory }) => !newIds.has(memory.id))
      const given = named.filter(({ memory }) => memory.fact?.key === fact.key && !newIds.has(memory.id))
      const read = given.length > 0 ? [] : await unstated(fact, arriving, newIds, previousOf)
      const earlier = [
        ...stored.filter(({ memory }) => !given.some((other) => other.memory.id === memory.id)),
        ...given,
        ...read,
      ]
      const versions = [...earlier, ...arriving].map(({ memory }) => versionOf(memory))
      for (const { id, validity } of validityChanges(versions)) {
        const created = arriving.find(({ memory_id }) => memory_id === id)
        if (created) Object.assign(created.memory, validity)
        const previous = earlier.find(({ memory }) => memory.id === id)
        if (previous) updates.push(updateOf(previous, validity, fact.cause, at))
      }
    }
    return updates
  }

  /**
   * Once the writer's own change is visible: appends the validity every stored version of these facts should have and
   * does not (a version another process stored at the same time, or one whose successor was deleted or edited away),
   * until none is left. Resolves with how many updates it appended.
   */
  async function reconcile(facts: FactOf[], correlationId: string): Promise<number> {
    let appended = 0
    for (let round = 0; round < rounds; round += 1) {
      const at = now().toISOString()
      const updates: MemoryChanged[] = []
      for (const fact of facts) {
        const versions = await storedVersions(fact)
        for (const { id, validity } of validityChanges(versions.map(({ memory }) => versionOf(memory)))) {
          const previous = versions.find(({ memory }) => memory.id === id)
          if (previous) updates.push(updateOf(previous, validity, fact.cause, at))
        }
      }
      if (updates.length === 0) return appended
      await ports.publishMemories(updates, correlationId)
      await ports.awaitProjected(updates)
      appended += updates.length
    }
    return appended
  }

  return { lock, supersede, reconcile }
}
