import pLimit from 'p-limit'
import type { MemoryBulkResponse, MemoryUpdateRequest } from '@memory-service/contracts'
import { AppError, isExpired, isMemoryId, utcInstantOf } from '@memory-service/domain'
import type { MemoryHistory, MemoryStore } from '@memory-service/read-models'
import type { MemoryEditor } from './memoryEditor.js'

export type BulkItemResult = MemoryBulkResponse['results'][number]
export type BulkStatus = BulkItemResult['status']

/** One memory's change in a bulk update: content replaces, metadata merges, as PATCH with `replace` does. */
export interface BulkUpdate {
  memory_id: string
  content?: string
  confidence?: number
  metadata?: Record<string, unknown>
  expires_at?: string | null
}

export interface MemoryBulkEditor {
  /** Each memory changed as one PATCH would change it, unless it is already as asked (then nothing is appended). */
  update(instanceId: string, updates: BulkUpdate[], correlationId: string): Promise<BulkItemResult[]>
  /** Each memory deleted as one DELETE would delete it; one deleted before answers `already_deleted`. */
  remove(instanceId: string, memoryIds: string[], correlationId: string): Promise<BulkItemResult[]>
}

/** A memory's metadata after a merge equals what it holds: nothing would change. */
function mergeChangesNothing(held: Record<string, unknown>, merged: Record<string, unknown>): boolean {
  return Object.entries(merged).every(([key, value]) => JSON.stringify(held[key]) === JSON.stringify(value))
}

/**
 * Many memories changed through the single-memory editor, a few at a time: each change is the same event, history
 * entry, fact settlement and read-your-writes as one PATCH or DELETE. A retried request changes nothing twice: an
 * update already applied is `unchanged` (nothing appended), a deletion already made is `already_deleted`.
 */
export function createMemoryBulkEditor(options: {
  editor: Pick<MemoryEditor, 'update' | 'remove'>
  store: Pick<MemoryStore, 'get'>
  history: Pick<MemoryHistory, 'of'>
  /** Memories changed at once; each waits for its own projection, so a few in flight keep the pipeline busy. */
  concurrency?: number
  now?: () => Date
}): MemoryBulkEditor {
  const { editor, store, history } = options
  const now = options.now ?? (() => new Date())
  const concurrency = options.concurrency ?? 16

  const failedWith = (memoryId: string, error: unknown): BulkItemResult => {
    if (!(error instanceof AppError)) throw error
    return { memory_id: memoryId, status: 'failed', error: { code: error.code, message: error.message } }
  }
  const isNotFound = (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND'

  async function eachOf<T>(
    items: T[],
    idOf: (item: T) => string,
    change: (item: T) => Promise<BulkStatus>,
  ): Promise<BulkItemResult[]> {
    const limit = pLimit(concurrency)
    return Promise.all(
      items.map((item) =>
        limit(async (): Promise<BulkItemResult> => {
          try {
            // An id that cannot be a memory's is answered without a read, as the single routes answer it.
            if (!isMemoryId(idOf(item))) return { memory_id: idOf(item), status: 'not_found' }
            return { memory_id: idOf(item), status: await change(item) }
          } catch (error) {
            return failedWith(idOf(item), error)
          }
        }),
      ),
    )
  }

  return {
    update: (instanceId, updates, correlationId) =>
      eachOf(
        updates,
        (update) => update.memory_id,
        async ({ memory_id, ...patch }) => {
          const held = await store.get(memory_id)
          if (held?.instance_id !== instanceId || isExpired(held, now().getTime())) return 'not_found'
          const asked: MemoryUpdateRequest =
            patch.content === undefined ? patch : { ...patch, merge_strategy: 'replace' }
          const same =
            (patch.content === undefined || patch.content === held.content) &&
            (patch.confidence === undefined || patch.confidence === held.confidence) &&
            (patch.metadata === undefined || mergeChangesNothing(held.metadata, patch.metadata)) &&
            (patch.expires_at === undefined ||
              (patch.expires_at === null ? null : utcInstantOf(patch.expires_at)) ===
                (held.expires_at ?? null))
          if (same) return 'unchanged'
          try {
            await editor.update(instanceId, memory_id, asked, correlationId)
            return 'updated'
          } catch (error) {
            if (isNotFound(error)) return 'not_found'
            throw error
          }
        },
      ),

    remove: (instanceId, memoryIds, correlationId) =>
      eachOf(
        memoryIds,
        (memoryId) => memoryId,
        async (memoryId) => {
          try {
            await editor.remove(instanceId, memoryId, correlationId)
            return 'deleted'
          } catch (error) {
            if (!isNotFound(error)) throw error
            const changes = await history.of(instanceId, memoryId)
            return changes.at(-1)?.change === 'deleted' ? 'already_deleted' : 'not_found'
          }
        },
      ),
  }
}

/** The per-status counts of a bulk answer. */
export function summaryOf(results: BulkItemResult[]): MemoryBulkResponse['summary'] {
  const summary = { updated: 0, unchanged: 0, deleted: 0, already_deleted: 0, not_found: 0, failed: 0 }
  for (const { status } of results) summary[status] += 1
  return summary
}
