import { describe, expect, it } from 'vitest'
import { createLogger, type Embedder, type FactDecider } from '@memory-service/engines'
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

/** The pipeline over a log held in memory, with the projection it reads facts from (latest version per memory). */
function world(
  options: {
    reader?: { read: (vector: readonly number[]) => Record<string, number> }
    decider?: FactDecider
    embedder?: Embedder
  } = {},
) {
  const log: MemoryChanged[] = []
  const reader = options.reader ?? { read: () => ({}) }
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
      factVersionsStartingWith: async (instanceId, scope, prefix) =>
        projectedIn(instanceId, scope, (memory) => memory.fact?.key.startsWith(prefix) === true),
      unstatedVersions: async (instanceId, scope, query) =>
        projectedIn(
          instanceId,
          scope,
          (memory) =>
            memory.speaker === query.speaker &&
            memory.fact === undefined &&
            (memory.valid_from ?? '') < query.before,
        ),
      ...(options.reader ? { attributeReader: async () => reader } : {}),
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
    // The constant embedder's vector reads as residence for every statement.
    const reader = { read: () => ({ residence: 0.7, employer: 0.1, not: 0.2 }) }
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

  it('leaves an older statement alone when the reader finds it about something else', async () => {
    const reader = { read: () => ({ residence: 0.05, employer: 0.5, pet: 0.4, not: 0.05 }) }
    const { ingest, state } = world({ reader })
    await ingest(
      document('Kwame: Accra today is something else.', '2022-08-10T09:00:00.000Z'),
      document('Kwame: We moved to Toronto two weeks ago.', '2023-02-27T09:00:00.000Z'),
    )
    expect(state()['Kwame said: Accra today (10 August 2022) is something else.']?.[1]).toBeNull()
  })

  it('ends an older statement whose words show the role of a name, where the reader finds it about something else', async () => {
    const older = () =>
      document('Arjun: Release night at Zomato and the build is red.', '2022-08-10T09:00:00.000Z')
    const newer = () => document('Arjun: I joined Swiggy two weeks ago.', '2023-02-27T09:00:00.000Z')
    const aboutCars = world({ reader: { read: () => ({ employer: 0.1, car: 0.5, not: 0.2 }) } })
    await aboutCars.ingest(older(), newer())
    expect(aboutCars.state()['Arjun said: Release night at Zomato and the build is red.']?.[2]).toBe(
      'Arjun joined Swiggy two weeks ago (the week of 13 February 2023).',
    )
    // Read as no fact at all (small talk, a meal out): left alone whatever its words.
    const smallTalk = world({ reader: { read: () => ({ employer: 0.1, car: 0.2, not: 0.6 }) } })
    await smallTalk.ingest(older(), newer())
    expect(smallTalk.state()['Arjun said: Release night at Zomato and the build is red.']?.[1]).toBeNull()
  })

  it('ends an older statement that names what a new one says was left, even where the reader finds it unclear', async () => {
    // The reader finds every statement about something else: only the name of what was left links the two.
    const reader = { read: () => ({ residence: 0.05, employer: 0.05, pet: 0.5, not: 0.4 }) }
    const { ingest, state } = world({ reader })
    await ingest(
      document(
        "Mei: valentine's day and I'm stuck at Shopee until midnight lol.",
        '2023-02-14T09:00:00.000Z',
      ),
      document(
        "Mei: I left Shopee in june and I've been at Grab for two months now.",
        '2023-08-20T09:00:00.000Z',
      ),
    )
    const older = Object.entries(state()).find(([content]) => content.includes('stuck at Shopee'))
    expect(older?.[1][2]).toContain('Grab')
  })

  it('ends an older statement that writes as a name what a new one says was replaced in lower case', async () => {
    const reader = { read: () => ({ residence: 0.05, employer: 0.05, pet: 0.5, not: 0.4 }) }
    const { ingest, state } = world({ reader })
    await ingest(
      document('Rosa: Rewatching The Office again, it is my comfort show.', '2022-03-01T09:00:00.000Z'),
      document('Rosa: Office chairs are so expensive.', '2022-04-01T09:00:00.000Z'),
      document(
        'Rosa: ok the office has officially been dethroned. Severance is my favorite show now.',
        '2023-05-01T09:00:00.000Z',
      ),
    )
    const named = Object.entries(state()).find(([content]) => content.includes('The Office'))
    expect(named?.[1][2]).toContain('Severance')
    // Capitalized only because it opens the sentence: no name of the show.
    const chairs = Object.entries(state()).find(([content]) => content.includes('chairs'))
    expect(chairs?.[1][1]).toBeNull()
  })

  it('gives a favourite told without its kind the kind of the one it replaced, or none', async () => {
    const { ingest, stateOf } = world()
    await ingest(
      document('Noor: Blur is my favourite band.', '2022-03-01T09:00:00.000Z'),
      document('Noor: Dune is my favourite film.', '2022-04-01T09:00:00.000Z'),
      document('Noor: ok Pulp has overtaken blur as my number one.', '2023-05-01T09:00:00.000Z'),
      document('Noor: Toast has taken the top spot.', '2023-06-01T09:00:00.000Z'),
      document('Sam: Arrival has taken the top spot.', '2023-06-01T09:00:00.000Z', 'u2'),
    )
    expect(stateOf('Blur is')?.[2]).toContain('Pulp')
    expect(stateOf('Dune is')?.[1]).toBeNull()
    // Two kinds of favourite and nothing said replaced: which one "the top spot" is cannot be told.
    expect(stateOf('Toast')?.[2]).toBeNull()
    expect(stateOf('Pulp')?.[1]).toBeNull()
    // No favourite before: no kind, no fact.
    expect(stateOf('Arrival')).toEqual(['2023-06-01T09:00:00.000Z', null, null])
  })

  it('ends a pet only where the document says it ended, and keeps every other pet', async () => {
    // Statements about work read as about the employer, the rest as about a pet.
    const aboutWork: Embedder = {
      ...embedder,
      embed: async (texts) => texts.map((text) => (/google/i.test(text) ? [0, 1, 0] : [1, 0, 0])),
    }
    const reader = {
      read: (vector: readonly number[]): Record<string, number> =>
        vector[1] === 1 ? { employer: 0.8, not: 0.1 } : { pet: 0.8, not: 0.1 },
    }
    const { ingest, stateOf } = world({ reader, embedder: aboutWork })
    await ingest(
      document('Leilani: the google canteen food is the best part of the week.', '2022-02-01T09:00:00.000Z'),
      document('Leilani: My goldfish Bubbles turned 3 today.', '2022-03-01T09:00:00.000Z'),
      document('Leilani: Our hamster escaped again, found him in the sofa.', '2022-04-01T09:00:00.000Z'),
      document('Leilani: We adopted a cat named Miso.', '2022-05-01T09:00:00.000Z'),
      document(
        'Leilani: Left Google in march. RIP Bubbles. We got a puppy, a corgi named Taro!',
        '2023-05-01T09:00:00.000Z',
      ),
      document('Leilani: Got a second cat, a kitten named Udon.', '2023-06-01T09:00:00.000Z'),
      document('Leilani: The hamster passed away, so now we have two rabbits.', '2023-07-01T09:00:00.000Z'),
    )
    expect(stateOf('Bubbles turned')?.[2]).toContain('Taro')
    expect(stateOf('hamster escaped')?.[2]).toContain('rabbits')
    expect(stateOf('Miso')?.[1]).toBeNull()
    expect(stateOf('Taro')?.[1]).toBeNull()
    expect(stateOf('Udon')?.[1]).toBeNull()
    // What else the message says ended is no pet: the statement about work stays current.
    expect(stateOf('canteen')?.[1]).toBeNull()
  })

  it('ends the sports played where the speaker says they stopped, and keeps the others', async () => {
    const reader = { read: () => ({ sport: 0.8, not: 0.1 }) }
    const { ingest, stateOf } = world({ reader })
    await ingest(
      document('Obi: Rolled my ankle again at pickup basketball tonight.', '2022-02-01T09:00:00.000Z'),
      document('Obi: Swimming laps before work keeps me sane.', '2022-03-01T09:00:00.000Z'),
      document(
        "Obi: My ankles won, I've retired from the court. I've taken up cycling, three rides a week.",
        '2023-05-01T09:00:00.000Z',
      ),
    )
    expect(stateOf('pickup basketball')?.[1]).toBe('2023-05-01T09:00:00.000Z')
    expect(stateOf('Swimming laps')?.[1]).toBeNull()
  })

  it('leaves alone an older statement naming what someone else left, or what the speaker only plans to leave', async () => {
    const reader = { read: () => ({ residence: 0.05, employer: 0.05, pet: 0.5, not: 0.4 }) }
    const { ingest, state } = world({ reader })
    await ingest(
      document(
        // No words of a workplace around the name: only a name of what was left could make it a version.
        'Ravi: Zoho makes such calm software, I eat lunch on a banana leaf.',
        '2023-02-14T09:00:00.000Z',
      ),
      document(
        "Ravi: I haven't resigned from Zoho yet. My sister left Infosys. I joined Swiggy last week.",
        '2023-08-20T09:00:00.000Z',
      ),
    )
    const older = Object.entries(state()).find(([content]) => content.includes('banana leaf'))
    expect(older?.[1][1]).toBeNull()
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

    it('falls back to facts read by meaning when the model fails', async () => {
      const decider = deciding(async () => {
        throw new Error('model unavailable')
      })
      const { ingest, state } = world({ decider })
      await ingest(lisbon(), porto())
      expect(state()['Caroline lives in Lisbon.']?.[1]).toBe('2024-02-01T00:00:00.000Z')
    })
  })
})
