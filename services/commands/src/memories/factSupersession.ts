import { randomUUID } from 'node:crypto'
import type { MemoryChanged } from '@memory-service/contracts'
import {
  endedValuesOf,
  isAdditiveAttribute,
  isMeaningAttribute,
  needsItsMessageToSettle,
  normalizedFactValue,
  readsAsAbout,
  readsAsNoFact,
  recognizeFact,
  type AttributeSimilarities,
  validityChanges,
  wordsForEndedValue,
  type FactVersion,
  type MemoryState,
  type Validity,
} from '@memory-service/domain'

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
    query: { speaker: string; vector: number[]; before: string },
  ): Promise<StoredFactVersion[]>
  /**
   * Which changing attribute a statement's vector reads as (by the memories' model): an older statement is read as a
   * version of a fact only when its meaning is likeliest that attribute, or when it names what the new statement
   * says was left ("I left Shopee"). Without it, only the names of what was left are read so.
   */
  attributeReader?: () => Promise<{ read(vector: readonly number[]): AttributeSimilarities }>
  /** Every stored version of the scope's facts whose key starts so (`ana|favorite:`: Ana's favourites). */
  factVersionsStartingWith?(
    instanceId: string,
    scope: FactScope,
    prefix: string,
  ): Promise<StoredFactVersion[]>
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

/**
 * Whether a text writes these words as a name: capitalized inside a sentence ("rewatching The Office", "Reading The
 * Hobbit to…" once "the office has been dethroned" or "overtaken the hobbit" arrives, written in lower case there).
 */
function writesAsName(text: string, words: string): boolean {
  for (const match of text.matchAll(wordsPattern(words))) {
    const opensSentence = /(?:^|[.!?:]\s*)$/u.test(text.slice(0, match.index))
    if (/^\p{Lu}/u.test(match[0]) && !opensSentence) return true
  }
  return false
}

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

type EndedValues = ReturnType<typeof endedValuesOf>

/**
 * What each speaker's statements among these memories say was left or ended ("I left Shopee", "RIP Bubbles"), read
 * once per speaker however many of their memories ask.
 */
function endedValuesBySpeaker(memories: MemoryChanged[]): (speaker: string) => EndedValues {
  const bySpeaker = new Map<string, EndedValues>()
  return (speaker) => {
    let ended = bySpeaker.get(speaker)
    if (!ended) {
      ended = memories
        .filter(({ memory }) => memory.speaker === speaker)
        .flatMap(({ memory }) => endedValuesOf(memory.content, speaker))
      bySpeaker.set(speaker, ended)
    }
    return ended
  }
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
   * of it now that it is stated outright: their fact set, so that supersession ends them as any version.
   */
  async function unstated(
    fact: FactOf,
    arriving: MemoryChanged[],
    newIds: Set<string>,
    /** What the speakers of the document's new memories say was left: it may be what the fact replaced. */
    endedBy: (speaker: string) => EndedValues,
  ): Promise<StoredFactVersion[]> {
    const first = arriving[0]?.memory
    const [subject, attribute] = fact.key.split('|')
    // A pet or a sport versions only the one the document says ended (withSettledKeys), never by meaning alone.
    const additive = attribute !== undefined && isAdditiveAttribute(attribute)
    const speaker = first?.speaker
    if (!ports.unstatedVersions || !first || !speaker || !subject || !attribute) return []
    if (speaker.toLowerCase() !== subject) return []
    // What the new statement, or another of the speaker's in its document, says was left ("I left Shopee", "the
    // office has officially been dethroned. Severance is my favourite show now"): an older statement naming it had
    // that value.
    const ended = endedBy(speaker)
    const meaning = isMeaningAttribute(attribute) ? attribute : undefined
    const reader = meaning && ports.attributeReader ? await ports.attributeReader().catch(() => null) : null
    if (!reader && ended.length === 0) return []
    const candidates = await ports.unstatedVersions(fact.instanceId, fact.scope, {
      speaker,
      vector: first.embedding.vector,
      before: first.valid_from ?? first.created_at,
    })
    return candidates.flatMap((candidate) => {
      if (newIds.has(candidate.memory.id) || candidate.memory.fact) return []
      const similarities = reader?.read(candidate.memory.embedding.vector) ?? null
      const about = meaning !== undefined && similarities !== null && readsAsAbout(meaning, similarities)
      // A name is enough; a common word ("keto", "the hobbit") only where the statement reads as about the attribute
      // or writes it as a name ("Reading The Hobbit to my nephew"). A pet or a sport only in a statement about one:
      // "Left Google, so we finally adopted a dog" ends no statement about Google.
      const left = ended.find(({ value, named }) =>
        additive
          ? about &&
            wordsForEndedValue(attribute, value).some((words) =>
              mentionsWords(candidate.memory.content, words),
            )
          : named || about
            ? mentionsWords(candidate.memory.content, value)
            : writesAsName(candidate.memory.content, value),
      )
      // Read as a version when the reader finds it about the attribute, or when its words show a value's role
      // ("the hotfix at CD Projekt" once "I joined Revolut" arrives): the newer statement already names the attribute.
      const read = left
        ? { subject, attribute, value: normalizedFactValue(left.value), key: fact.key }
        : meaning && !additive && similarities && !readsAsNoFact(similarities)
          ? recognizeFact(
              candidate.memory.content,
              speaker,
              {},
              { asVersionOf: meaning, evidentOnly: !about },
            )
          : null
      if (!read || read.key !== fact.key) return []
      if (arriving.some(({ memory }) => memory.fact?.value === read.value)) return []
      return [{ ...candidate, memory: { ...candidate.memory, fact: read } }]
    })
  }

  /**
   * Settles the keys of facts whose versions depend on what else the document says, before they are locked:
   *
   * - a favourite told without its kind ("Ghost has overtaken Metallica as my number one", "boygenius has taken the
   *   top spot") takes the kind of the favourite it replaced: the speaker's current favourite whose value the document
   *   says was replaced, else the speaker's only current kind of favourite. Without either it states no fact: a kind
   *   is what a question asks for ("What's Greta's favourite band?");
   * - a pet or a sport is no version of the last one (people have several), except of one the document says ended
   *   ("RIP Bubbles, we got a puppy", "the hamster passed away … now we have two rabbits"): its key names what ended,
   *   so only the statements of that one become its older versions. Otherwise it states no fact.
   */
  async function withSettledKeys(memories: MemoryChanged[]): Promise<void> {
    const endedBy = endedValuesBySpeaker(memories)
    for (const { memory, instance_id } of memories) {
      const fact = memory.fact
      if (!fact || !needsItsMessageToSettle(fact.attribute)) continue
      const speaker = memory.speaker
      const ended = speaker
        ? endedBy(speaker).filter(({ value }) => normalizedFactValue(value) !== fact.value)
        : []
      if (isAdditiveAttribute(fact.attribute)) {
        const left = ended[0]
        if (left)
          memory.fact = {
            ...fact,
            key: `${fact.subject}|${fact.attribute}|${normalizedFactValue(left.value)}`,
          }
        else delete memory.fact
        continue
      }
      const scope = { user_id: memory.scope.user_id, customer_id: memory.scope.customer_id }
      const stored = ports.factVersionsStartingWith
        ? await ports.factVersionsStartingWith(instance_id, scope, `${fact.subject}|favorite:`)
        : []
      const current = stored.flatMap(({ memory: other }) =>
        other.fact && other.fact.value !== fact.value && (other.valid_to ?? null) === null
          ? [other.fact]
          : [],
      )
      const replaced = current.find((other) =>
        ended.some(({ value }) => mentionsWords(other.value, value) || mentionsWords(value, other.value)),
      )
      const kinds = [...new Set(current.map((other) => other.attribute))]
      const attribute = replaced?.attribute ?? (kinds.length === 1 ? kinds[0] : undefined)
      if (attribute) memory.fact = { ...fact, attribute, key: `${fact.subject}|${attribute}` }
      else delete memory.fact
    }
  }

  /**
   * Gives new memories (not yet appended) their validity against what is stored, and returns the updates of stored
   * versions that changes, to be appended with them.
   */
  async function supersede(
    memories: MemoryChanged[],
    /** Older versions named from outside (the model's update decisions), their fact set. */
    named: StoredFactVersion[] = [],
  ): Promise<MemoryChanged[]> {
    const newIds = new Set(memories.map(({ memory_id }) => memory_id))
    const at = now().toISOString()
    const updates: MemoryChanged[] = []
    const endedBy = endedValuesBySpeaker(memories)
    for (const fact of factsOf(memories)) {
      const arriving = memories.filter(({ memory }) => memory.fact?.key === fact.key)
      const stored = (await storedVersions(fact)).filter(({ memory }) => !newIds.has(memory.id))
      const given = named.filter(({ memory }) => memory.fact?.key === fact.key && !newIds.has(memory.id))
      const read = given.length > 0 ? [] : await unstated(fact, arriving, newIds, endedBy)
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

  return { withSettledKeys, lock, supersede, reconcile }
}
