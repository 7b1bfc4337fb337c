import { describe, expect, it } from 'vitest'
import { createLogger, type Embedder, type FactDecider, type FactReader } from '@memory-service/engines'
import { createBuiltinExtractor } from '@memory-service/domain'
import { type ConsumedEvent } from '@memory-service/log'
import { type DocumentAccepted, type MemoryChanged } from '@memory-service/contracts'
import { createDocumentPipeline } from './documentPipeline.js'

const embedder: Embedder = {
  model: 'test/constant',
  dimension: 3,
  embed: async (texts) => texts.map(() => [1, 0, 0]),
  close: async () => undefined,
}

let documents = 0
function document(text: string, createdAt: string, userId = 'u1'): ConsumedEvent<DocumentAccepted> {
  documents += 1
  const payload: DocumentAccepted = {
    type: 'document_accepted',
    ingestion_id: `ing_${documents.toString(16).padStart(32, '0')}`,
    instance_id: `inst_${'d'.repeat(16)}`,
    client_id: 'cli_e',
    document_id: `doc-${String(documents)}`,
    document: text,
    document_type: 'ai-chat-conversation',
    mode: 'fast',
    document_created_at: createdAt,
    user_id: userId,
    customer_id: null,
    metadata: {},
    accepted_at: createdAt,
  }
  return {
    topic: 'mem.documents.v1',
    partition: 0,
    offset: String(documents),
    key: 'k',
    payload,
    headers: {},
    correlationId: `corr-${String(documents)}`,
    raw: { key: null, value: Buffer.from(''), headers: {} },
  }
}

/**
 * A fact reader that reads what a test scripts: a reading for the statements whose content has the words of a line
 * (`as` limits a line to reading a statement as a version of that attribute). The readers themselves are tested in
 * services/language and against the real model (factReader.int.test.ts); here only what supersession does with a
 * reading.
 */
interface ScriptedReading {
  words: RegExp
  attribute: string
  value: string
  previous?: string
  /** Default true: the reading replaces the attribute's value. */
  replaces?: boolean
  as?: 'version'
}

function scriptedReader(lines: ScriptedReading[]): FactReader {
  return {
    models: {} as FactReader['models'],
    read: async ({ content }, options = {}) => {
      const line = lines.find(
        ({ words, attribute, as }) =>
          words.test(content) && (options.asVersionOf ? attribute === options.asVersionOf : as !== 'version'),
      )
      return line
        ? {
            attribute: line.attribute,
            value: line.value,
            previous: line.previous ?? null,
            replaces: line.replaces ?? true,
            confidence: 0.9,
          }
        : null
    },
    meaning: () => ({
      attribute: null,
      topic: {},
      stance: {} as ReturnType<FactReader['meaning']>['stance'],
    }),
    askedAttribute: () => null,
  }
}

const residences: ScriptedReading[] = [
  { words: /Lisbon/, attribute: 'residence', value: 'Lisbon' },
  { words: /Porto/, attribute: 'residence', value: 'Porto' },
  { words: /Berlin/, attribute: 'residence', value: 'Berlin' },
]

/** The pipeline over a log held in memory, with the projection it reads facts from (latest version per memory). */
function world(
  options: {
    reader?: FactReader
    decider?: FactDecider
    embedder?: Embedder
  } = {},
) {
  const log: MemoryChanged[] = []
  const reader = options.reader ?? scriptedReader(residences)
  const projected = new Map<string, MemoryChanged>()
  /** The projection's memories of one instance and user that match, as the stores' reads return them. */
  const projectedIn = (
    instanceId: string,
    scope: { user_id: string | null },
    matches: (memory: MemoryChanged['memory']) => boolean,
  ) =>
    [...projected.values()]
      .filter(
        ({ memory }) =>
          memory.instance_id === instanceId && memory.scope.user_id === scope.user_id && matches(memory),
      )
      .map(({ version, memory }) => ({ version, memory }))
  const pipeline = createDocumentPipeline(
    {
      extractor: createBuiltinExtractor(),
      embedder: options.embedder ?? embedder,
      knownEntities: async () => [],
      jobStatus: async () => null,
      publishJob: async () => undefined,
      publishMemories: async (events) => {
        for (const event of events) {
          log.push(event)
          const current = projected.get(event.memory_id)
          if (!current || current.version < event.version) projected.set(event.memory_id, event)
        }
      },
      publishUsage: async () => undefined,
      awaitProjected: async () => true,
      factVersions: async (instanceId, scope, keys) =>
        projectedIn(
          instanceId,
          scope,
          (memory) => memory.fact !== undefined && keys.includes(memory.fact.key),
        ),
      unstatedVersions: async (instanceId, scope, query) =>
        projectedIn(
          instanceId,
          scope,
          (memory) =>
            memory.speaker === query.speaker &&
            memory.fact?.key !== query.key &&
            (memory.valid_from ?? '') < query.before,
        ),
      factReader: async () => reader,
      ...(options.decider
        ? {
            factDecider: options.decider,
            nearestMemories: async (instanceId: string, scope: { user_id: string | null }) =>
              projectedIn(instanceId, scope, () => true),
          }
        : {}),
      deadLetters: { write: async () => undefined },
    },
    { retry: { maxAttempts: 1, baseDelayMs: 1, sleep: async () => undefined } },
  )
  const logger = createLogger({ level: 'silent', name: 'supersession-test' })
  /** content → [valid_from, valid_to, superseded content] as the projection holds it. */
  const state = () =>
    Object.fromEntries(
      [...projected.values()].map(({ memory }) => [
        memory.content,
        [
          memory.valid_from,
          memory.valid_to,
          projected.get(memory.superseded_by ?? '')?.memory.content ?? null,
        ],
      ]),
    )
  /** The state of the memory whose content has these words. */
  const stateOf = (words: string) => Object.entries(state()).find(([content]) => content.includes(words))?.[1]
  return {
    log,
    ingest: async (...events: ConsumedEvent<DocumentAccepted>[]) => {
      for (const event of events) await pipeline.process(event, logger)
    },
    state,
    stateOf,
  }
}

const lisbon = () => document('Caroline: I live in Lisbon.', '2023-01-10T09:00:00.000Z')
const porto = () => document('Caroline: We moved to Porto last month!', '2024-03-10T09:00:00.000Z')
const berlin = () => document('Caroline: I relocated to Berlin.', '2025-06-01T09:00:00.000Z')

describe('supersession in the pipeline', () => {
  it('ends the older version of a fact when a newer one arrives, as an update caused by supersession', async () => {
    const { ingest, log, state } = world()
    await ingest(lisbon(), porto())
    expect(state()).toEqual({
      'Caroline lives in Lisbon.': [
        '2023-01-10T09:00:00.000Z',
        '2024-02-01T00:00:00.000Z',
        'Caroline said: We moved to Porto last month (February 2024)!',
      ],
      'Caroline said: We moved to Porto last month (February 2024)!': [
        '2024-02-01T00:00:00.000Z',
        null,
        null,
      ],
    })
    const update = log.find((event) => event.change === 'updated')
    expect(update).toMatchObject({ version: 2, cause: { kind: 'supersession' } })
    expect(
      log.filter((event) => event.change === 'created').every((event) => event.cause?.kind === 'ingestion'),
    ).toBe(true)
  })

  it('ends in the same state whatever order the history arrives in', async () => {
    const inOrder = world()
    await inOrder.ingest(lisbon(), porto(), berlin())
    for (const order of [
      [berlin(), porto(), lisbon()],
      [porto(), lisbon(), berlin()],
      [berlin(), lisbon(), porto()],
    ]) {
      const shuffled = world()
      await shuffled.ingest(...order)
      expect(shuffled.state()).toEqual(inOrder.state())
    }
    expect(Object.values(inOrder.state()).filter(([, validTo]) => validTo === null)).toHaveLength(1)
  })

  it('keeps other people and other users apart, and lets a restatement supersede nothing', async () => {
    const { ingest, state } = world()
    await ingest(
      lisbon(),
      document('Melanie: I moved to Porto.', '2024-01-01T00:00:00.000Z'),
      document('Caroline: I moved to Porto.', '2024-01-01T00:00:00.000Z', 'u2'),
      document('Caroline: I still live in Lisbon.', '2024-05-01T00:00:00.000Z'),
    )
    expect(Object.values(state()).every(([, validTo]) => validTo === null)).toBe(true)
  })

  it('reads an older statement that named the place in other words as the version a new one ends', async () => {
    const reader = scriptedReader([
      { words: /Toronto/, attribute: 'residence', value: 'Toronto' },
      { words: /Accra/, attribute: 'residence', value: 'Accra', as: 'version' },
    ])
    const { ingest, state } = world({ reader })
    await ingest(
      document('Kwame: Accra today is something else.', '2022-08-10T09:00:00.000Z'),
      document('Kwame: We moved to Toronto two weeks ago.', '2023-02-27T09:00:00.000Z'),
    )
    expect(state()['Kwame said: Accra today (10 August 2022) is something else.']).toEqual([
      '2022-08-10T00:00:00.000Z',
      '2023-02-13T00:00:00.000Z',
      'Kwame said: We moved to Toronto two weeks ago (the week of 13 February 2023).',
    ])
  })

  it('leaves an older statement alone when the reader finds no version of the attribute in it', async () => {
    const reader = scriptedReader([{ words: /Toronto/, attribute: 'residence', value: 'Toronto' }])
    const { ingest, state } = world({ reader })
    await ingest(
      document('Kwame: Accra today is something else.', '2022-08-10T09:00:00.000Z'),
      document('Kwame: We moved to Toronto two weeks ago.', '2023-02-27T09:00:00.000Z'),
    )
    expect(state()['Kwame said: Accra today (10 August 2022) is something else.']?.[1]).toBeNull()
  })

  it('ends an older statement that names the value a new one says it replaced, whatever the reader makes of it', async () => {
    const reader = scriptedReader([
      { words: /Grab/, attribute: 'employer', value: 'Grab', previous: 'Shopee' },
    ])
    const { ingest, stateOf } = world({ reader })
    await ingest(
      document(
        "Mei: valentine's day and I'm stuck at Shopee until midnight lol.",
        '2023-02-14T09:00:00.000Z',
      ),
      document('Mei: Office chairs are so expensive.', '2023-03-01T09:00:00.000Z'),
      document(
        "Mei: I left Shopee in june and I've been at Grab for two months now.",
        '2023-08-20T09:00:00.000Z',
      ),
    )
    expect(stateOf('stuck at Shopee')?.[2]).toContain('Grab')
    expect(stateOf('chairs')?.[1]).toBeNull()
  })

  it('reads an older memory read as a neighbouring attribute as a version of the one stated now', async () => {
    const reader = scriptedReader([
      { words: /Fitzroy/, attribute: 'neighbourhood', value: 'Fitzroy' },
      { words: /Fitzroy/, attribute: 'residence', value: 'Melbourne', as: 'version' },
      { words: /Sydney/, attribute: 'residence', value: 'Sydney' },
    ])
    const { ingest, stateOf } = world({ reader })
    await ingest(
      document(
        'Ana: Our little terrace in Fitzroy, Melbourne has a tiny kitchen.',
        '2022-03-01T09:00:00.000Z',
      ),
      document('Ana: We moved to Sydney in May.', '2023-06-01T09:00:00.000Z'),
    )
    expect(stateOf('Fitzroy')?.[2]).toContain('Sydney')
  })

  it("ends nothing with a value added beside the ones held, and ends a pet's statements where a new one replaced it", async () => {
    const reader = scriptedReader([
      { words: /Bubbles turned/, attribute: 'pet', value: 'goldfish Bubbles', replaces: false },
      { words: /Miso/, attribute: 'pet', value: 'cat named Miso', replaces: false },
      { words: /Taro/, attribute: 'pet', value: 'corgi named Taro', previous: 'Bubbles' },
    ])
    const { ingest, stateOf } = world({ reader })
    await ingest(
      document('Leilani: My goldfish Bubbles turned 3 today.', '2022-03-01T09:00:00.000Z'),
      document('Leilani: We also adopted a cat named Miso.', '2022-05-01T09:00:00.000Z'),
      document('Leilani: RIP Bubbles. We got a puppy, a corgi named Taro!', '2023-05-01T09:00:00.000Z'),
    )
    expect(stateOf('Bubbles turned')?.[2]).toContain('Taro')
    expect(stateOf('Miso')?.[1]).toBeNull()
    expect(stateOf('Taro')?.[1]).toBeNull()
  })

  it("reads no fact of an assistant's statements, nor of a statement nobody is named as saying", async () => {
    const reader = scriptedReader(residences)
    const { ingest, log } = world({ reader })
    await ingest(
      document(
        'Assistant: Porto is a lovely city to live in, with trams and the river.',
        '2024-01-01T00:00:00.000Z',
      ),
      document('I live in Lisbon and love it.', '2024-01-01T00:00:00.000Z'),
    )
    expect(log.filter((event) => event.memory.fact)).toEqual([])
  })

  describe('with a model deciding', () => {
    const deciding = (decide: FactDecider['decide']): FactDecider => ({ name: 'test', decide })
    const firstNeighbour = (input: Parameters<FactDecider['decide']>[0]) =>
      input.statements[0]?.neighbours[0]?.id ?? null

    it('ends the memory the model says a new statement updates, whatever the words', async () => {
      const decider = deciding(async (input) => ({
        decisions: input.statements.map(() => {
          const target = firstNeighbour(input)
          return target
            ? { action: 'update' as const, target, attribute: 'employer' }
            : { action: 'add' as const, target: null, attribute: null }
        }),
      }))
      const { ingest, state } = world({ decider })
      await ingest(
        document('Tomasz: We just pushed the hotfix at CD Projekt.', '2022-05-01T09:00:00.000Z'),
        document('Tomasz: First week at Revolut done.', '2023-01-09T09:00:00.000Z'),
      )
      expect(state()['Tomasz said: We just pushed the hotfix at CD Projekt.']).toEqual([
        '2022-05-01T09:00:00.000Z',
        '2023-01-09T09:00:00.000Z',
        'Tomasz said: First week at Revolut done.',
      ])
    })

    it('stores nothing of a statement the model finds already known', async () => {
      const decider = deciding(async (input) => ({
        decisions: input.statements.map(() =>
          firstNeighbour(input)
            ? { action: 'none' as const, target: null, attribute: null }
            : { action: 'add' as const, target: null, attribute: null },
        ),
      }))
      const { ingest, state } = world({ decider })
      await ingest(
        document('Caroline: I live in Lisbon.', '2023-01-10T09:00:00.000Z'),
        document('Caroline: Still living in Lisbon, love it.', '2023-02-10T09:00:00.000Z'),
      )
      expect(Object.keys(state())).toEqual(['Caroline lives in Lisbon.'])
    })

    it('falls back to the facts the reader reads when the model fails', async () => {
      const decider = deciding(async () => {
        throw new Error('model unavailable')
      })
      const { ingest, state } = world({ decider })
      await ingest(lisbon(), porto())
      expect(state()['Caroline lives in Lisbon.']?.[1]).toBe('2024-02-01T00:00:00.000Z')
    })
  })
})
