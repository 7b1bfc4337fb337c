import { randomUUID } from 'node:crypto'
import type { MemoryChanged, MemoryUpdateRequest } from '@memory-service/contracts'
import type { Embedder } from '@memory-service/engines'
import {
  AppError,
  contextualTextOf,
  isExpired,
  factSlotOfReading,
  isAssistantSpeaker,
  utcInstantOf,
} from '@memory-service/domain'
import { createFactSupersession, factsOf, type FactPorts } from './factSupersession.js'
import type { EventProducer, PartitionReader } from '@memory-service/log'
import type { SchemaCodec } from '@memory-service/engines'
import {
  MEMORIES_TOPIC,
  MEMORY_SUBJECT,
  memoryDocumentOf,
  type ContentAnalysis,
  type MemoryState,
} from '@memory-service/domain'
import { memoryStateOf, type MemoryStore, type StoredMemory } from '@memory-service/read-models'

export interface MemoryEditorOptions {
  store: MemoryStore
  producer: EventProducer
  embedder: Embedder
  analyze(content: string, memory: MemoryState): ContentAnalysis
  merge(
    existing: string,
    incoming: string,
    strategy: NonNullable<MemoryUpdateRequest['merge_strategy']>,
  ): string
  /** How long a write waits for its own change to be projected before answering (read-your-writes). */
  visibilityTimeoutMs?: number
  /** Decides an edit from the log itself when the projection has not shown it in time. */
  changeLog?: MemoryChangeLog
  /** The fact reader of the memories' model, as ingestion reads facts (services/language). */
  factReader?: FactPorts['factReader']
  now?: () => Date
}

/** A memory's changes as the log holds them, ahead of what the projection shows. */
export interface MemoryChangeLog {
  /** The next offset of a partition of the memories topic that the projection has not handled yet. */
  projectedUpTo(partition: number): Promise<number>
  /**
   * The changes of one memory in [from, to) of a partition, in log order; undefined when the range could not be
   * read in time.
   */
  changesOf(
    memoryId: string,
    range: { partition: number; from: number; to: number },
  ): Promise<Pick<MemoryChanged, 'version' | 'change'>[] | undefined>
}

/**
 * The memories topic read back through a partition reader, measured against the consumer group of the projection
 * the editor waits for.
 */
export function createMemoryChangeLog(options: {
  reader: PartitionReader
  codec: SchemaCodec
  projectionGroup: string
  timeoutMs?: number
}): MemoryChangeLog {
  const timeoutMs = options.timeoutMs ?? 10_000
  return {
    projectedUpTo: (partition) =>
      options.reader.committedOffset(options.projectionGroup, MEMORIES_TOPIC, partition),
    async changesOf(memoryId, { partition, from, to }) {
      const values: Buffer[] = []
      const complete = await options.reader.read(
        { topic: MEMORIES_TOPIC, partition, from, to },
        (record) => {
          if (record.key === memoryId && record.value) values.push(record.value)
        },
        timeoutMs,
      )
      if (!complete) return undefined
      return Promise.all(values.map((value) => options.codec.decode<MemoryChanged>(value)))
    },
  }
}

/** What made a deletion: a DELETE (by default), or the memory's expiry coming. */
export type DeletionCause = { kind: 'api'; operation: 'delete' } | { kind: 'expiry' }

export interface MemoryEditor {
  /** @throws AppError NOT_FOUND when the memory does not exist in this instance, or has expired */
  update(
    instanceId: string,
    memoryId: string,
    patch: MemoryUpdateRequest,
    correlationId: string,
  ): Promise<StoredMemory>
  /**
   * Deletes the memory, expired or not.
   * @throws AppError NOT_FOUND when the memory does not exist in this instance
   */
  remove(instanceId: string, memoryId: string, correlationId: string, cause?: DeletionCause): Promise<void>
  /**
   * Records feedback on the memory: it holds the last feedback given (`rating: null` withdraws it). Feedback the
   * memory already holds changes nothing (`changed: false`), so a retried request appends nothing twice.
   * @throws AppError NOT_FOUND when the memory does not exist in this instance, or has expired
   */
  giveFeedback(
    instanceId: string,
    memoryId: string,
    feedback: GivenFeedback,
    correlationId: string,
  ): Promise<{ memory: StoredMemory; changed: boolean }>
}

/** Feedback as a caller gives it (POST /v1/memories/{memory_id}/feedback). */
export interface GivenFeedback {
  rating: FeedbackRating | null
  reason?: string | null
}

export type FeedbackRating = NonNullable<MemoryState['feedback']>['rating']

const attemptsOnConflict = 3

const unavailable = (reason: string, message: string, cause?: unknown) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    message,
    { retry_after_seconds: 2, reason },
    cause === undefined ? undefined : { cause },
  )

/** The stored form of a change the log decided for (the same the projection will write). */
function storedOf(change: MemoryChanged): StoredMemory {
  const { content_terms, ...stored } = memoryDocumentOf(change)
  return stored
}

/**
 * Changes to single memories, written as events like everything else. The editor reads the projected state,
 * appends the next version, and waits until the projection shows that version, so a read right after the answer
 * sees the change; when the projection lags behind that wait, the log itself decides the outcome (the change
 * becomes visible when the projection catches up). Two writers racing on one memory both append the same version; the projection keeps the first
 * in the log, and the loser (it finds another event's id at its version) retries on the new state.
 */
export function createMemoryEditor(options: MemoryEditorOptions): MemoryEditor {
  const now = options.now ?? (() => new Date())
  const visibilityTimeoutMs = options.visibilityTimeoutMs ?? 10_000

  async function current(
    instanceId: string,
    memoryId: string,
    { orExpired = false }: { orExpired?: boolean } = {},
  ): Promise<StoredMemory> {
    const stored = await options.store.get(memoryId, { withVector: true })
    // Another instance's memory is answered exactly like a missing one.
    if (stored?.instance_id !== instanceId) {
      throw new AppError('NOT_FOUND', 'Memory not found', { memory_id: memoryId })
    }
    // An expired memory is gone for every reader; its deletion is on its way (the expiry sweep).
    if (!orExpired && isExpired(stored, now().getTime())) {
      throw new AppError('NOT_FOUND', 'Memory expired', {
        memory_id: memoryId,
        reason: 'expired',
        expired_at: stored.expires_at,
      })
    }
    return stored
  }

  /** Appends one change; resolves with where it landed. */
  async function append(
    event: MemoryChanged,
    correlationId: string,
  ): Promise<{ partition: number; offset: number } | undefined> {
    try {
      const [landed] = await options.producer.append(MEMORIES_TOPIC, [
        { key: event.memory_id, subject: MEMORY_SUBJECT, payload: event, correlationId },
      ])
      return landed ? { partition: landed.partition, offset: Number(landed.baseOffset) } : undefined
    } catch (error) {
      throw unavailable('kafka_unavailable', 'The event log is unavailable; nothing was changed', error)
    }
  }

  async function embed(texts: string[]): Promise<number[][]> {
    try {
      return await options.embedder.embed(texts)
    } catch (error) {
      throw unavailable(
        'embedding_unavailable',
        'The embedding model is unavailable; nothing was changed',
        error,
      )
    }
  }

  // A change not visible in time may still be applied (it is in the log), or may have lost its version to a
  // concurrent change: the caller is told the outcome is unknown rather than that it succeeded.
  const lagging = () =>
    unavailable(
      'projection_lagging',
      'The change is in the log but not yet visible; read the memory to see whether it was applied',
    )
  const contended = () =>
    unavailable(
      'concurrent_updates',
      'The memory kept changing concurrently; nothing was changed by this request',
    )

  /** Resolves with what the projection holds once it reached `version`: ours, a rival's, or null if deleted. */
  async function projected(memoryId: string, version: number): Promise<StoredMemory | null | 'timeout'> {
    const deadline = Date.now() + visibilityTimeoutMs
    for (let delay = 5; Date.now() < deadline; delay = Math.min(delay * 2, 100)) {
      const stored = await options.store.get(memoryId)
      if (!stored || stored.version >= version) return stored
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
    return 'timeout'
  }

  /**
   * What the projection will hold once it reaches a change that it has not shown in time, decided from the log:
   * Elasticsearch keeps the first change of a memory at a version (external versioning), so ours is applied unless
   * an earlier record of the memory, not yet projected, has our version or a later one. Every record before the
   * projection group's committed offset is already in the store: re-reading the store after reading that offset
   * leaves only the records between it and ours to read.
   */
  async function decidedByLog(
    change: MemoryChanged,
    landed: { partition: number; offset: number } | undefined,
  ): Promise<StoredMemory | null | 'ours' | 'unknown'> {
    if (!options.changeLog || !landed) return 'unknown'
    try {
      const from = await options.changeLog.projectedUpTo(landed.partition)
      const stored = await options.store.get(change.memory_id)
      if (!stored || stored.version >= change.version) return stored
      const earlier = await options.changeLog.changesOf(change.memory_id, {
        partition: landed.partition,
        from,
        to: landed.offset,
      })
      if (!earlier) return 'unknown'
      const first = earlier.find((record) => record.version >= change.version)
      if (!first) return 'ours'
      return first.change === 'deleted' ? null : 'unknown'
    } catch {
      return 'unknown'
    }
  }

  /** The outcome of an appended change: what the store shows once it has it, or what the log says it will show. */
  async function outcomeOf(
    change: MemoryChanged,
    landed: { partition: number; offset: number } | undefined,
  ): Promise<StoredMemory | null> {
    const seen = await projected(change.memory_id, change.version)
    if (seen !== 'timeout') return seen
    const decided = await decidedByLog(change, landed)
    if (decided === 'unknown') throw lagging()
    if (decided === 'ours') return change.change === 'deleted' ? null : storedOf(change)
    return decided
  }

  function event(
    change: MemoryChanged['change'],
    stored: StoredMemory,
    memory: MemoryState,
    cause: NonNullable<MemoryChanged['cause']>,
  ): MemoryChanged {
    return {
      type: 'memory_changed',
      change,
      event_id: randomUUID(),
      memory_id: stored.id,
      instance_id: stored.instance_id,
      version: stored.version + 1,
      changed_at: now().toISOString(),
      memory,
      cause,
    }
  }

  // An edit or a deletion can change which version of a fact holds: the versions are settled again once it is seen.
  const facts = createFactSupersession(
    {
      async factVersions(instanceId, scope, keys) {
        const stored = await options.store.factVersions(instanceId, scope, keys)
        return stored.map((memory) => ({ version: memory.version, memory: memoryStateOf(memory) }))
      },
      async publishMemories(events, correlationId) {
        for (const change of events) await append(change, correlationId)
      },
      async awaitProjected(events) {
        const seen = await Promise.all(events.map((change) => projected(change.memory_id, change.version)))
        return seen.every((outcome) => outcome !== 'timeout')
      },
    },
    now,
  )
  async function settleFacts(changes: MemoryChanged[], correlationId: string): Promise<void> {
    const stated = factsOf(changes)
    if (stated.length === 0) return
    try {
      await facts.reconcile(stated, correlationId)
    } catch (error) {
      // The edit itself is done; the next change of the same fact settles its versions again.
      throw unavailable(
        'supersession_pending',
        'The change was applied; settling the validity of the fact it states failed, retry to settle it',
        error,
      )
    }
  }

  return {
    async update(instanceId, memoryId, patch, correlationId) {
      for (let attempt = 1; ; attempt += 1) {
        const stored = await current(instanceId, memoryId)
        const previous = memoryStateOf(stored, [])
        const content =
          patch.content === undefined
            ? previous.content
            : options.merge(previous.content, patch.content, patch.merge_strategy ?? 'replace')
        const contentChanged = content !== previous.content
        // A memory of a conversation's turn is embedded again as read after the turn before it, too.
        const context = previous.context
        const [vector, contextVector]: (number[] | undefined)[] = contentChanged
          ? await embed(context ? [content, contextualTextOf(content, context)] : [content])
          : [previous.embedding.vector, context?.embedding.vector]
        const analysis = contentChanged ? options.analyze(content, previous) : undefined
        const { fact: previousFact, ...unchanged } = previous
        // Re-derived as ingestion derives it, when the reader is at hand (without it the edit states no fact).
        const speaker = previous.speaker ?? null
        const reader =
          contentChanged && vector && speaker !== null && !isAssistantSpeaker(speaker)
            ? await options.factReader?.().catch(() => null)
            : null
        const reading =
          reader && vector && speaker !== null
            ? await reader.read({ content, speaker, vector }).catch(() => null)
            : null
        const fact = contentChanged
          ? reading && speaker !== null
            ? factSlotOfReading(reading, speaker)
            : null
          : (previousFact ?? null)
        const memory: MemoryState = {
          ...unchanged,
          ...(fact ? { fact } : {}),
          // No longer a version of the fact it was one of: valid until a version of its new fact says otherwise.
          ...(fact?.key !== previousFact?.key ? { valid_to: null, superseded_by: null } : {}),
          ...(analysis ?? {}),
          content,
          confidence: patch.confidence ?? analysis?.confidence ?? previous.confidence,
          metadata: { ...previous.metadata, ...(patch.metadata ?? {}) },
          ...(patch.expires_at !== undefined
            ? { expires_at: patch.expires_at === null ? null : utcInstantOf(patch.expires_at) }
            : {}),
          updated_at: now().toISOString(),
          embedding: {
            model: contentChanged ? options.embedder.model : previous.embedding.model,
            vector: vector ?? [],
          },
          ...(context
            ? {
                context: {
                  ...context,
                  embedding: {
                    model: contentChanged ? options.embedder.model : context.embedding.model,
                    vector: contextVector ?? [],
                  },
                },
              }
            : {}),
        }
        const change = event('updated', stored, memory, {
          kind: 'api',
          operation: 'update',
          ...(patch.content !== undefined ? { merge_strategy: patch.merge_strategy ?? 'replace' } : {}),
        })
        const seen = await outcomeOf(change, await append(change, correlationId))
        if (seen === null) throw new AppError('NOT_FOUND', 'Memory not found', { memory_id: memoryId })
        if (seen.last_event_id === change.event_id) {
          if (!contentChanged) return seen
          // The fact it stated before and the one it states now (if another) each settle their versions.
          const before = { ...change, memory: previous }
          await settleFacts([before, change], correlationId)
          // Settling may have given this memory a new version (its own validity); a lagging projection has not.
          const settled = await options.store.get(memoryId)
          return settled && settled.version >= seen.version ? settled : seen
        }
        if (attempt >= attemptsOnConflict) throw contended()
      }
    },

    async giveFeedback(instanceId, memoryId, given, correlationId) {
      const reason = given.rating === null ? null : (given.reason ?? null)
      for (let attempt = 1; ; attempt += 1) {
        const stored = await current(instanceId, memoryId)
        const held = stored.feedback ?? null
        const same =
          given.rating === null ? held === null : held?.rating === given.rating && held.reason === reason
        if (same) return { memory: stored, changed: false }
        const memory: MemoryState = {
          ...memoryStateOf(stored, []),
          // Not an edit of what the memory says: updated_at stays, the feedback carries its own time.
          feedback:
            given.rating === null ? null : { rating: given.rating, reason, given_at: now().toISOString() },
        }
        const change = event('updated', stored, memory, { kind: 'api', operation: 'feedback' })
        const seen = await outcomeOf(change, await append(change, correlationId))
        if (seen === null) throw new AppError('NOT_FOUND', 'Memory not found', { memory_id: memoryId })
        if (seen.last_event_id === change.event_id) return { memory: seen, changed: true }
        if (attempt >= attemptsOnConflict) throw contended()
      }
    },

    async remove(
      instanceId,
      memoryId,
      correlationId,
      cause: DeletionCause = { kind: 'api', operation: 'delete' },
    ) {
      for (let attempt = 1; ; attempt += 1) {
        const stored = await current(instanceId, memoryId, { orExpired: true })
        const change = event('deleted', stored, memoryStateOf(stored, []), cause)
        const seen = await outcomeOf(change, await append(change, correlationId))
        if (seen === null) {
          // A deleted memory supersedes nothing: the version it ended holds again.
          await settleFacts([change], correlationId)
          return
        }
        if (attempt >= attemptsOnConflict) throw contended()
      }
    },
  }
}
