import { describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import type { Embedder } from '@memory-service/engines'
import { memoryDocumentOf } from '@memory-service/domain'
import type { EmbeddingInventory, StoredMemory } from '@memory-service/read-models'
import {
  createMemoryReembedding,
  reembeddedChange,
  textsToEmbed,
  type MemoryReembeddingOptions,
} from './memoryReembedding.js'

const instanceId = 'inst_a'

function created(
  id: string,
  options: {
    instance?: string
    model?: string
    content?: string
    context?: { before: string; after: string }
  } = {},
): MemoryChanged {
  const model = options.model ?? 'old-model'
  return {
    type: 'memory_changed',
    change: 'created',
    event_id: `evt_${id}_1`,
    memory_id: id,
    instance_id: options.instance ?? instanceId,
    version: 1,
    changed_at: '2026-11-23T10:00:00.000Z',
    memory: {
      id,
      instance_id: options.instance ?? instanceId,
      type: 'preference',
      content: options.content ?? `Likes tea number ${id}`,
      confidence: 0.9,
      entities: [],
      relations: [],
      scope: { user_id: 'u1', customer_id: null, client_id: 'client_a' },
      source: {
        ingestion_id: 'ing_1',
        document_type: 'text',
        document_created_at: '2026-11-23T10:00:00.000Z',
      },
      metadata: { topic: 'drinks' },
      created_at: '2026-11-23T10:00:00.000Z',
      updated_at: null,
      occurred_on: null,
      speaker: 'Ana',
      mode: 'fast',
      embedding: { model, vector: [0, 1] },
      ...(options.context ? { context: { ...options.context, embedding: { model, vector: [1, 0] } } } : {}),
    },
  }
}

/** A text's vector: its length and its number of words, so every text is told apart. */
const vectorOf = (text: string) => [text.length, text.split(' ').length]

function newEmbedder(model = 'new-model', dimension = 2) {
  const calls: string[][] = []
  const embedder: Embedder = {
    model,
    dimension,
    async embed(texts) {
      calls.push(texts)
      return texts.map(vectorOf)
    },
    async close() {
      // Nothing to release.
    },
  }
  return { embedder, calls }
}

/**
 * The memories topic as one partition and its vector projection (the first event of a version wins, a deletion's
 * included), read back as
 * the inventory reads the index: without vectors. `interfere` runs before an append lands, as a concurrent writer.
 */
function world(events: MemoryChanged[], options: { projecting?: boolean; dimension?: number } = {}) {
  const log: { event: MemoryChanged; correlationId: string }[] = []
  const documents = new Map<string, StoredMemory>()
  // A deletion leaves its version behind (Elasticsearch's versioned tombstone), so an older or equal one is refused.
  const versions = new Map<string, number>()
  let projectedUpTo = 0
  const project = () => {
    for (; projectedUpTo < log.length; projectedUpTo += 1) {
      const change = log[projectedUpTo]?.event
      if (!change) break
      if ((versions.get(change.memory_id) ?? 0) >= change.version) continue
      versions.set(change.memory_id, change.version)
      if (change.change === 'deleted') documents.delete(change.memory_id)
      else {
        const { content_terms: _terms, ...stored } = memoryDocumentOf(change)
        documents.set(change.memory_id, stored)
      }
    }
  }
  const append = (event: MemoryChanged, correlationId = 'setup') => {
    log.push({ event, correlationId })
    if (options.projecting !== false) project()
  }
  for (const event of events) append(event)
  project()
  const withoutVectors = (stored: StoredMemory): StoredMemory => {
    const { embedding, context_embedding, readings_embedding, context_terms, ...rest } = stored
    return rest
  }
  const ofInstance = (instance: string, model: string) =>
    [...documents.values()].filter(
      (memory) => memory.instance_id === instance && memory.embedding_model !== model,
    )
  const state = {
    interfere: undefined as ((ours: MemoryChanged[]) => void) | undefined,
    refreshed: 0,
  }
  const inventory: EmbeddingInventory = {
    async census(instance, model) {
      return {
        memories: [...documents.values()].filter((memory) => memory.instance_id === instance).length,
        otherModel: ofInstance(instance, model).length,
      }
    },
    async otherModelIds(instance, model, { after, limit }) {
      return ofInstance(instance, model)
        .map((memory) => memory.id)
        .sort()
        .filter((id) => after === undefined || id > after)
        .slice(0, limit)
    },
    async read(ids) {
      return new Map(
        ids.flatMap((id) => {
          const stored = documents.get(id)
          return stored ? [[id, withoutVectors(stored)] as const] : []
        }),
      )
    },
    async dimension() {
      return options.dimension ?? 2
    },
    async refresh() {
      state.refreshed += 1
    },
  }
  const producer: MemoryReembeddingOptions['producer'] = {
    async append(_topic, outgoing) {
      const ours = outgoing.map((event) => event.payload as MemoryChanged)
      const interfere = state.interfere
      state.interfere = undefined
      interfere?.(ours)
      for (const event of outgoing) append(event.payload as MemoryChanged, event.correlationId)
      return [{ partition: 0, baseOffset: '0' }]
    },
  }
  const latest = (id: string) => documents.get(id)
  return { log, documents, latest, inventory, producer, state, append }
}

function reembedding(
  place: ReturnType<typeof world>,
  embedder: Embedder,
  options: Partial<MemoryReembeddingOptions> = {},
) {
  return createMemoryReembedding({
    inventory: place.inventory,
    producer: place.producer,
    embedder,
    idleShare: 0,
    now: () => new Date('2026-12-01T08:00:00.000Z'),
    ...options,
  })
}

describe('textsToEmbed', () => {
  it('embeds each content, and the reading after the turn before it for a memory of a conversation', () => {
    expect(
      textsToEmbed([
        { content: 'Ana likes tea' },
        { content: 'Ana moved', context: { before: 'Where do you live now?', after: '' } },
      ]),
    ).toEqual({
      texts: ['Ana likes tea', 'Ana moved', 'Where do you live now?\nAna moved'],
      slots: [{ own: 0 }, { own: 1, inContext: 2 }],
    })
  })

  it('embeds equal texts once (a turn with nothing before it reads as the content itself)', () => {
    expect(
      textsToEmbed([
        { content: 'Ana likes tea', context: { before: '', after: 'Me too' } },
        { content: 'Ana likes tea' },
      ]),
    ).toEqual({ texts: ['Ana likes tea'], slots: [{ own: 0, inContext: 0 }, { own: 0 }] })
  })
})

describe('reembeddedChange', () => {
  it('is the next version with the same state, the new model vectors and a re-embedding cause', () => {
    const place = world([created('mem_1', { context: { before: 'Hi', after: 'Bye' } })])
    const stored = place.inventory.read(['mem_1'])
    return stored.then((read) => {
      const memory = read.get('mem_1')
      if (!memory) throw new Error('not stored')
      const change = reembeddedChange(memory, { vector: [3, 4], contextVector: [5, 6] }, 'new-model', {
        changedAt: '2026-12-01T08:00:00.000Z',
        eventId: 'evt_new',
      })
      const before = created('mem_1', { context: { before: 'Hi', after: 'Bye' } }).memory
      expect(change).toEqual({
        type: 'memory_changed',
        change: 'updated',
        event_id: 'evt_new',
        memory_id: 'mem_1',
        instance_id: instanceId,
        version: 2,
        changed_at: '2026-12-01T08:00:00.000Z',
        cause: { kind: 'reembedding' },
        memory: {
          ...before,
          // What the projection adds when it stores a memory (its validity) comes back with it.
          valid_from: '2026-11-23T10:00:00.000Z',
          valid_to: null,
          superseded_by: null,
          embedding: { model: 'new-model', vector: [3, 4] },
          context: { before: 'Hi', after: 'Bye', embedding: { model: 'new-model', vector: [5, 6] } },
        },
      })
    })
  })
})

describe('createMemoryReembedding', () => {
  it("appends one updated event per memory of another model, with the new vectors, and leaves other instances' alone", async () => {
    const place = world([
      created('mem_1'),
      created('mem_2', { content: 'Ana moved', context: { before: 'Where do you live?', after: 'Nice' } }),
      created('mem_3', { model: 'new-model' }),
      created('mem_9', { instance: 'inst_b' }),
    ])
    const { embedder, calls } = newEmbedder()
    const report = await reembedding(place, embedder, { batchSize: 10 }).reembed(instanceId, 'corr-1')
    expect(report).toEqual({
      instance: instanceId,
      model: 'new-model',
      correlation_id: 'corr-1',
      memories: 3,
      reembedded: 2,
      skipped: 1,
      remaining: 0,
      seconds: expect.any(Number),
    })
    expect(calls).toEqual([['Likes tea number mem_1', 'Ana moved', 'Where do you live?\nAna moved']])
    const appended = place.log.slice(4)
    expect(
      appended.map(({ event, correlationId }) => [event.memory_id, event.version, correlationId]),
    ).toEqual([
      ['mem_1', 2, 'corr-1'],
      ['mem_2', 2, 'corr-1'],
    ])
    expect(appended[1]?.event.memory.embedding).toEqual({ model: 'new-model', vector: vectorOf('Ana moved') })
    expect(appended[1]?.event.memory.context?.embedding).toEqual({
      model: 'new-model',
      vector: vectorOf('Where do you live?\nAna moved'),
    })
    expect(place.latest('mem_9')?.embedding_model).toBe('old-model')
    expect(place.latest('mem_3')?.version).toBe(1)
    expect(place.state.refreshed).toBe(1)
  })

  it('goes through the instance in batches and reports its progress', async () => {
    const ids = Array.from({ length: 7 }, (_, index) => `mem_${String(index + 10)}`)
    const place = world(ids.map((id) => created(id)))
    const { embedder, calls } = newEmbedder()
    const progress: number[] = []
    const report = await reembedding(place, embedder, {
      batchSize: 3,
      onProgress: ({ reembedded, total }) => progress.push(reembedded / total),
    }).reembed(instanceId)
    expect(calls.map((texts) => texts.length)).toEqual([3, 3, 1])
    expect(progress).toEqual([3 / 7, 6 / 7, 1])
    expect(report).toMatchObject({ memories: 7, reembedded: 7, skipped: 0, remaining: 0 })
    expect(report.correlation_id).toMatch(/^reembedding-/)
  })

  it('re-embeds nothing the second time', async () => {
    const place = world([created('mem_1'), created('mem_2')])
    const { embedder, calls } = newEmbedder()
    await reembedding(place, embedder).reembed(instanceId)
    const appended = place.log.length
    const again = await reembedding(place, embedder).reembed(instanceId)
    expect(again).toMatchObject({ memories: 2, reembedded: 0, skipped: 2, remaining: 0 })
    expect(place.log).toHaveLength(appended)
    expect(calls).toHaveLength(1)
  })

  it('loses its version to an edit that landed first, then re-embeds the edited state', async () => {
    const place = world([created('mem_1'), created('mem_2')])
    const { embedder } = newEmbedder()
    // A PATCH of the metadata read version 1 and lands at version 2 before the re-embedding of mem_1.
    place.state.interfere = () => {
      const edit = created('mem_1')
      place.append({
        ...edit,
        change: 'updated',
        event_id: 'evt_edit',
        version: 2,
        memory: { ...edit.memory, metadata: { topic: 'edited' } },
        cause: { kind: 'api', operation: 'update' },
      })
    }
    const report = await reembedding(place, embedder).reembed(instanceId)
    expect(report).toMatchObject({ reembedded: 2, skipped: 0, remaining: 0 })
    const ours = place.log.filter(({ event }) => event.memory_id === 'mem_1').map(({ event }) => event)
    expect(ours.map((event) => [event.version, event.cause?.kind])).toEqual([
      [1, undefined],
      [2, 'api'],
      [2, 'reembedding'],
      [3, 'reembedding'],
    ])
    expect(place.latest('mem_1')).toMatchObject({
      version: 3,
      embedding_model: 'new-model',
      metadata: { topic: 'edited' },
    })
  })

  it('skips a memory a concurrent write deleted, or gave the model itself', async () => {
    const place = world([created('mem_1'), created('mem_2')])
    const { embedder } = newEmbedder()
    place.state.interfere = () => {
      place.append({ ...created('mem_1'), change: 'deleted', event_id: 'evt_del', version: 2 })
      place.append({
        ...created('mem_2', { model: 'new-model' }),
        change: 'updated',
        event_id: 'evt_e',
        version: 2,
      })
    }
    const report = await reembedding(place, embedder).reembed(instanceId)
    expect(report).toMatchObject({ memories: 2, reembedded: 0, skipped: 2, remaining: 0 })
    expect(place.latest('mem_1')).toBeUndefined()
    expect(place.latest('mem_2')?.last_event_id).toBe('evt_e')
  })

  it('gives up a memory that keeps changing after its attempts, and counts it as remaining', async () => {
    const place = world([created('mem_1')])
    const { embedder } = newEmbedder()
    let version = 1
    const rival = () => {
      version += 1
      place.append({ ...created('mem_1'), change: 'updated', event_id: `evt_r${String(version)}`, version })
      place.state.interfere = rival
    }
    place.state.interfere = rival
    const report = await reembedding(place, embedder, { attemptsOnConflict: 3 }).reembed(instanceId)
    expect(report).toMatchObject({ memories: 1, reembedded: 0, skipped: 1, remaining: 1 })
    place.state.interfere = undefined
    expect(await reembedding(place, embedder).reembed(instanceId)).toMatchObject({
      reembedded: 1,
      remaining: 0,
    })
  })

  it('refuses an index of another dimension before writing anything', async () => {
    const place = world([created('mem_1')], { dimension: 768 })
    const { embedder, calls } = newEmbedder()
    await expect(reembedding(place, embedder).reembed(instanceId)).rejects.toThrow(
      'the memories index holds 768-dimensional vectors and new-model makes 2',
    )
    expect(calls).toEqual([])
    expect(place.log).toHaveLength(1)
  })

  it('stops when the projection does not apply its events in time; a rerun goes on', async () => {
    const place = world([created('mem_1')], { projecting: false })
    const { embedder } = newEmbedder()
    await expect(
      reembedding(place, embedder, { visibilityTimeoutMs: 50 }).reembed(instanceId),
    ).rejects.toThrow('the vector projection did not apply 1 re-embedded memories within 0.05 s')
    expect(place.log).toHaveLength(2)
  })

  it('stops at a failure of the embedder, the batch in flight settled first; a rerun does the rest', async () => {
    const ids = ['mem_1', 'mem_2', 'mem_3', 'mem_4']
    const place = world(ids.map((id) => created(id)))
    const { embedder } = newEmbedder()
    let calls = 0
    const failing: Embedder = {
      ...embedder,
      async embed(texts) {
        calls += 1
        if (calls === 2) throw new Error('the model is unavailable')
        return embedder.embed(texts)
      },
    }
    const released: string[] = []
    const leases: MemoryReembeddingOptions['leases'] = {
      async acquire(name) {
        return { name, holder: 'me', lost: () => false, release: async () => void released.push(name) }
      },
    }
    await expect(reembedding(place, failing, { batchSize: 1, leases }).reembed(instanceId)).rejects.toThrow(
      'the model is unavailable',
    )
    expect(released).toEqual([`reembed-${instanceId}`])
    const appended = place.log.length
    // Nothing is appended once the run has answered.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(place.log).toHaveLength(appended)
    const again = await reembedding(place, embedder).reembed(instanceId)
    expect(again.reembedded + (appended - ids.length)).toBe(ids.length)
    expect(again.remaining).toBe(0)
  })

  it('appends nothing when the embedder answers vectors of another dimension', async () => {
    const place = world([created('mem_1')])
    const { embedder } = newEmbedder()
    const short: Embedder = { ...embedder, embed: async (texts) => texts.map(() => [1]) }
    await expect(reembedding(place, short).reembed(instanceId)).rejects.toThrow(
      'new-model answered 1 vectors for 1 texts, not all of 2 dimensions',
    )
    expect(place.log).toHaveLength(1)
  })

  it('holds the lease of the instance while it runs', async () => {
    const place = world([created('mem_1')])
    const { embedder } = newEmbedder()
    const taken: string[] = []
    await reembedding(place, embedder, {
      leases: {
        async acquire(name) {
          taken.push(`take ${name}`)
          return {
            name,
            holder: 'me',
            lost: () => false,
            release: async () => {
              taken.push(`release ${name}`)
            },
          }
        },
      },
    }).reembed(instanceId)
    expect(taken).toEqual([`take reembed-${instanceId}`, `release reembed-${instanceId}`])
  })
})
