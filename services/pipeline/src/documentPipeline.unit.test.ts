import { describe, expect, it } from 'vitest'
import { EmbeddingError, type Embedder, createLogger } from '@memory-service/engines'
import {
  ExtractionError,
  type ExtractedStatement,
  type Extractor,
  type JobStatus,
} from '@memory-service/domain'
import { type ConsumedEvent, type DeadLetterError } from '@memory-service/log'
import { type OutgoingEvent } from '@memory-service/domain'
import {
  type DocumentAccepted,
  type IngestionJobChanged,
  type MemoryChanged,
} from '@memory-service/contracts'
import { createDocumentPipeline } from './documentPipeline.js'
import { createLaneScheduler, type StageTurns } from './lanes.js'

const accepted: DocumentAccepted = {
  type: 'document_accepted',
  ingestion_id: `ing_${'c'.repeat(32)}`,
  instance_id: `inst_${'d'.repeat(16)}`,
  client_id: 'cli_e',
  document_id: 'doc-1',
  document: 'ignored by the scripted extractor',
  document_type: 'note',
  mode: 'long-range',
  document_created_at: '2023-05-08T13:56:00.000Z',
  user_id: 'u1',
  customer_id: 'c1',
  metadata: { dia_id: 'D1:1' },
  accepted_at: '2023-05-08T13:56:00.000Z',
}

const event: ConsumedEvent<DocumentAccepted> = {
  topic: 'mem.documents.v1',
  partition: 2,
  offset: '41',
  key: 'k',
  payload: accepted,
  headers: { 'x-correlation-id': 'corr-1' },
  correlationId: 'corr-1',
  raw: { key: Buffer.from('k'), value: Buffer.from('v'), headers: {} },
}

const statement = (content: string, names: string[] = []): ExtractedStatement => ({
  content,
  speaker: null,
  occurredOn: null,
  entities: names.map((name) => ({ name, type: 'person' })),
  relations: [],
  category: { type: 'fact', confidence: 0.8 },
})

/** An embedder that fails (transiently) on texts containing "poison", and counts its calls. */
function scriptedEmbedder(): Embedder & { calls: number } {
  const embedder = {
    model: 'test/constant',
    dimension: 3,
    calls: 0,
    async embed(texts: string[]) {
      embedder.calls += 1
      if (texts.some((text) => text.includes('poison')))
        throw new EmbeddingError('EMBEDDING_UNAVAILABLE', 'down', true)
      return texts.map(() => [1, 0, 0])
    },
    close: async () => undefined,
  }
  return embedder
}

function harness(
  extract: Extractor['extract'],
  options: { status?: JobStatus; embedder?: Embedder; accepted?: DocumentAccepted } = {},
) {
  const jobs: IngestionJobChanged[] = []
  const memories: MemoryChanged[] = []
  const usage: OutgoingEvent[] = []
  const letters: DeadLetterError[][] = []
  let extractions = 0
  const pipeline = createDocumentPipeline(
    {
      extractor: {
        name: 'scripted',
        extract: (input, signal) => {
          extractions += 1
          return extract(input, signal)
        },
      },
      embedder: options.embedder ?? scriptedEmbedder(),
      knownEntities: async () => [
        { entity_id: 'ent_caroline', canonical_name: 'Caroline Smith', type: 'person', aliases: [] },
      ],
      jobStatus: async () => options.status ?? null,
      publishJob: async (job) => void jobs.push(job),
      publishMemories: async (events) => void memories.push(...events),
      publishUsage: async (events) => void usage.push(...events),
      awaitProjected: async () => true,
      factVersions: async () => [],
      deadLetters: { write: async (_record, errors) => void letters.push(errors) },
    },
    { retry: { maxAttempts: 3, baseDelayMs: 1, sleep: async () => undefined }, embeddingGroupSize: 2 },
  )
  return {
    run: (turns?: StageTurns) =>
      pipeline.process(
        { ...event, payload: options.accepted ?? accepted },
        createLogger({ level: 'silent', name: 'pipeline-test' }),
        turns,
      ),
    jobs,
    memories,
    usage,
    letters,
    extractions: () => extractions,
  }
}

describe('document pipeline', () => {
  it('forms a bulk document only in its turns: held before its first stage while an interactive one needs the processor', async () => {
    const lanes = createLaneScheduler()
    const bulk = harness(async () => ({ statements: [statement('Caroline likes tea.', ['Caroline'])] }))
    const interactive = lanes.interactiveTurns()
    const running = bulk.run(lanes.bulkTurns())
    for (let round = 0; round < 20; round += 1) await Promise.resolve()
    expect(bulk.extractions()).toBe(0)
    expect(lanes.state().heldBack).toBe(1)
    interactive.doneWithProcessor()
    const outcome = await running
    expect(outcome.job.status).toBe('completed')
    expect(bulk.memories).toHaveLength(1)
  })

  it('gives its turn up once its memories are formed, before writing them', async () => {
    const lanes = createLaneScheduler()
    const interactive = lanes.interactiveTurns()
    let heldWhenPublished: number | undefined
    const run = harness(async () => ({ statements: [statement('Caroline likes tea.', ['Caroline'])] }))
    const outcome = await run.run({
      waitTurn: () => interactive.waitTurn(),
      doneWithProcessor: () => {
        interactive.doneWithProcessor()
        heldWhenPublished ??= run.memories.length
      },
    })
    expect(outcome.job.status).toBe('completed')
    expect(heldWhenPublished).toBe(0)
    expect(lanes.state().interactive).toBe(0)
  })

  it('stores every statement and publishes job transitions in version order, ending completed', async () => {
    const run = harness(async () => ({
      statements: [statement('Caroline likes tea.', ['Caroline']), statement('Sky is blue.')],
    }))
    const outcome = await run.run()
    expect(outcome.job.status).toBe('completed')
    expect(run.jobs.map((job) => [job.version, job.status])).toEqual([
      [2, 'processing'],
      [4, 'processing'],
      [5, 'processing'],
      [100, 'completed'],
    ])
    expect(run.memories.map((memory) => memory.memory_id)).toEqual(outcome.job.memory_ids)
    expect(run.memories[0]?.memory).toMatchObject({
      scope: { user_id: 'u1', customer_id: 'c1', client_id: 'cli_e' },
      metadata: { dia_id: 'D1:1' },
      updated_at: null,
      // long-range resolution matched the first name to the known entity
      entities: [expect.objectContaining({ entity_id: 'ent_caroline', canonical_name: 'Caroline Smith' })],
    })
    // long-range looked the entities up in the graph once
    expect(run.usage.map((usage) => (usage.payload as { metric: string }).metric)).toEqual([
      'ingestion',
      'memories_stored',
      'graph_queries',
    ])
    expect(run.letters).toEqual([])
  })

  it('embeds a turn of a conversation twice: alone, and read after the turn before it', async () => {
    const embedded: string[] = []
    const embedder: Embedder = {
      model: 'test/recording',
      dimension: 3,
      async embed(texts) {
        embedded.push(...texts)
        return texts.map((text) => [text.length, 0, 0])
      },
      close: async () => undefined,
    }
    const context = { before: 'Caroline: I signed with a beverage company!', after: 'Caroline: Thanks!' }
    const extract = async () => ({ statements: [statement('Melanie said it felt crazy.')] })
    const inConversation = harness(extract, { embedder, accepted: { ...accepted, context } })
    await inConversation.run()
    const read = `${context.before}\nMelanie said it felt crazy.`
    expect(embedded).toEqual(['Melanie said it felt crazy.', read])
    expect(inConversation.memories[0]?.memory.embedding.vector).toEqual([27, 0, 0])
    expect(inConversation.memories[0]?.memory.context).toEqual({
      ...context,
      embedding: { model: 'test/recording', vector: [read.length, 0, 0] },
    })

    embedded.length = 0
    const alone = harness(extract, { embedder })
    await alone.run()
    expect(embedded).toEqual(['Melanie said it felt crazy.'])
    expect(alone.memories[0]?.memory.context).toBeUndefined()
  })

  it('stores an imported memory as given: no extraction, its type, dates and validity, our model’s vector', async () => {
    const embedder = scriptedEmbedder()
    const imported: DocumentAccepted = {
      ...accepted,
      document: 'Kendra loves Adidas shoes',
      imported: {
        format: 'zep',
        external_id: 'e-1',
        type: 'preference',
        confidence: 0.6,
        created_at: '2025-05-01T09:00:05.000Z',
        valid_from: '2025-05-01T09:00:00.000Z',
        valid_to: '2025-06-10T18:20:00.000Z',
        embedding: { model: 'test/constant', vector: [0, 1, 0] },
      },
    }
    const run = harness(async () => ({ statements: [statement('never asked')] }), {
      embedder,
      accepted: imported,
    })
    expect((await run.run()).job.status).toBe('completed')
    expect(run.extractions()).toBe(0)
    expect(embedder.calls).toBe(0)
    expect(run.memories).toHaveLength(1)
    expect(run.memories[0]?.memory).toMatchObject({
      content: 'Kendra loves Adidas shoes',
      type: 'preference',
      confidence: 0.6,
      created_at: '2025-05-01T09:00:05.000Z',
      valid_from: '2025-05-01T09:00:00.000Z',
      valid_to: '2025-06-10T18:20:00.000Z',
      embedding: { model: 'test/constant', vector: [0, 1, 0] },
      entities: [],
    })
    expect(run.memories[0]?.memory.fact).toBeUndefined()

    // Another model's vector is not comparable with ours: the text is embedded; without a type the categorizer types it.
    const otherModel = harness(async () => ({ statements: [] }), {
      embedder,
      accepted: {
        ...imported,
        imported: {
          format: 'mem0',
          external_id: 'm-1',
          embedding: { model: 'openai/text-embedding-3-small', vector: [1, 1, 1] },
        },
      },
    })
    await otherModel.run()
    expect(embedder.calls).toBe(1)
    expect(otherModel.memories[0]?.memory.embedding.vector).toEqual([1, 0, 0])
    expect(otherModel.memories[0]?.memory.valid_to).toBeNull()
    expect(otherModel.memories[0]?.memory.valid_from).toBe(accepted.document_created_at)
  })

  it('derives the same memory ids when the same document is processed again', async () => {
    const extract = async () => ({ statements: [statement('Caroline likes tea.')] })
    const first = harness(extract)
    const second = harness(extract)
    await first.run()
    await second.run()
    expect(second.memories.map((memory) => memory.memory_id)).toEqual(
      first.memories.map((memory) => memory.memory_id),
    )
  })

  it('skips a document whose job already finished (a redelivered message)', async () => {
    const run = harness(async () => ({ statements: [statement('x y z')] }), { status: 'completed' })
    expect((await run.run()).skipped).toBe(true)
    expect(run.extractions()).toBe(0)
    expect(run.jobs).toEqual([])
  })

  it('retries a transient extraction failure, then fails the job and dead-letters the record', async () => {
    const run = harness(async () => {
      throw new ExtractionError('EXTRACTION_UNAVAILABLE', 'model down', true)
    })
    const outcome = await run.run()
    expect(run.extractions()).toBe(3)
    expect(outcome).toMatchObject({ deadLettered: true, job: { status: 'failed', memory_ids: [] } })
    expect(outcome.job.errors).toEqual([
      expect.objectContaining({ stage: 'extraction', code: 'EXTRACTION_UNAVAILABLE' }),
    ])
    expect(run.letters).toEqual([[expect.objectContaining({ code: 'EXTRACTION_UNAVAILABLE', attempts: 3 })]])
    expect(run.memories).toEqual([])
  })

  it('refuses malformed extractor output without retrying', async () => {
    const run = harness(async () => ({ statements: [{ content: '' }] }) as never)
    const outcome = await run.run()
    expect(run.extractions()).toBe(1)
    expect(outcome.job.errors[0]).toMatchObject({ code: 'EXTRACTION_MALFORMED_OUTPUT' })
  })

  it('loses only the statement the embedder cannot take: partial_success', async () => {
    const run = harness(async () => ({
      statements: [
        statement('one fine statement'),
        statement('poison statement'),
        statement('third statement'),
      ],
    }))
    const outcome = await run.run()
    expect(outcome.job.status).toBe('partial_success')
    expect(run.memories).toHaveLength(2)
    expect(outcome.job.progress.storage).toBeCloseTo(2 / 3)
    expect(outcome.job.errors).toEqual([
      expect.objectContaining({ stage: 'storage', code: 'EMBEDDING_UNAVAILABLE' }),
    ])
    expect(outcome.deadLettered).toBe(true)
  })

  it('ends completed with no memory, and says why, when nothing was worth remembering', async () => {
    const run = harness(async () => ({ statements: [] }))
    const outcome = await run.run()
    expect(outcome.job).toMatchObject({
      status: 'completed',
      memory_ids: [],
      errors: [],
      progress: { extraction: 1, categorization: 1, entity_resolution: 1, storage: 1 },
      reason: { code: 'NOTHING_TO_REMEMBER', message: expect.any(String) },
    })
    expect(outcome.deadLettered).toBe(false)
  })

  it('still fails, without a reason, when extraction fails on a document', async () => {
    const run = harness(async () => {
      throw new Error('model unreachable')
    })
    const outcome = await run.run()
    expect(outcome.job.status).toBe('failed')
    expect(outcome.job.reason).toBeUndefined()
  })

  it('records model token usage as usage events', async () => {
    const run = harness(async () => ({
      statements: [statement('Caroline likes tea.')],
      usage: { model: 'gpt-test', inputTokens: 120, outputTokens: 30 },
    }))
    await run.run()
    const tokens = run.usage
      .map((usage) => usage.payload as { metric: string; value: number; dimensions: { model?: string } })
      .filter((usage) => usage.metric.startsWith('llm_'))
    expect(tokens).toEqual([
      expect.objectContaining({
        metric: 'llm_input_tokens',
        value: 120,
        dimensions: expect.objectContaining({ model: 'gpt-test' }) as unknown,
      }),
      expect.objectContaining({ metric: 'llm_output_tokens', value: 30 }),
    ])
  })
})
