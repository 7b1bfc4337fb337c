import { randomUUID } from 'node:crypto'
import type { MemoryChanged } from '@memory-service/contracts'
import type { Embedder, LeaseStore } from '@memory-service/engines'
import type { EventProducer } from '@memory-service/log'
import { contextualTextOf, MEMORIES_TOPIC, MEMORY_SUBJECT } from '@memory-service/domain'
import { memoryStateOf, type EmbeddingInventory, type StoredMemory } from '@memory-service/read-models'

/** What a re-embedding of one instance did (`memory-service reembed` prints one per instance). */
export interface ReembeddingReport {
  instance: string
  /** The label of the model the vectors were computed with (`embedding.model` in the events). */
  model: string
  /** The correlation id of every event the run appended (the history shows it). */
  correlation_id: string
  /** The instance's memories when the run began. */
  memories: number
  /** Memories this run gave vectors of the model: one `updated` event each, seen applied by the projection. */
  reembedded: number
  /**
   * Memories the run did not re-embed: already at the model, or brought to it, deleted or kept changing by
   * concurrent writes meanwhile.
   */
  skipped: number
  /** Memories of the instance that still carry another model's vectors at the end (0: the instance is done). */
  remaining: number
  seconds: number
}

export interface ReembeddingProgress {
  instance: string
  /** Memories with another model's vectors when the run began. */
  total: number
  reembedded: number
  skipped: number
  seconds: number
}

export interface MemoryReembeddingOptions {
  inventory: EmbeddingInventory
  producer: Pick<EventProducer, 'append'>
  /** The configured embedder: its label is the model every memory should carry. */
  embedder: Embedder
  /** Memories embedded and appended together. @default 32 */
  batchSize?: number
  /**
   * Pacing: after each batch, wait this many times what the batch took, so the run leaves the machine to the
   * services it shares it with (as a configuration rebuild does). @default 1
   */
  idleShare?: number
  /** One re-embedding of an instance at a time across processes (`reembed-<instance>`); none when absent. */
  leases?: LeaseStore
  /** How long to wait for the vector projection to apply a batch before giving up the run. @default 60000 */
  visibilityTimeoutMs?: number
  /** Rounds for a memory whose version a concurrent write took (re-read, embed again). @default 3 */
  attemptsOnConflict?: number
  onProgress?: (progress: ReembeddingProgress) => void
  /** Hears who holds the instance's lease while this run waits for it. */
  onWait?: (holder: string) => void
  now?: () => Date
}

export interface MemoryReembedding {
  /**
   * Gives every memory of the instance whose vectors another model made the configured model's vectors, through the
   * log. Restartable: a memory already at the model is skipped.
   * @throws Error when the index holds vectors of another dimension (that needs a replay), when the vector projection
   * does not apply a batch in time, or when the embedder or the log fails (nothing is half-written: a rerun resumes)
   */
  reembed(instanceId: string, correlationId?: string): Promise<ReembeddingReport>
}

/** Where a memory's vectors are among the texts embedded for a batch. */
export interface EmbeddingSlots {
  own: number
  /** Its reading after the turn before it, for a memory of a conversation's turn. */
  inContext?: number
}

/**
 * The texts to embed for memories: each one's content and, when it came from a conversation's turn, its contextual
 * reading (as the pipeline embeds them). Equal texts are embedded once.
 */
export function textsToEmbed(memories: Pick<StoredMemory, 'content' | 'context'>[]): {
  texts: string[]
  slots: EmbeddingSlots[]
} {
  const texts: string[] = []
  const positions = new Map<string, number>()
  const slotOf = (text: string) => {
    let position = positions.get(text)
    if (position === undefined) positions.set(text, (position = texts.push(text) - 1))
    return position
  }
  const slots = memories.map(({ content, context }) => ({
    own: slotOf(content),
    ...(context ? { inContext: slotOf(contextualTextOf(content, context)) } : {}),
  }))
  return { texts, slots }
}

/**
 * The next version of a stored memory: the same state, the vectors of `model` (the contextual one when it has a
 * context), caused by a re-embedding.
 */
export function reembeddedChange(
  stored: StoredMemory,
  vectors: { vector: number[]; contextVector?: number[] },
  model: string,
  at: { changedAt: string; eventId: string },
): MemoryChanged {
  const { context, ...state } = memoryStateOf(stored)
  return {
    type: 'memory_changed',
    change: 'updated',
    event_id: at.eventId,
    memory_id: stored.id,
    instance_id: stored.instance_id,
    version: stored.version + 1,
    changed_at: at.changedAt,
    memory: {
      ...state,
      embedding: { model, vector: vectors.vector },
      ...(context
        ? { context: { ...context, embedding: { model, vector: vectors.contextVector ?? vectors.vector } } }
        : {}),
    },
    cause: { kind: 'reembedding' },
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Re-embedding in place, per instance and online: the memories of an instance that carry another model's vectors
 * (read from the serving index by `embedding_model`) get an `updated` event at their next version with the same
 * state and the configured model's vectors, appended like an edit; the projections apply it by version, so searches
 * keep being served throughout. A concurrent change wins as it does against the editor: both append the same
 * version, the projection keeps the first in the log, and the loser (this run, when it finds another event at its
 * version) reads the memory again and retries while it still carries another model's vectors.
 */
export function createMemoryReembedding(options: MemoryReembeddingOptions): MemoryReembedding {
  const { inventory, embedder } = options
  const model = embedder.model
  const batchSize = options.batchSize ?? 32
  const idleShare = options.idleShare ?? 1
  const visibilityTimeoutMs = options.visibilityTimeoutMs ?? 60_000
  const attempts = options.attemptsOnConflict ?? 3
  const now = options.now ?? (() => new Date())

  /** What the projection holds for each change once it reached the change's version (null: deleted). */
  async function projected(changes: MemoryChanged[]): Promise<Map<string, StoredMemory | null>> {
    const seen = new Map<string, StoredMemory | null>()
    const deadline = Date.now() + visibilityTimeoutMs
    for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
      const waiting = changes.filter((change) => !seen.has(change.memory_id))
      const stored = await inventory.read(waiting.map((change) => change.memory_id))
      for (const change of waiting) {
        const held = stored.get(change.memory_id)
        if (!held) seen.set(change.memory_id, null)
        else if (held.version >= change.version) seen.set(change.memory_id, held)
      }
      if (seen.size === changes.length) return seen
      if (Date.now() > deadline)
        throw new Error(
          `the vector projection did not apply ${String(changes.length - seen.size)} re-embedded memories within ${String(visibilityTimeoutMs / 1000)} s: it is lagging or stopped (GET /readyz); run again once it has caught up, what is done is skipped`,
        )
      await pause(delay)
    }
  }

  /** One batch of ids: embedded, appended and seen applied, with retries for versions lost to concurrent writes. */
  async function settle(
    instanceId: string,
    ids: string[],
    correlationId: string,
  ): Promise<{ reembedded: number; skipped: number }> {
    let reembedded = 0
    let pending = ids
    for (let attempt = 1; pending.length > 0 && attempt <= attempts; attempt += 1) {
      const stored = await inventory.read(pending)
      const stale = pending.flatMap((id) => {
        const memory = stored.get(id)
        return memory && memory.instance_id === instanceId && memory.embedding_model !== model ? [memory] : []
      })
      if (stale.length === 0) break
      const { texts, slots } = textsToEmbed(stale)
      const vectors = await embedder.embed(texts)
      // A vector the index cannot take would be parked by the projection as a dead letter: none is appended.
      if (vectors.length !== texts.length || vectors.some((vector) => vector.length !== embedder.dimension))
        throw new Error(
          `${model} answered ${String(vectors.length)} vectors for ${String(texts.length)} texts, not all of ${String(embedder.dimension)} dimensions; nothing of this batch was appended`,
        )
      const changedAt = now().toISOString()
      const changes = stale.map((memory, position) => {
        const slot = slots[position] ?? { own: -1 }
        return reembeddedChange(
          memory,
          {
            vector: vectors[slot.own] ?? [],
            ...(slot.inContext === undefined ? {} : { contextVector: vectors[slot.inContext] ?? [] }),
          },
          model,
          { changedAt, eventId: randomUUID() },
        )
      })
      await options.producer.append(
        MEMORIES_TOPIC,
        changes.map((change) => ({
          key: change.memory_id,
          subject: MEMORY_SUBJECT,
          payload: change,
          correlationId,
        })),
      )
      const outcomes = await projected(changes)
      const lost = changes.filter(
        (change) => outcomes.get(change.memory_id)?.last_event_id !== change.event_id,
      )
      reembedded += changes.length - lost.length
      pending = lost.map((change) => change.memory_id)
    }
    return { reembedded, skipped: ids.length - reembedded }
  }

  return {
    async reembed(instanceId, correlationId = `reembedding-${randomUUID()}`) {
      const started = performance.now()
      const seconds = () => Number(((performance.now() - started) / 1000).toFixed(1))
      const dimension = await inventory.dimension()
      if (dimension !== undefined && dimension !== embedder.dimension)
        throw new Error(
          `the memories index holds ${String(dimension)}-dimensional vectors and ${model} makes ${String(embedder.dimension)}: a model of another dimension needs a replay into a new generation (operations.md, "Replay and rebuild")`,
        )
      const lease = await options.leases?.acquire(`reembed-${instanceId}`, {
        onWait: (held) => options.onWait?.(held.holder),
      })
      try {
        const { memories, otherModel } = await inventory.census(instanceId, model)
        let reembedded = 0
        let skipped = memories - otherModel
        let after: string | undefined
        // One batch waits for the projection while the next one is read and embedded.
        let waiting: Promise<void> | undefined
        try {
          for (;;) {
            if (lease?.lost())
              throw new Error(`the re-embedding lease of ${instanceId} was lost; this run stops`)
            const batchStarted = performance.now()
            const ids = await inventory.otherModelIds(instanceId, model, {
              limit: batchSize,
              ...(after === undefined ? {} : { after }),
            })
            if (ids.length === 0) break
            after = ids[ids.length - 1]
            const previous = waiting
            waiting = settle(instanceId, ids, correlationId).then((done) => {
              reembedded += done.reembedded
              skipped += done.skipped
              options.onProgress?.({
                instance: instanceId,
                total: otherModel,
                reembedded,
                skipped,
                seconds: seconds(),
              })
            })
            // Its failure is thrown where it is awaited, once the batch before it is settled.
            waiting.catch(() => undefined)
            await previous
            if (idleShare > 0) await pause((performance.now() - batchStarted) * idleShare)
          }
          await waiting
        } catch (error) {
          // Nothing of this run goes on appending once it has failed and released its lease.
          await waiting?.catch(() => undefined)
          throw error
        }
        // Counted from what searches see: what this run wrote is made visible first.
        await inventory.refresh()
        const { otherModel: remaining } = await inventory.census(instanceId, model)
        return {
          instance: instanceId,
          model,
          correlation_id: correlationId,
          memories,
          reembedded,
          skipped,
          remaining,
          seconds: seconds(),
        }
      } finally {
        await lease?.release()
      }
    },
  }
}
