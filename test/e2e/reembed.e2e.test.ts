/**
 * Re-embedding one instance in place on the real stack (`memory-service reembed`): with an embedder of another
 * model label, every memory of the instance gets an `updated` event with that model's vectors in the log and the
 * index, while another instance keeps its vectors, search keeps answering, an edit made during the run survives,
 * and a second run re-embeds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@elastic/elasticsearch'
import { type MemoryClient } from '@memory-service/client'
import { type CreatedInstance, type Memory, type MemoryChanged } from '@memory-service/contracts'
import {
  contextualTextOf,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  validityOf,
  type MemoryDocument,
} from '@memory-service/domain'
import { createElasticsearchClient, type Embedder } from '@memory-service/engines'
import { runReembed, runVerify } from '@memory-service/cli'
import { createTestClient } from '../support/http.js'
import { createHashingEmbedder } from '../support/hashingEmbedder.js'
import { eventually, readTopicToEnd, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let elasticsearch: Client
let other: CreatedInstance
const clients: Record<'reembedded' | 'untouched', MemoryClient> = {} as never
const instances: Record<'reembedded' | 'untouched', string> = {} as never
const memoryIds: Record<'reembedded' | 'untouched', string[]> = { reembedded: [], untouched: [] }
const userId = uniqueName('reembed-user')
const newModel = 'test/hashing-reembedded'

/** A conversation (one document per turn: the memories get a context and a second vector) and two documents alone. */
async function remember(client: MemoryClient, owner: string): Promise<string[]> {
  const at = (minute: number) => `2024-06-01T09:${String(minute).padStart(2, '0')}:00.000Z`
  const batch = await client.memories.ingestBatch(
    [
      `${owner}: I adopted a greyhound called Biscuit last month.`,
      `${owner}: Biscuit sleeps on the sofa and hates the rain.`,
      `${owner}: We walk along the canal every morning before work.`,
    ].map((document, turn) => ({
      document,
      document_type: 'ai-chat-conversation',
      mode: 'fast',
      document_created_at: at(turn),
      user_id: userId,
    })),
  )
  const single = await Promise.all(
    [
      `${owner}: My favourite dessert is pistachio ice cream.`,
      `${owner}: I play the cello in a community orchestra on Thursdays.`,
    ].map((document) =>
      client.memories.ingest({
        document,
        document_type: 'document',
        mode: 'fast',
        document_created_at: at(30),
        user_id: userId,
      }),
    ),
  )
  const ids: string[] = []
  for (const ingestionId of [
    ...batch.results.map((result) => result.ingestion_id),
    ...single.map((accepted) => accepted.ingestion_id),
  ]) {
    const job = await completedJob(client, ingestionId)
    ids.push(...(job.memory_ids ?? []))
  }
  return ids
}

/** What the index holds for memories, by id: the version and the model of the vectors. */
async function indexed(
  ids: string[],
): Promise<Map<string, Pick<MemoryDocument, 'version' | 'embedding_model'>>> {
  const { docs } = await elasticsearch.mget<MemoryDocument>({
    index: MEMORIES_ALIAS,
    ids,
    _source_includes: ['version', 'embedding_model'],
  })
  return new Map(
    docs.flatMap((doc) =>
      'found' in doc && doc.found && doc._source ? [[doc._id, doc._source] as const] : [],
    ),
  )
}

/** The events of an instance's memories in the log, in log order per memory. */
async function logged(key: 'reembedded' | 'untouched') {
  const records = await readTopicToEnd<MemoryChanged>(harness.kafka, harness.codec, MEMORIES_TOPIC, {
    keys: new Set(memoryIds[key]),
  })
  return records.filter(({ value }) => value.instance_id === instances[key])
}

const embedder = () => createHashingEmbedder(harness.config.embeddings.dimension, newModel)

beforeAll(async () => {
  harness = await startGatewayWithInstance('reembed', { withWorkers: true })
  elasticsearch = createElasticsearchClient(harness.config.elasticsearch)
  other = await harness.createInstance('reembed-other')
  await harness.untilUsable(other.api_key.key)
  const baseUrl = harness.gateway.addresses.http ?? ''
  clients.reembedded = createTestClient({ baseUrl, apiKey: harness.instance.api_key.key })
  clients.untouched = createTestClient({ baseUrl, apiKey: other.api_key.key })
  instances.reembedded = harness.instance.instance.instance_id
  instances.untouched = other.instance.instance_id
  memoryIds.reembedded = await remember(clients.reembedded, 'Noor')
  memoryIds.untouched = await remember(clients.untouched, 'Tariq')
}, 240_000)

afterAll(async () => {
  await elasticsearch.close()
  await harness.close()
})

describe('reembed', () => {
  it("gives one instance's memories the new model's vectors through the log, keeps an edit made meanwhile, and leaves the other instance alone", async () => {
    const before = await indexed([...memoryIds.reembedded, ...memoryIds.untouched])
    expect(before.size).toBe(memoryIds.reembedded.length + memoryIds.untouched.length)
    expect(new Set([...before.values()].map((memory) => memory.embedding_model))).toEqual(
      new Set([`local/${harness.config.embeddings.model}`]),
    )
    expect(memoryIds.reembedded.length).toBeGreaterThanOrEqual(5)

    // An edit of the metadata lands between the run's read of a memory and its append, through the API: the run
    // loses that version to the edit, reads the edited memory again and re-embeds it.
    const edited = memoryIds.reembedded[Math.floor(memoryIds.reembedded.length / 2)] ?? ''
    const { content } = await clients.reembedded.memories.get(edited)
    const hashing = embedder()
    let updated: Memory | undefined
    const editing: Embedder = {
      ...hashing,
      async embed(texts) {
        if (texts.includes(content) && !updated) {
          updated = await clients.reembedded.memories.update(edited, {
            metadata: { checked: 'during the re-embedding' },
          })
        }
        return hashing.embed(texts)
      },
    }
    // Searches keep being answered while the instance holds both models' vectors. The memories are searchable
    // before the run starts: the index reads above are real time, a search sees them only after a refresh.
    const searchBiscuit = async () =>
      (await clients.reembedded.memories.search({ query: 'greyhound Biscuit', user_id: userId, limit: 5 }))
        .results.length
    await eventually(async () => ((await searchBiscuit()) > 0 ? true : undefined))
    const run = { going: true }
    const answered: number[] = []
    const searching = (async () => {
      while (run.going) answered.push(await searchBiscuit())
    })()
    const [report] = await runReembed(
      harness.config,
      ['--instance', instances.reembedded, '--batch', '2', '--idle-share', '1'],
      harness.logger,
      { embedder: editing },
    ).finally(() => (run.going = false))
    await searching
    expect(answered.length).toBeGreaterThan(0)
    expect(answered.filter((results) => results === 0)).toEqual([])
    expect(updated?.metadata).toMatchObject({ checked: 'during the re-embedding' })
    expect(report).toEqual({
      instance: instances.reembedded,
      model: newModel,
      correlation_id: expect.stringMatching(/^reembedding-/),
      memories: memoryIds.reembedded.length,
      reembedded: memoryIds.reembedded.length,
      skipped: 0,
      remaining: 0,
      seconds: expect.any(Number),
    })

    // The index: every memory of the instance at the new model, the edit kept; the other instance as it was.
    const after = await indexed([...memoryIds.reembedded, ...memoryIds.untouched])
    for (const id of memoryIds.reembedded) expect(after.get(id)?.embedding_model).toBe(newModel)
    for (const id of memoryIds.untouched) expect(after.get(id)).toEqual(before.get(id))
    expect((await clients.reembedded.memories.get(edited)).metadata).toMatchObject({
      checked: 'during the re-embedding',
    })

    // The log: one re-embedding event per memory that the projection kept, with the new model's vectors of its
    // content and of its reading after the turn before it.
    const vectors = embedder()
    const events = await logged('reembedded')
    const reembeddings = events.filter(({ value }) => value.cause?.kind === 'reembedding')
    // The edited memory: the run's first append lost its version to the edit, the second one won.
    expect(
      events
        .filter(({ value }) => value.memory_id === edited)
        .map(({ value }) => [value.version, value.cause?.kind]),
    ).toEqual([
      [1, 'ingestion'],
      [2, 'api'],
      [2, 'reembedding'],
      [3, 'reembedding'],
    ])
    expect(new Set(reembeddings.map(({ headers }) => headers['x-correlation-id']))).toEqual(
      new Set([report?.correlation_id]),
    )
    let withContext = 0
    for (const id of memoryIds.reembedded) {
      const kept = reembeddings.filter(({ value }) => value.memory_id === id).at(-1)?.value
      expect(kept, id).toBeDefined()
      if (!kept) continue
      const { memory } = kept
      expect(kept.change).toBe('updated')
      expect(memory.embedding).toEqual({
        model: newModel,
        vector: (await vectors.embed([memory.content]))[0],
      })
      if (memory.context) {
        withContext += 1
        expect(memory.context.embedding).toEqual({
          model: newModel,
          vector: (await vectors.embed([contextualTextOf(memory.content, memory.context)]))[0],
        })
      }
      // Everything but the vectors is the state of the version before it.
      const previous = events.filter(
        ({ value }) => value.memory_id === id && value.version === kept.version - 1,
      )
      const strip = ({ embedding: _vector, context, ...state }: MemoryChanged['memory']) => ({
        ...state,
        ...validityOf(state),
        context: context ? { before: context.before, after: context.after } : undefined,
      })
      expect(previous.map(({ value }) => strip(value.memory))).toContainEqual(strip(memory))
    }
    expect(withContext).toBeGreaterThan(0)
    const untouchedEvents = await logged('untouched')
    expect(untouchedEvents.filter(({ value }) => value.cause?.kind === 'reembedding')).toEqual([])

    // Both projections applied the new versions: nothing differs from what the log says they should hold.
    for (const instance of [instances.reembedded, instances.untouched]) {
      const reports = await eventually(async () => {
        const verified = await runVerify(harness.config, { projection: 'all', instance })
        return verified.every((verify) => verify.drift.length === 0) ? verified : undefined
      }, 30_000)
      expect(reports.map((verify) => verify.projection)).toEqual(['vector', 'graph', 'conversations'])
    }

    // The history tells the change and why.
    const history = await clients.reembedded.memories.history(memoryIds.reembedded[0] ?? '')
    expect(history.changes.at(-1)).toMatchObject({
      change: 'updated',
      cause: { kind: 'reembedding' },
      correlation_id: report?.correlation_id,
    })
  })

  it('both instances still answer searches', async () => {
    await elasticsearch.indices.refresh({ index: MEMORIES_ALIAS })
    for (const key of ['reembedded', 'untouched'] as const) {
      for (const mode of ['accurate', 'fast'] as const) {
        const reply = await clients[key].memories.search({
          query: 'pistachio ice cream dessert',
          user_id: userId,
          mode,
          limit: 5,
        })
        expect(reply.results.map((memory) => memory.content).join(' | '), `${key} ${mode}`).toContain(
          'pistachio',
        )
        expect(reply.results.every((memory) => memoryIds[key].includes(memory.id))).toBe(true)
      }
    }
  })

  it('a second run re-embeds nothing and appends nothing', async () => {
    const before = (await logged('reembedded')).length
    const [report] = await runReembed(harness.config, ['--instance', instances.reembedded], harness.logger, {
      embedder: embedder(),
    })
    expect(report).toMatchObject({
      memories: memoryIds.reembedded.length,
      reembedded: 0,
      skipped: memoryIds.reembedded.length,
      remaining: 0,
    })
    expect(await logged('reembedded')).toHaveLength(before)
  })

  it('refuses an instance that does not exist, before writing anything', async () => {
    await expect(
      runReembed(harness.config, ['--instance', 'inst_0000000000000000'], harness.logger, {
        embedder: embedder(),
      }),
    ).rejects.toMatchObject({ code: 'INSTANCE_NOT_FOUND' })
  })
})
