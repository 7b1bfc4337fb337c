import { describe, expect, it } from 'vitest'
import {
  asksAcrossConversations,
  asksWhatTheAssistantSaid,
  asksWhatTheySaid,
  entityKeyCandidatesOf,
  subQueriesOf,
  topicOf,
  withoutNames,
} from './queryAnalysis.js'
import { defaultSearchTuning } from './searchTuning.js'
import {
  cosine,
  fuseRankings,
  rerank as rerankWith,
  similarityFromLists,
  termCoverage,
  type RerankCandidate,
  sharedThreadEntities,
  withAtMostPerSource,
  withInstructionsLast,
} from './ranking.js'

const rerank = (candidates: RerankCandidate[]) => rerankWith(defaultSearchTuning.rerank, candidates)
import { searchTermsOf } from './searchTerms.js'
import { memoryDocumentOf, sumOfVectors } from '../memories/memories.js'
import type { MemoryChanged } from '@memory-service/contracts'

describe('searchTermsOf', () => {
  it('stems content words and drops function words, so inflections match', () => {
    expect(searchTermsOf('She went hiking with her friends')).toBe('went hike friend')
    expect(searchTermsOf('Hikes with a friend')).toBe('hike friend')
  })

  it('folds accents and apostrophes the same way for index and query', () => {
    expect(searchTermsOf("Zoë's paintings")).toBe(searchTermsOf("zoe's painting"))
  })

  it('gives nothing for a text of function words only', () => {
    expect(searchTermsOf('what is it?')).toBe('')
  })
})

describe('subQueriesOf', () => {
  it('splits separate questions and clauses that start a new question', () => {
    expect(subQueriesOf('When did Maria move to Lisbon and where does she work now?')).toEqual([
      'When did Maria move to Lisbon',
      'where does she work now?',
    ])
    expect(subQueriesOf('What does Jon cook? Which city did he visit last?')).toEqual([
      'What does Jon cook?',
      'Which city did he visit last?',
    ])
  })

  it('keeps a conjunction inside one question together', () => {
    expect(subQueriesOf('Does Maria like apples and pears?')).toEqual([])
  })

  it('asks about each of two people named together', () => {
    expect(subQueriesOf('What do Jon and Gina both like to cook?')).toEqual([
      'What do Jon like to cook?',
      'What do Gina like to cook?',
    ])
  })

  it('gives nothing for a simple question and respects the maximum', () => {
    expect(subQueriesOf('Where did Caroline go hiking?')).toEqual([])
    expect(subQueriesOf('Who cooks? Who bakes? Who paints? Who sings?', 2)).toHaveLength(0)
    expect(
      subQueriesOf('Who cooks pasta? Who bakes bread? Who paints walls? Who sings songs?', 2),
    ).toHaveLength(2)
  })
})

describe('entityKeyCandidatesOf', () => {
  it('offers every name-like run of words as an entity key, possessives folded', () => {
    const keys = entityKeyCandidatesOf("When did Caroline's friend visit New York City?")
    expect(keys).toEqual(
      expect.arrayContaining(['caroline', 'new york', 'new york city', 'york city', 'friend']),
    )
    expect(keys).not.toContain('when')
    expect(keys).not.toContain('did caroline')
  })
})

describe('fuseRankings', () => {
  it('adds weighted reciprocal ranks, so agreement between retrievers wins', () => {
    const fused = fuseRankings(
      [
        { ids: ['a', 'b', 'c'], weight: 1 },
        { ids: ['c', 'b'], weight: 1 },
      ],
      60,
    )
    expect(fused.get('a')).toBeCloseTo(1 / 61)
    expect(fused.get('b')).toBeCloseTo(2 / 62)
    expect(fused.get('c')).toBeCloseTo(1 / 63 + 1 / 61)
    expect([...fused.entries()].sort((x, y) => y[1] - x[1])[0]?.[0]).toBe('c')
  })
})

describe('rerank', () => {
  const candidate = (id: string, overrides: Partial<RerankCandidate>): RerankCandidate => ({
    id,
    fused: 0.01,
    similarity: 0.5,
    termCoverage: 0,
    mentionsQueryEntity: false,
    sourceId: id,
    ...overrides,
  })

  it('orders by similarity first, with keyword and entity evidence breaking near ties', () => {
    const order = rerank([
      candidate('close', { similarity: 0.8 }),
      candidate('far', { similarity: 0.3 }),
      candidate('close-with-evidence', { similarity: 0.78, termCoverage: 1, mentionsQueryEntity: true }),
    ]).map(({ id }) => id)
    expect(order).toEqual(['close-with-evidence', 'close', 'far'])
  })

  it('discounts further memories of a document already in the answer', () => {
    const order = rerank([
      candidate('doc1-a', { similarity: 0.9, sourceId: 'doc1' }),
      candidate('doc1-b', { similarity: 0.88, sourceId: 'doc1' }),
      candidate('doc2', { similarity: 0.86, sourceId: 'doc2' }),
      candidate('doc3', { similarity: 0.2, sourceId: 'doc3' }),
    ]).map(({ id }) => id)
    expect(order).toEqual(['doc1-a', 'doc2', 'doc1-b', 'doc3'])
  })

  it('returns scores in descending order and nothing for no candidates', () => {
    const scores = rerank([candidate('a', { similarity: 0.1 }), candidate('b', { similarity: 0.9 })]).map(
      ({ score }) => score,
    )
    expect(scores[0]).toBeGreaterThan(scores[1] ?? 1)
    expect(rerank([])).toEqual([])
  })
})

describe('cosine and termCoverage', () => {
  it('compute the similarity of vectors and the share of terms present', () => {
    expect(cosine([1, 0], [1, 0])).toBeCloseTo(1)
    expect(cosine([1, 0], [0, 1])).toBeCloseTo(0)
    expect(cosine([0, 0], [1, 0])).toBe(0)
    expect(termCoverage(['hike', 'lake'], new Set(['hike', 'friend']))).toBe(0.5)
    expect(termCoverage([], new Set(['x']))).toBe(0)
  })
})

describe('withoutNames', () => {
  it('drops the names and possessives a question mentions, keeping what it asks about', () => {
    expect(withoutNames('What did Caroline realize after her charity race?')).toBe(
      'What did realize after her charity race?',
    )
    expect(withoutNames("What is Melanie's hand-painted bowl a reminder of?")).toBe(
      'What is hand-painted bowl a reminder of?',
    )
  })

  it('gives null when there is no name or too little is left', () => {
    expect(withoutNames('where did she go hiking?')).toBeNull()
    expect(withoutNames('Who is Caroline?')).toBeNull()
  })
})

describe('topicOf and asksAcrossConversations', () => {
  it('keeps what a question is about and drops how the answer should look', () => {
    expect(
      topicOf(
        'Could you walk me through, in order, the order in which I mentioned the main parts of my garden redesign across all our chats? List only four points.',
      ),
    ).toBe('my garden redesign?')
    expect(
      topicOf('Could you list the order in which I raised the various stages of the kitchen remodel?'),
    ).toBe('the kitchen remodel?')
    expect(
      topicOf('Give me a short overview of how my marathon training went over the last few weeks.'),
    ).toBe('how my marathon training went.')
    expect(topicOf('Please summarize how my Spanish lessons have gone so far.')).toBe(
      'how my Spanish lessons have gone.',
    )
    expect(topicOf('Can you list three libraries for parsing dates?')).toBe(
      'three libraries for parsing dates?',
    )
  })

  it('leaves a question about one thing as it was asked', () => {
    for (const question of [
      'Where did Maria move after she left Lisbon?',
      'When did I order the new laptop?',
      'What did you recommend for my sourdough starter?',
      'Which  classical musicians does Melanie enjoy listening to?',
    ])
      expect(topicOf(question)).toBe(question.trim())
  })

  it('gives the question back when nothing but instructions is left', () => {
    expect(topicOf('Summarize it all, in order.')).toBe('Summarize it all, in order.')
  })

  it('tells a question about a whole history from one about a single statement', () => {
    for (const question of [
      'In what order did I bring up the roof repairs? Can you list the order in which I brought up each contractor?',
      'Summarise what we decided about the wedding venue.',
      'How has my sleep changed over time?',
      'How many times did I mention the dentist?',
      'How many plants did I repot across all my sessions?',
      'Give me a complete summary of my tax questions.',
    ])
      expect(asksAcrossConversations(question), question).toBe(true)
    for (const question of [
      'When did I repot the fern?',
      'What time is my dentist appointment?',
      'How much progress have we made on the chapter so far?',
      'What order did the pizza place get wrong?',
    ])
      expect(asksAcrossConversations(question), question).toBe(false)
  })
})

describe('sharedThreadEntities', () => {
  it('follows what several of the best candidates mention, not what all or only one do, nor what was asked', () => {
    const best = [
      ['ent_asker', 'ent_mentor', 'ent_library'],
      ['ent_asker', 'ent_mentor'],
      ['ent_asker', 'ent_essay', 'ent_library'],
      ['ent_asker', 'ent_deadline'],
    ]
    expect(sharedThreadEntities(best, []).sort()).toEqual(['ent_library', 'ent_mentor'])
    expect(sharedThreadEntities(best, ['ent_library'])).toEqual(['ent_mentor'])
    expect(sharedThreadEntities([['ent_mentor', 'ent_mentor'], ['ent_essay']], [])).toEqual([])
  })
})

describe('asksWhatTheAssistantSaid', () => {
  it("finds questions about the assistant's earlier advice, not requests for new advice", () => {
    for (const question of [
      'How did you recommend structuring my writing process?',
      'What approach did you recommend for my resume?',
      'Which library had you suggested for the charts?',
      'Remind me what you told me about the visa.',
      'Can I still follow your earlier advice on the budget?',
    ])
      expect(asksWhatTheAssistantSaid(question), question).toBe(true)
    for (const question of [
      'What tools would you suggest I use?',
      'How would you recommend I start?',
      'What did I say my budget was?',
      'Did Maria recommend the hotel?',
    ])
      expect(asksWhatTheAssistantSaid(question), question).toBe(false)
  })
})

describe('asksWhatTheySaid', () => {
  it("finds questions about the asker's own words, not about what they did or were told", () => {
    for (const question of [
      'Which hotels did I mention for the Rome trip?',
      'What did I say my budget was?',
      'List the order in which I first brought up the side projects.',
      'When I told you about the leak, what had the plumber quoted?',
    ])
      expect(asksWhatTheySaid(question), question).toBe(true)
    for (const question of [
      'What did you say about my budget?',
      'Which hotel did I book?',
      'What did Maria mention about her trip?',
    ])
      expect(asksWhatTheySaid(question), question).toBe(false)
  })
})

describe('the readings_embedding field (fast search in one kNN leg)', () => {
  const unit = (values: number[]) => {
    const norm = Math.hypot(...values)
    return values.map((value) => value / norm)
  }
  const dot = (a: readonly number[], b: readonly number[]) =>
    a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0)
  const memory = (vector: number[], contextVector?: number[]) =>
    memoryDocumentOf({
      type: 'memory_changed',
      change: 'created',
      event_id: 'event',
      memory_id: 'mem_000000000000000000000001',
      instance_id: 'inst',
      version: 1,
      changed_at: '2026-01-01T00:00:00Z',
      memory: {
        id: 'mem_000000000000000000000001',
        instance_id: 'inst',
        type: 'fact',
        content: 'Maria moved to Porto.',
        confidence: 0.9,
        entities: [],
        relations: [],
        scope: { user_id: 'u', customer_id: null, client_id: 'c' },
        source: { ingestion_id: 'ing', document_type: 'text', document_created_at: '2026-01-01T00:00:00Z' },
        metadata: {},
        created_at: '2026-01-01T00:00:00Z',
        updated_at: null,
        occurred_on: null,
        speaker: null,
        mode: 'fast',
        embedding: { model: 'm', vector },
        ...(contextVector
          ? {
              context: {
                before: 'Where do you live now?',
                after: '',
                embedding: { model: 'm', vector: contextVector },
              },
            }
          : {}),
      },
    } satisfies MemoryChanged)

  it('scores the sum of every question cosine with every reading, as the four legs it replaces did', () => {
    const [statement, inConversation, question, nameFree] = [
      unit([1, 2, 3, 4]),
      unit([4, 1, 0, 2]),
      unit([2, 2, 1, 0]),
      unit([0, 1, 3, 1]),
    ] as [number[], number[], number[], number[]]
    const readings = memory(statement, inConversation).readings_embedding
    const questions = sumOfVectors(question, nameFree)
    const fourCosines = [statement, inConversation]
      .flatMap((reading) => [question, nameFree].map((asked) => cosine(asked, reading)))
      .reduce((sum, value) => sum + value)
    expect(dot(questions, readings)).toBeCloseTo(fourCosines, 10)
  })

  it('counts a memory that came alone twice by its one reading, so it competes on equal terms', () => {
    const statement = unit([1, 2, 3, 4])
    expect(memory(statement).readings_embedding).toEqual(statement.map((value) => 2 * value))
  })
})

describe('similarityFromLists', () => {
  it('takes the best score a candidate got, raised to what a full list that left it out may hold', () => {
    const similarity = similarityFromLists([
      {
        k: 3,
        hits: [
          { id: 'a', score: 0.9 },
          { id: 'b', score: 0.8 },
          { id: 'c', score: 0.7 },
        ],
      },
      {
        k: 3,
        hits: [
          { id: 'b', score: 0.95 },
          { id: 'd', score: 0.6 },
          { id: 'a', score: 0.5 },
        ],
      },
    ])
    expect(similarity.of('a')).toBe(0.9)
    expect(similarity.of('b')).toBe(0.95)
    // Left out of the second list: at most its lowest score there.
    expect(similarity.of('c')).toBe(0.7)
    expect(similarity.of('d')).toBe(0.7)
    // In neither list (a keyword match): scored by nothing, its vectors are compared instead.
    expect(similarity.scored('e')).toBe(false)
    expect(similarity.scored('d')).toBe(true)
  })

  it('bounds nothing by a list that returned fewer than it was asked for (its filter admitted no more)', () => {
    const similarity = similarityFromLists([
      { k: 5, hits: [{ id: 'a', score: 0.9 }] },
      {
        k: 2,
        hits: [
          { id: 'b', score: 0.4 },
          { id: 'c', score: 0.3 },
        ],
      },
    ])
    expect(similarity.of('d')).toBe(0.3)
    expect(similarity.of('a')).toBe(0.9)
  })
})

describe('withInstructionsLast', () => {
  const ranked = [
    { id: 'a', score: 0.9 },
    { id: 'b', score: 0.8 },
    { id: 'c', score: 0.7 },
    { id: 'd', score: 0.6 },
  ]

  it('puts the instructions the page lacks in its last places, with the score of the result before them', () => {
    expect(withInstructionsLast(ranked, ['code', 'security'], 4)).toEqual([
      { id: 'a', score: 0.9 },
      { id: 'b', score: 0.8 },
      { id: 'code', score: 0.8 },
      { id: 'security', score: 0.8 },
    ])
  })

  it('leaves an instruction the page has where it ranked, and a page without instructions as it is', () => {
    expect(withInstructionsLast(ranked, ['b', 'code'], 4).map(({ id }) => id)).toEqual([
      'a',
      'b',
      'c',
      'code',
    ])
    expect(withInstructionsLast(ranked, [], 3).map(({ id }) => id)).toEqual(['a', 'b', 'c'])
  })

  it('keeps at least one result of the page, and fills a short page after its results', () => {
    expect(withInstructionsLast(ranked, ['code', 'security'], 2).map(({ id }) => id)).toEqual(['a', 'code'])
    expect(withInstructionsLast(ranked, ['code'], 1).map(({ id }) => id)).toEqual(['a'])
    expect(withInstructionsLast(ranked.slice(0, 1), ['code', 'security'], 10).map(({ id }) => id)).toEqual([
      'a',
      'code',
      'security',
    ])
  })
})

describe('withAtMostPerSource', () => {
  const ranked = ['a1', 'a2', 'a3', 'a4', 'b1', 'a5', 'c1']
  const sourceOf = (id: string) => id.charAt(0)

  it('keeps at most three of ten from one document, the rest moving up', () => {
    expect(withAtMostPerSource(ranked, sourceOf, 10)).toEqual(['a1', 'a2', 'a3', 'b1', 'c1', 'a4', 'a5'])
    expect(withAtMostPerSource(ranked, sourceOf, 5)).toEqual(['a1', 'a2', 'b1', 'c1', 'a3'])
  })

  it('fills the page from one document when nothing else matches', () => {
    expect(withAtMostPerSource(['a1', 'a2', 'a3', 'a4'], sourceOf, 10)).toEqual(['a1', 'a2', 'a3', 'a4'])
  })
})

describe('rerank with a prior', () => {
  it('lets a memory kept at a lower prior fall behind an equal one', () => {
    const candidate = (id: string, prior?: number): RerankCandidate => ({
      id,
      fused: 1,
      similarity: 0.8,
      termCoverage: 0.5,
      mentionsQueryEntity: false,
      sourceId: id,
      ...(prior !== undefined ? { prior } : {}),
    })
    expect(rerank([candidate('assistant', 0.7), candidate('user')]).map(({ id }) => id)).toEqual([
      'user',
      'assistant',
    ])
  })
})
