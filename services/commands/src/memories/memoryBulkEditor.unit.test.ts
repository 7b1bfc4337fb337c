import { describe, expect, it } from 'vitest'
import { AppError } from '@memory-service/domain'
import type { MemoryHistoryEntry, StoredMemory } from '@memory-service/read-models'
import { createMemoryBulkEditor, summaryOf } from './memoryBulkEditor.js'
import type { MemoryEditor } from './memoryEditor.js'

const instanceId = 'inst_a'
const id = (n: number) => `mem_${String(n).padStart(24, '0')}`

/** Memories held in a map; the editor changes them there, and a chosen memory fails as the log would. */
function world(options: { failing?: string; deleted?: string[] } = {}) {
  const held = new Map<string, Pick<StoredMemory, 'instance_id' | 'content' | 'confidence' | 'metadata'>>([
    [id(1), { instance_id: instanceId, content: 'Likes tea', confidence: 0.8, metadata: { a: 1 } }],
    [id(2), { instance_id: instanceId, content: 'Plays chess', confidence: 0.6, metadata: {} }],
    [id(3), { instance_id: 'inst_other', content: 'Owns a boat', confidence: 0.9, metadata: {} }],
  ])
  const appended: string[] = []
  let inFlight = 0
  let mostInFlight = 0
  const visit = async <T>(memoryId: string, change: () => T): Promise<T> => {
    inFlight += 1
    mostInFlight = Math.max(mostInFlight, inFlight)
    await Promise.resolve()
    inFlight -= 1
    if (memoryId === options.failing) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The event log is unavailable; nothing was changed', {})
    }
    const memory = held.get(memoryId)
    if (memory?.instance_id !== instanceId) throw new AppError('NOT_FOUND', 'Memory not found', {})
    return change()
  }
  const editor: Pick<MemoryEditor, 'update' | 'remove'> = {
    update: (_instance, memoryId, patch) =>
      visit(memoryId, () => {
        const memory = held.get(memoryId)
        if (!memory) throw new Error('unreachable')
        Object.assign(memory, {
          ...(patch.content !== undefined ? { content: patch.content } : {}),
          ...(patch.confidence !== undefined ? { confidence: patch.confidence } : {}),
          metadata: { ...memory.metadata, ...(patch.metadata ?? {}) },
        })
        appended.push(`updated ${memoryId} ${patch.merge_strategy ?? '-'}`)
        return memory as StoredMemory
      }),
    remove: (_instance, memoryId) =>
      visit(memoryId, () => {
        held.delete(memoryId)
        appended.push(`deleted ${memoryId}`)
      }),
  }
  const deletedBefore = new Set(options.deleted ?? [])
  const bulk = createMemoryBulkEditor({
    editor,
    store: { get: (memoryId) => Promise.resolve((held.get(memoryId) as StoredMemory | undefined) ?? null) },
    history: {
      of: (_instance, memoryId) =>
        Promise.resolve(
          deletedBefore.has(memoryId) || appended.includes(`deleted ${memoryId}`)
            ? [{ change: 'created' }, { change: 'deleted' }].map((entry) => entry as MemoryHistoryEntry)
            : [],
        ),
    },
    concurrency: 2,
  })
  return { bulk, held, appended, mostInFlight: () => mostInFlight }
}

describe('bulk edits', () => {
  it('updates what changes, leaves what is already so, and answers each memory in order', async () => {
    const { bulk, held, appended } = world()
    const results = await bulk.update(
      instanceId,
      [
        { memory_id: id(1), content: 'Likes green tea' },
        { memory_id: id(2), confidence: 0.6, metadata: {} },
        { memory_id: id(3), confidence: 0.1 },
        { memory_id: id(4), confidence: 0.1 },
        { memory_id: 'nonsense', confidence: 0.1 },
      ],
      'corr-1',
    )
    expect(results.map(({ status }) => status)).toEqual([
      'updated',
      'unchanged',
      'not_found',
      'not_found',
      'not_found',
    ])
    // Content in bulk replaces: a retry must find the state it asked for.
    expect(appended).toEqual([`updated ${id(1)} replace`])
    expect(held.get(id(1))?.content).toBe('Likes green tea')
    expect(held.get(id(3))?.confidence).toBe(0.9)
  })

  it('changes nothing twice when a request is retried', async () => {
    const { bulk, appended } = world()
    const updates = [{ memory_id: id(1), metadata: { a: 1, reviewed: true } }]
    expect((await bulk.update(instanceId, updates, 'corr-1'))[0]?.status).toBe('updated')
    expect((await bulk.update(instanceId, updates, 'corr-1'))[0]?.status).toBe('unchanged')
    const deletions = [id(1), id(2)]
    expect((await bulk.remove(instanceId, deletions, 'corr-2')).map(({ status }) => status)).toEqual([
      'deleted',
      'deleted',
    ])
    expect((await bulk.remove(instanceId, deletions, 'corr-2')).map(({ status }) => status)).toEqual([
      'already_deleted',
      'already_deleted',
    ])
    expect(appended).toEqual([`updated ${id(1)} -`, `deleted ${id(1)}`, `deleted ${id(2)}`])
  })

  it('reports a memory that failed with its code and goes on with the rest, a few at a time', async () => {
    const { bulk, mostInFlight } = world({ failing: id(1), deleted: [id(9)] })
    const results = await bulk.remove(instanceId, [id(1), id(2), id(9), id(3)], 'corr-3')
    expect(results).toEqual([
      {
        memory_id: id(1),
        status: 'failed',
        error: { code: 'SERVICE_UNAVAILABLE', message: 'The event log is unavailable; nothing was changed' },
      },
      { memory_id: id(2), status: 'deleted' },
      { memory_id: id(9), status: 'already_deleted' },
      { memory_id: id(3), status: 'not_found' },
    ])
    expect(summaryOf(results)).toEqual({
      updated: 0,
      unchanged: 0,
      deleted: 1,
      already_deleted: 1,
      not_found: 1,
      failed: 1,
    })
    expect(mostInFlight()).toBe(2)
  })
})
