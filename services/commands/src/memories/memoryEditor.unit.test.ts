import { describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import type { Embedder } from '@memory-service/engines'
import type { EventProducer } from '@memory-service/log'
import { AppError, memoryDocumentOf, type ContentAnalysis } from '@memory-service/domain'
import type { MemoryStore, StoredMemory } from '@memory-service/read-models'
import { createMemoryEditor, type MemoryChangeLog } from './memoryEditor.js'

const instanceId = 'inst_a'
const memoryId = 'mem_1'

function changeAt(version: number, change: MemoryChanged['change'], content = 'Likes tea'): MemoryChanged {
  return {
    type: 'memory_changed',
    change,
    event_id: `evt_${version}_${change}`,
    memory_id: memoryId,
    instance_id: instanceId,
    version,
    changed_at: '2026-11-23T10:00:00.000Z',
    memory: {
      id: memoryId,
      instance_id: instanceId,
      type: 'preference',
      content,
      confidence: 0.9,
      entities: [],
      relations: [],
      scope: { user_id: 'u1', customer_id: null, client_id: 'client_a' },
      source: {
        ingestion_id: 'ing_1',
        document_type: 'text',
        document_created_at: '2026-11-23T10:00:00.000Z',
      },
      metadata: {},
      created_at: '2026-11-23T10:00:00.000Z',
      updated_at: '2026-11-23T10:00:00.000Z',
      occurred_on: null,
      speaker: null,
      mode: 'fast',
      embedding: { model: 'test-model', vector: [1, 0] },
    },
  }
}

/**
 * The memories topic as one partition, and the projection of it into a store. `projecting: false` is the fault:
 * the projection stops applying, as it does when it falls behind under load.
 */
function world(options: { projecting: boolean; stored?: MemoryChanged }) {
  const log: MemoryChanged[] = []
  const documents = new Map<string, StoredMemory>()
  let projectedUpTo = 0
  const project = () => {
    for (; projectedUpTo < log.length; projectedUpTo += 1) {
      const change = log[projectedUpTo]
      if (!change) break
      const current = documents.get(change.memory_id)
      if (current && current.version >= change.version) continue
      if (change.change === 'deleted') documents.delete(change.memory_id)
      else {
        const { content_terms: _terms, ...stored } = memoryDocumentOf(change)
        documents.set(change.memory_id, stored)
      }
    }
  }
  if (options.stored) {
    log.push(options.stored)
    project()
  }
  const store = {
    get: async (id: string) => documents.get(id) ?? null,
  } as unknown as MemoryStore
  const producer = {
    async append(_topic: string, events: { payload: unknown }[]) {
      const offset = log.length
      for (const event of events) log.push(event.payload as MemoryChanged)
      if (options.projecting) project()
      return [{ partition: 0, baseOffset: String(offset) }]
    },
  } as unknown as EventProducer
  const changeLog: MemoryChangeLog & { readable: boolean } = {
    readable: true,
    projectedUpTo: async () => projectedUpTo,
    async changesOf(id, { from, to }) {
      if (!this.readable) return undefined
      return log.slice(from, to).filter((change) => change.memory_id === id)
    },
  }
  return { log, store, producer, changeLog, catchUp: project, documents }
}

const embedder: Embedder = {
  model: 'test-model',
  dimension: 2,
  embed: async (texts) => texts.map(() => [0, 1]),
} as Embedder

function editorFor(w: ReturnType<typeof world>, withChangeLog = true) {
  return createMemoryEditor({
    store: w.store,
    producer: w.producer,
    embedder,
    analyze: () => ({}) as ContentAnalysis,
    merge: (existing, incoming, strategy) => (strategy === 'append' ? `${existing} ${incoming}` : incoming),
    // The projection is not waited for: a lagging one is the case under test.
    visibilityTimeoutMs: 0,
    ...(withChangeLog ? { changeLog: w.changeLog } : {}),
  })
}

const codeOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) =>
      error instanceof AppError ? `${error.code}:${JSON.stringify(error.details.reason ?? '')}` : 'other',
  )

describe('memory editor', () => {
  it('answers from the projection when it shows the change in time', async () => {
    const w = world({ projecting: true, stored: changeAt(1, 'created') })
    const editor = createMemoryEditor({
      store: w.store,
      producer: w.producer,
      embedder,
      analyze: () => ({}) as ContentAnalysis,
      merge: (_existing, incoming) => incoming,
    })
    const updated = await editor.update(instanceId, memoryId, { content: 'Likes coffee' }, 'corr')
    expect(updated).toMatchObject({ content: 'Likes coffee', version: 2 })
    await editor.remove(instanceId, memoryId, 'corr')
    expect(w.documents.has(memoryId)).toBe(false)
  })

  it('embeds an edited turn of a conversation again in its conversation, and keeps that conversation', async () => {
    const inConversation = changeAt(1, 'created')
    const context = { before: 'Bob: What do you drink?', after: 'Bob: Me too.' }
    inConversation.memory.context = { ...context, embedding: { model: 'test-model', vector: [1, 1] } }
    const w = world({ projecting: true, stored: inConversation })
    const embedded: string[] = []
    const editor = createMemoryEditor({
      store: w.store,
      producer: w.producer,
      embedder: { ...embedder, embed: async (texts) => texts.map((text) => [embedded.push(text), 0]) },
      analyze: () => ({}) as ContentAnalysis,
      merge: (_existing, incoming) => incoming,
    })
    await editor.update(instanceId, memoryId, { content: 'Likes coffee' }, 'corr')
    expect(embedded).toEqual(['Likes coffee', 'Bob: What do you drink?\nLikes coffee'])
    expect(w.log.at(-1)?.memory).toMatchObject({
      embedding: { vector: [1, 0] },
      context: { ...context, embedding: { model: 'test-model', vector: [2, 0] } },
    })
    // A change of metadata alone keeps both vectors.
    await editor.update(instanceId, memoryId, { metadata: { mood: 'awake' } }, 'corr')
    expect(embedded).toHaveLength(2)
    expect(w.log.at(-1)?.memory.context?.embedding.vector).toEqual([2, 0])
  })

  it('decides an update from the log when the projection lags, and the projection later agrees', async () => {
    const w = world({ projecting: false, stored: changeAt(1, 'created') })
    const updated = await editorFor(w).update(
      instanceId,
      memoryId,
      { content: 'and coffee', merge_strategy: 'append' },
      'corr',
    )
    expect(updated).toMatchObject({ content: 'Likes tea and coffee', version: 2 })
    w.catchUp()
    expect(w.documents.get(memoryId)).toMatchObject({
      content: 'Likes tea and coffee',
      last_event_id: updated.last_event_id,
    })
  })

  it('decides a deletion from the log when the projection lags', async () => {
    const w = world({ projecting: false, stored: changeAt(1, 'created') })
    await expect(editorFor(w).remove(instanceId, memoryId, 'corr')).resolves.toBeUndefined()
    expect(w.log.map((change) => change.change)).toEqual(['created', 'deleted'])
    w.catchUp()
    expect(w.documents.has(memoryId)).toBe(false)
  })

  it('an update that an earlier, unprojected deletion beat answers NOT_FOUND', async () => {
    const w = world({ projecting: false, stored: changeAt(1, 'created') })
    w.log.push(changeAt(2, 'deleted'))
    expect(await codeOf(editorFor(w).update(instanceId, memoryId, { content: 'x' }, 'corr'))).toBe(
      'NOT_FOUND:""',
    )
  })

  it('an update that an earlier, unprojected update beat is reported as not known (503)', async () => {
    const w = world({ projecting: false, stored: changeAt(1, 'created') })
    w.log.push(changeAt(2, 'updated', 'Likes juice'))
    expect(await codeOf(editorFor(w).update(instanceId, memoryId, { content: 'x' }, 'corr'))).toBe(
      'SERVICE_UNAVAILABLE:"projection_lagging"',
    )
  })

  it('without a readable log the outcome stays unknown (503 projection_lagging)', async () => {
    const w = world({ projecting: false, stored: changeAt(1, 'created') })
    w.changeLog.readable = false
    expect(await codeOf(editorFor(w).remove(instanceId, memoryId, 'corr'))).toBe(
      'SERVICE_UNAVAILABLE:"projection_lagging"',
    )
    expect(await codeOf(editorFor(w, false).remove(instanceId, memoryId, 'corr'))).toBe(
      'SERVICE_UNAVAILABLE:"projection_lagging"',
    )
  })

  it('another instance’s memory is not found', async () => {
    const w = world({ projecting: true, stored: changeAt(1, 'created') })
    expect(await codeOf(editorFor(w).remove('inst_b', memoryId, 'corr'))).toBe('NOT_FOUND:""')
  })
})

describe('memory editor: expiry and feedback', () => {
  const at = (iso: string) => () => new Date(iso)
  function editorAt(w: ReturnType<typeof world>, now: string) {
    return createMemoryEditor({
      store: w.store,
      producer: w.producer,
      embedder,
      analyze: () => ({}) as ContentAnalysis,
      merge: (_existing, incoming) => incoming,
      now: at(now),
    })
  }
  const expiring = (expiresAt: string) => {
    const change = changeAt(1, 'created')
    change.memory.expires_at = expiresAt
    return change
  }

  it('sets and clears an expiry, keeping the one a memory has when a patch names none', async () => {
    const w = world({ projecting: true, stored: changeAt(1, 'created') })
    const editor = editorAt(w, '2026-12-01T10:00:00.000Z')
    const set = await editor.update(instanceId, memoryId, { expires_at: '2027-01-31T18:00:00+01:00' }, 'c')
    expect(set.expires_at).toBe('2027-01-31T17:00:00.000Z')
    const kept = await editor.update(instanceId, memoryId, { confidence: 0.5 }, 'c')
    expect(kept.expires_at).toBe('2027-01-31T17:00:00.000Z')
    const cleared = await editor.update(instanceId, memoryId, { expires_at: null }, 'c')
    expect(cleared.expires_at).toBeNull()
  })

  it('answers an expired memory as not found to an edit or feedback, from the instant it expires', async () => {
    const w = world({ projecting: true, stored: expiring('2026-12-01T10:00:00.000Z') })
    const before = editorAt(w, '2026-12-01T09:59:59.999Z')
    expect(await codeOf(before.update(instanceId, memoryId, { confidence: 0.4 }, 'c'))).toBe('resolved')
    const after = editorAt(w, '2026-12-01T10:00:00.000Z')
    expect(await codeOf(after.update(instanceId, memoryId, { confidence: 0.3 }, 'c'))).toBe(
      'NOT_FOUND:"expired"',
    )
    expect(await codeOf(after.giveFeedback(instanceId, memoryId, { rating: 'positive' }, 'c'))).toBe(
      'NOT_FOUND:"expired"',
    )
  })

  it('deletes an expired memory with expiry as the cause', async () => {
    const w = world({ projecting: true, stored: expiring('2026-12-01T10:00:00.000Z') })
    await editorAt(w, '2026-12-02T00:00:00.000Z').remove(instanceId, memoryId, 'sweep-1', { kind: 'expiry' })
    expect(w.log.at(-1)).toMatchObject({ change: 'deleted', cause: { kind: 'expiry' }, version: 2 })
    expect(w.documents.has(memoryId)).toBe(false)
  })

  it('holds the last feedback given; the same feedback again appends nothing; null withdraws it', async () => {
    const w = world({ projecting: true, stored: changeAt(1, 'created') })
    const editor = editorAt(w, '2026-12-01T10:00:00.000Z')
    const given = await editor.giveFeedback(
      instanceId,
      memoryId,
      { rating: 'negative', reason: 'out of date' },
      'c',
    )
    expect(given.changed).toBe(true)
    expect(given.memory.feedback).toEqual({
      rating: 'negative',
      reason: 'out of date',
      given_at: '2026-12-01T10:00:00.000Z',
    })
    expect(w.log.at(-1)).toMatchObject({ change: 'updated', cause: { kind: 'api', operation: 'feedback' } })
    // Not an edit of its content: updated_at stays as it was.
    expect(given.memory.updated_at).toBe('2026-11-23T10:00:00.000Z')
    const events = w.log.length
    const again = await editor.giveFeedback(
      instanceId,
      memoryId,
      { rating: 'negative', reason: 'out of date' },
      'c',
    )
    expect(again.changed).toBe(false)
    expect(w.log).toHaveLength(events)
    const otherReason = await editor.giveFeedback(instanceId, memoryId, { rating: 'negative' }, 'c')
    expect(otherReason.memory.feedback).toMatchObject({ rating: 'negative', reason: null })
    const withdrawn = await editor.giveFeedback(instanceId, memoryId, { rating: null }, 'c')
    expect(withdrawn).toMatchObject({ changed: true, memory: { feedback: null } })
    expect((await editor.giveFeedback(instanceId, memoryId, { rating: null }, 'c')).changed).toBe(false)
    expect(w.log.map((change) => change.version)).toEqual([1, 2, 3, 4])
  })
})
