import { defaultSearchTuning, feedbackWeightOf, isRatedDown, type SearchTuning } from '@memory-service/domain'
import type { Client, estypes } from '@elastic/elasticsearch'
import type { MemorySearchRequest } from '@memory-service/contracts'
import { sourcesOf, totalHitsOf, type Embedder, type FactReader } from '@memory-service/engines'
import { AppError } from '@memory-service/domain'
import { MEMORIES_ALIAS } from '@memory-service/domain'
import { derivedFields, type StoredMemory } from './memoryStore.js'
import type { Profiles } from '../profiles/profiles.js'
import { memoryFilterQuery } from './memoryFilterQuery.js'
import { unexpiredFilter, validityFilters } from './memoryValidity.js'
import {
  asksAcrossConversations,
  asksWhatTheySaid,
  entityIdFor,
  entityKeyCandidatesOf,
  sharedThreadEntities,
  subQueriesOf,
  asksWhatTheAssistantSaid,
  withInstructionsLast,
  topicOf,
  withoutNames,
} from '@memory-service/domain'
import {
  cosine,
  fuseRankings,
  rerank,
  similarityFromLists,
  termCoverage,
  type Ranking,
  type ScoredList,
  withAtMostPerSource,
} from '@memory-service/domain'
import {
  askedFactOf,
  askedPeriodOf,
  isAssistantSpeaker,
  isUserRole,
  searchTermsOf,
  type AskedFact,
  type MemoryFilter,
} from '@memory-service/domain'

export type SearchRequest = Omit<MemorySearchRequest, 'filters'> & {
  /** The request's filters, parsed (parseMemoryFilter). */
  filter?: MemoryFilter | null
  limit: number
  mode: 'accurate' | 'fast'
  /** Whether the memories of the entities the question names are searched (the instance's configuration says). */
  graph?: boolean
}

export interface SearchOutcome {
  hits: { memory: StoredMemory; score: number }[]
  /** What the search cost, for usage events. */
  vectorQueries: number
  graphQueries: number
  /** Milliseconds spent in each stage, for benchmarks that show where a search's time goes. */
  stages: SearchStages
}

export interface SearchStages {
  /** The question(s) embedded. */
  embedding: number
  /** The Elasticsearch requests that rank candidates, after the embedding (accurate's keyword lists start before). */
  retrieval: number
  /** accurate only: the best candidates fetched (with vectors only where no kNN list scored them) and reranked. */
  rerank: number
}

/** One ranked list of candidates, how much it counts in the fusion, and whether its scores are similarities. */
interface ListSearch {
  body: estypes.SearchSearchRequestBody
  weight: number
  /** A kNN list: the rerank reads each candidate's similarity off its score. */
  scored: boolean
}

/** A list's hits, best first, with its search's weight and kind. */
interface RankedList {
  hits: { id: string; score: number }[]
  weight: number
  scored: boolean
}

/**
 * A list's request: ids and scores only, and no total count, so a keyword list may skip the documents that cannot
 * reach its top (block-max WAND) instead of scoring every match.
 */
function listBody(query: estypes.QueryDslQueryContainer, depth: number): estypes.SearchSearchRequestBody {
  return { query, size: depth, _source: false, track_total_hits: false }
}

export interface MemorySearch {
  search(instanceId: string, request: SearchRequest): Promise<SearchOutcome>
  /** Whether a search in this scope could find anything at all (one cheap request: no question, no ranking). */
  hasMemories(
    instanceId: string,
    scope: Pick<MemorySearchRequest, 'user_id' | 'customer_id'>,
  ): Promise<boolean>
}

/**
 * Who may see what: the instance always; with `user_id` that user's memories (within `customer_id` when given) and
 * the memories shared at the customer (a customer and no user); with only `customer_id` that customer's memories.
 */
export function scopeFilters(
  instanceId: string,
  request: Pick<MemorySearchRequest, 'user_id' | 'customer_id' | 'as_of' | 'include_superseded'> & {
    filter?: MemoryFilter | null
  },
  now: Date,
): estypes.QueryDslQueryContainer[] {
  const filters: estypes.QueryDslQueryContainer[] = [{ term: { instance_id: instanceId } }]
  const customer = request.customer_id
  if (request.user_id !== undefined) {
    const own: estypes.QueryDslQueryContainer = {
      bool: {
        filter: [
          { term: { 'scope.user_id': request.user_id } },
          ...(customer !== undefined ? [{ term: { 'scope.customer_id': customer } }] : []),
        ],
      },
    }
    const shared: estypes.QueryDslQueryContainer | null =
      customer === undefined
        ? null
        : {
            bool: {
              filter: [{ term: { 'scope.customer_id': customer } }],
              must_not: [{ exists: { field: 'scope.user_id' } }],
            },
          }
    filters.push(shared ? { bool: { should: [own, shared], minimum_should_match: 1 } } : own)
  } else if (customer !== undefined) {
    filters.push({ term: { 'scope.customer_id': customer } })
  }
  if (request.filter) filters.push(memoryFilterQuery(request.filter))
  filters.push(...validityFilters(request), unexpiredFilter(now))
  return filters
}

type Hit = SearchOutcome['hits'][number]

/** How many memories stating the asked fact lead the results. */
const statedFactsFirst = 2
/** How many of the best results are read for a statement of the asked attribute the ingestion did not read. */
const readingDepth = 10
/** What the reader must find of such a statement: its topic, and that it tells the speaker's own current value. */
const stating = { topic: 0.5, current: 0.5 }

/** Whether a memory's fact value is a name its content writes ("a corgi named Taro"), not a kind ("a puppy"). */
function namesItsValue({ memory }: Hit): boolean {
  const value = memory.fact?.value
  if (!value) return false
  const at = memory.content.toLowerCase().indexOf(value)
  return at >= 0 && /^\p{Lu}/u.test(memory.content.slice(at))
}

/**
 * The statements of the asked fact, newest first, each once, as many as lead the results; of statements made at one
 * moment (one message: "RIP Bubbles, we got a puppy!!", "a corgi named Taro"), one that names its value, then the
 * one the search ranks higher.
 */
function newestStatingFirst(stating: Hit[], ranking: Hit[]): Hit[] {
  const seen = new Set<string>()
  const rank = (hit: Hit) => {
    const at = ranking.findIndex(({ memory }) => memory.id === hit.memory.id)
    return at === -1 ? ranking.length : at
  }
  return stating
    .filter(({ memory }) => !seen.has(memory.id) && seen.add(memory.id))
    .sort(
      (a, b) =>
        Date.parse(b.memory.valid_from) - Date.parse(a.memory.valid_from) ||
        Number(namesItsValue(b)) - Number(namesItsValue(a)) ||
        rank(a) - rank(b),
    )
    .slice(0, statedFactsFirst)
}

/** The memories stating the asked fact first (scored as the best hit), then the ranking without them. */
function withStatedFactsFirst(hits: Hit[], stated: Hit[], limit: number): Hit[] {
  if (stated.length === 0) return hits
  const top = hits[0]?.score ?? 1
  const ids = new Set(stated.map(({ memory }) => memory.id))
  return [
    ...stated.map(({ memory }) => ({
      memory,
      score: Math.max(top, hits.find((hit) => hit.memory.id === memory.id)?.score ?? 0),
    })),
    ...hits.filter(({ memory }) => !ids.has(memory.id)),
  ].slice(0, limit)
}

/** A rerank prior, when it is not the neutral 1. */
const priorOf = (prior: number): { prior?: number } => (prior === 1 ? {} : { prior })

/**
 * Scores weighed by the feedback each memory holds (SearchTuning.feedback), in their new order; the hits as they
 * were when none holds any.
 */
function weighedByFeedback<T extends { memory: StoredMemory; score: number }>(
  hits: T[],
  weights: SearchTuning['feedback'],
): T[] {
  if (!hits.some(({ memory }) => memory.feedback)) return hits
  return hits
    .map((hit) => ({
      ...hit,
      score: Number((hit.score * feedbackWeightOf(hit.memory.feedback, weights)).toFixed(6)),
    }))
    .sort((a, b) => b.score - a.score)
}

/** Superseded memories weighed down by `weight` (see SearchTuning.superseded), in the new order of their scores. */
function supersededWeighedDown<T extends { memory: StoredMemory; score: number }>(
  hits: T[],
  asOf: string | undefined,
  weight: number,
): T[] {
  const moment = Date.parse(asOf ?? new Date().toISOString())
  const superseded = (hit: T) => hit.memory.valid_to != null && Date.parse(hit.memory.valid_to) <= moment
  return hits
    .map((hit) => (superseded(hit) ? { ...hit, score: hit.score * weight } : hit))
    .sort((a, b) => b.score - a.score)
}

const withoutVectors = { excludes: derivedFields }
/** What the rerank reads of a candidate a kNN list scored: its content terms, no vector. */
const withoutVectorsOrTerms = derivedFields.filter((field) => field !== 'content_terms')
/** Of one no list scored: its content terms and both readings' vectors (not their sum). */
const withReadingVectors = derivedFields.filter(
  (field) => !['embedding', 'context_embedding', 'content_terms'].includes(field),
)

function keywordQuery(text: string): estypes.QueryDslQueryContainer {
  const terms = searchTermsOf(text)
  return {
    bool: {
      should: [
        ...(terms ? [{ match: { content_terms: { query: terms } } }] : []),
        { match: { content: { query: text, boost: 0.5 } } },
        { match: { entity_names: { query: text, boost: 0.3 } } },
      ],
      minimum_should_match: 1,
    },
  }
}

/**
 * Memory search over the projections. `fast`: one embedding (the question without its names) and one Elasticsearch
 * request: its kNN over both readings of every memory (alone, in its conversation: their sum), kNN among the memories
 * of the entities the question names, and BM25 over the whole question's words, their scores added. `accurate`: the
 * question, its sub-questions and its name-free form each by keyword (sent while the model embeds them) and by
 * vector, plus the entities' memories; fused by reciprocal rank, then reranked on the kNN lists' similarity to every
 * (sub-)question, keyword coverage and entity evidence, with diversity across source documents.
 */
export function createMemorySearch(deps: {
  elasticsearch: Client
  embedder: Embedder
  index?: string
  tuning?: SearchTuning
  /** The moment searches are answered at: a memory expired by then is left out. */
  now?: () => Date
  /** Reads which attribute of a person a question asks for (services/language); without it none is read. */
  factReader?: () => Promise<FactReader>
  /** Users' profiles: what holds now is answered from them first (the profile read model). */
  profiles?: Profiles
}): MemorySearch {
  const index = deps.index ?? MEMORIES_ALIAS
  const tuning = deps.tuning ?? defaultSearchTuning
  const now = deps.now ?? (() => new Date())

  async function embed(texts: string[]): Promise<number[][]> {
    try {
      // Questions: a model that reads a query unlike a stored memory (an instruction, a prefix) is told so.
      const { embedder } = deps
      return await (embedder.embedQueries ? embedder.embedQueries(texts) : embedder.embed(texts))
    } catch (error) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The embedding model is unavailable; search needs it to read the question',
        { retry_after_seconds: 2, reason: 'embedding_unavailable' },
        { cause: error },
      )
    }
  }

  /**
   * The entities the question may name, by id: an entity's id derives from its normalized name (entityIdFor), the
   * graph's own identity, so the ids of every name the question could hold are known without asking Neo4j; the
   * memories of those that exist are found by the entity filter itself. A round trip to the graph cost more than
   * embedding the question on a loaded machine (17 ms p50 in bench:search), for a set the filter gives anyway.
   */
  function entitiesNamedIn(instanceId: string, query: string, graph = true): string[] {
    return graph ? entityKeyCandidatesOf(query).map((key) => entityIdFor(instanceId, key)) : []
  }

  /**
   * A kNN as a query clause rather than the top-level `knn`: the same hits and scores, in one phase instead of a kNN
   * phase before the query phase (0.8 ms less per request at 100 000 memories).
   */
  const knn = (
    field: 'embedding' | 'context_embedding' | 'readings_embedding',
    vector: number[],
    k: number,
    filter: estypes.QueryDslQueryContainer[],
    boost?: number,
  ): estypes.QueryDslQueryContainer => ({
    knn: {
      field,
      query_vector: vector,
      k,
      num_candidates: Math.min(Math.max(k * 2, 100), 1000),
      filter,
      ...(boost !== undefined ? { boost } : {}),
    },
  })

  /** Several ranked lists in one multi-search; a kNN list keeps its scores (the rerank reads similarity off them). */
  async function runSearches(searches: ListSearch[]): Promise<RankedList[]> {
    if (searches.length === 0) return []
    const { responses } = await deps.elasticsearch.msearch({
      index,
      searches: searches.flatMap(({ body }) => [{}, body]),
    })
    return responses.map((response, position) => {
      if ('error' in response) throw new Error(`memory search failed: ${JSON.stringify(response.error)}`)
      const search = searches[position]
      return {
        hits: response.hits.hits.map((hit) => ({ id: hit._id ?? '', score: hit._score ?? 0 })),
        weight: search?.weight ?? 0,
        scored: search?.scored ?? false,
      }
    })
  }

  async function fast(instanceId: string, request: SearchRequest): Promise<SearchOutcome> {
    const started = performance.now()
    const filters = scopeFilters(instanceId, request, now())
    // One embedding, the most a fast search can pay for: of the question without its names, so a memory attributed
    // to someone else, or naming the person differently, is found by what was said. The names still count, by
    // keyword (BM25 over the whole question's words, in the same request) and by the entities they name.
    // Of its topic: "list the order in which I brought up…" says how to answer, not what about.
    const topic = topicOf(request.query)
    const entities = entitiesNamedIn(instanceId, topic, request.graph)
    const [question = []] = await embed([withoutNames(topic) ?? topic])
    const embedded = performance.now()
    // Against both readings of a memory (alone, in its conversation) in one kNN leg: the inner product with the
    // readings' sum is the sum of the two cosines.
    const searches = [knn('readings_embedding', question, request.limit, filters)]
    if (entities.length > 0)
      searches.push(
        knn(
          'readings_embedding',
          question,
          request.limit,
          [...filters, { terms: { entity_ids: entities } }],
          tuning.lists.graph,
        ),
      )
    const terms = searchTermsOf(topic)
    // Scores add up: a memory ranks by its kNN scores plus its keyword score, weighted.
    const response = await deps.elasticsearch.search<StoredMemory>({
      index,
      query: {
        bool: {
          should: [
            ...searches,
            ...(terms
              ? [
                  {
                    bool: {
                      filter: filters,
                      must: [{ match: { content_terms: { query: terms, boost: tuning.lists.fastKeyword } } }],
                    },
                  },
                ]
              : []),
          ],
          minimum_should_match: 1,
        },
      },
      // Twice the page, so that a page holding too much of one document can be filled from the others.
      size: Math.min(request.limit * 2, 100),
      track_total_hits: false,
      _source: withoutVectors,
    })
    return {
      hits: withAtMostPerSource(
        weighedByFeedback(
          response.hits.hits.flatMap((hit) =>
            hit._source ? [{ memory: hit._source, score: Number((hit._score ?? 0).toFixed(6)) }] : [],
          ),
          tuning.feedback,
        ),
        ({ memory }) => memory.source.ingestion_id,
        request.limit,
      ),
      vectorQueries: searches.length,
      graphQueries: entities.length > 0 ? 1 : 0,
      stages: {
        embedding: embedded - started,
        retrieval: performance.now() - embedded,
        rerank: 0,
      },
    }
  }

  /**
   * The entities a history question's thread runs through without the question naming them (the mentor of "my
   * academic work and mentorship"), read off the best `from` candidates of the first lists (sharedThreadEntities).
   */
  async function threadOf(lists: RankedList[], from: number, named: string[]): Promise<string[]> {
    const best = [
      ...fuseRankings(lists.map(({ hits, weight }) => ({ ids: hits.map(({ id }) => id), weight }))),
    ]
      .sort((a, b) => b[1] - a[1])
      .slice(0, from)
      .map(([id]) => id)
    if (best.length < from) return []
    const fetched = await deps.elasticsearch.mget<Pick<StoredMemory, 'entity_ids'>>({
      index,
      docs: best.map((id) => ({ _id: id, _source: { includes: ['entity_ids'] } })),
    })
    return sharedThreadEntities(
      fetched.docs.map((doc) => ('found' in doc && doc.found ? (doc._source?.entity_ids ?? []) : [])),
      named,
    )
  }

  async function accurate(instanceId: string, request: SearchRequest): Promise<SearchOutcome> {
    const started = performance.now()
    const filters = scopeFilters(instanceId, request, now())
    // What the question is about, without how to answer it ("list the order in which I brought up…").
    const topic = topicOf(request.query)
    const broad = asksAcrossConversations(request.query) ? tuning.acrossConversations : null
    const ownWords = asksWhatTheySaid(request.query)
    const neutral = withoutNames(topic)
    // The name-free question by keyword too: a name matches every memory of that person and drowns the topic.
    const questions = [
      { text: topic, weight: 1 },
      ...subQueriesOf(topic).map((text) => ({ text, weight: tuning.lists.subQuestion })),
      ...(neutral ? [{ text: neutral, weight: tuning.lists.withoutNames }] : []),
    ]
    const entities = entitiesNamedIn(instanceId, topic, request.graph)
    const depth = Math.min(
      Math.max(request.limit * (broad?.depthPerResult ?? tuning.depthPerResult), 50),
      200,
    )
    // The keyword lists need no vectors: they go to Elasticsearch while the model embeds the questions, so the two
    // costliest stages overlap (the model on one core, Elasticsearch on the other).
    const keywordSearches: ListSearch[] = questions.flatMap(({ text, weight }) => {
      const terms = searchTermsOf(text)
      return [
        {
          body: listBody({ bool: { filter: filters, must: [keywordQuery(text)] } }, depth),
          weight: weight * tuning.lists.keyword,
          scored: false,
        },
        // The same question against each memory's conversation: a reply is found by what it answers.
        ...(terms
          ? [
              {
                body: listBody(
                  { bool: { filter: filters, must: [{ match: { context_terms: { query: terms } } }] } },
                  depth,
                ),
                weight: weight * tuning.lists.contextKeyword,
                scored: false,
              },
            ]
          : []),
      ]
    })
    // A question that names a period also searches the memories of that period: its date words match few memories'
    // words, and "what did she paint in July 2022" is about what was said then.
    const period = askedPeriodOf(request.query, request.as_of ?? new Date().toISOString())
    const inPeriod: estypes.QueryDslQueryContainer[] | null = period
      ? [
          ...filters,
          {
            bool: {
              should: [
                { range: { 'source.document_created_at': { gte: period.from, lt: period.to } } },
                // A day without a time: the window's days.
                { range: { occurred_on: { gte: period.from.slice(0, 10), lt: period.to.slice(0, 10) } } },
              ],
              minimum_should_match: 1,
            },
          },
        ]
      : null
    if (period && inPeriod && tuning.lists.periodKeyword > 0)
      keywordSearches.push({
        body: listBody({ bool: { filter: inPeriod, must: [keywordQuery(period.withoutDates)] } }, depth),
        weight: tuning.lists.periodKeyword,
        scored: false,
      })
    const keywordLists = runSearches(keywordSearches)
    // Settled here so that a failed embedding does not leave the keyword lists' failure unhandled.
    keywordLists.catch(() => undefined)
    const vectors = await embed(questions.map(({ text }) => text))
    const embedded = performance.now()
    const vectorSearches: ListSearch[] = questions.flatMap(({ weight }, position) => {
      const vector = vectors[position] ?? []
      return [
        {
          body: listBody(knn('embedding', vector, depth, filters), depth),
          weight: weight * tuning.lists.vector,
          scored: true,
        },
        {
          body: listBody(knn('context_embedding', vector, depth, filters), depth),
          weight: weight * tuning.lists.contextVector,
          scored: true,
        },
      ]
    })
    if (entities.length > 0) {
      vectorSearches.push({
        body: listBody(
          knn('embedding', vectors[0] ?? [], depth, [...filters, { terms: { entity_ids: entities } }]),
          depth,
        ),
        weight: tuning.lists.graph,
        scored: true,
      })
    }
    // What a user told the assistant to keep doing: not ranked with the rest (it answers how to reply, so it shares
    // little with the question), but the nearest ones take the last places when they are near enough.
    const instructionsAt = vectorSearches.length
    vectorSearches.push({
      body: listBody(
        // k above the few taken: the quantized index's nearest are exact only among several rescored candidates.
        knn('embedding', vectors[0] ?? [], 10, [
          ...filters,
          { term: { type: 'preference' } },
          { terms: { speaker: userRoles } },
          // Standing instructions ("Always …", "Never …", "… when I ask about …"), not every preference.
          { match: { content: { query: 'always never whenever asks', operator: 'or' } } },
        ]),
        tuning.instructionsTaken,
      ),
      weight: 0,
      scored: false,
    })
    if (asksAboutThemself(request.query) && tuning.lists.preferences > 0)
      vectorSearches.push({
        body: listBody(
          knn('embedding', vectors[0] ?? [], depth, [...filters, { term: { type: 'preference' } }]),
          depth,
        ),
        weight: tuning.lists.preferences,
        scored: true,
      })
    // What the asker said: their own turns, which the replies to them outnumber and outtalk.
    if (ownWords && tuning.lists.ownWords > 0)
      vectorSearches.push({
        body: listBody(
          knn('embedding', vectors[0] ?? [], depth, [...filters, { terms: { speaker: userRoles } }]),
          depth,
        ),
        weight: tuning.lists.ownWords,
        scored: true,
      })
    if (inPeriod && tuning.lists.periodVector > 0)
      vectorSearches.push({
        body: listBody(knn('embedding', vectors[0] ?? [], depth, inPeriod), depth),
        weight: tuning.lists.periodVector,
        scored: true,
      })
    const lists = [...(await runSearches(vectorSearches)), ...(await keywordLists)]
    const searches = [...vectorSearches, ...keywordSearches]
    if (broad && broad.threadFrom > 0) {
      const thread = await threadOf(lists, broad.threadFrom, entities)
      if (thread.length > 0) {
        const followed: ListSearch = {
          body: listBody(
            knn('embedding', vectors[0] ?? [], depth, [...filters, { terms: { entity_ids: thread } }]),
            depth,
          ),
          weight: broad.threadWeight,
          scored: true,
        }
        lists.push(...(await runSearches([followed])))
        searches.push(followed)
      }
    }
    const retrieved = performance.now()
    const rankings: Ranking[] = lists.map(({ hits, weight }) => ({ ids: hits.map(({ id }) => id), weight }))
    const scoredLists: ScoredList[] = lists.flatMap(({ hits, scored }) =>
      scored ? [{ hits, k: depth }] : [],
    )
    const similarity = similarityFromLists(scoredLists)
    const rerankDepth = Math.min(
      Math.max(request.limit * (broad?.rerankPerResult ?? tuning.rerankPerResult), 30),
      depth,
    )
    const fused = [...fuseRankings(rankings).entries()].sort((a, b) => b[1] - a[1]).slice(0, rerankDepth)
    if (fused.length === 0)
      return {
        hits: [],
        vectorQueries: countVectorSearches(searches),
        graphQueries: entities.length > 0 ? 1 : 0,
        stages: {
          embedding: embedded - started,
          retrieval: retrieved - embedded,
          rerank: 0,
        },
      }
    // A history's summary asks what happened more than how to say it: the nearest instruction at most.
    const nearInstructions = (lists[instructionsAt]?.hits ?? [])
      .slice(0, broad ? 1 : tuning.instructionsTaken)
      .filter(({ score }) => score >= tuning.instructionScore)
      .map(({ id }) => id)
    // The candidates without their vectors (most of a memory's bytes), but for those no kNN list scored.
    const fetched = await deps.elasticsearch.mget<StoredMemory>(
      {
        index,
        docs: [
          ...fused.map(([id]) => ({
            _id: id,
            _source: { excludes: similarity.scored(id) ? withoutVectorsOrTerms : withReadingVectors },
          })),
          ...nearInstructions
            .filter((instruction) => !fused.some(([id]) => id === instruction))
            .map((instruction) => ({ _id: instruction, _source: { excludes: withoutVectorsOrTerms } })),
        ],
      },
      { querystring: { _source_exclude_vectors: false } },
    )
    const documents = new Map<string, StoredMemory>()
    for (const doc of fetched.docs)
      if ('found' in doc && doc.found && doc._source) documents.set(doc._id, doc._source)
    const queryTerms = [...new Set(searchTermsOf(topic).split(' ').filter(Boolean))]
    // A summary of a history draws on the replies as much as on the asker's words: no reason to prefer the asker's.
    const summarizes = broad !== null && !ownWords
    // A question about the assistant's earlier advice draws on the replies.
    const aboutAsker =
      asksAboutThemself(request.query) && !summarizes && !asksWhatTheAssistantSaid(request.query)
    const namedEntities = new Set(entities)
    const reranked = rerank(
      tuning.rerank,
      fused.flatMap(([id, score]) => {
        const memory = documents.get(id)
        if (!memory) return []
        return [
          {
            id,
            fused: score,
            similarity: similarity.scored(id)
              ? similarity.of(id)
              : Math.max(
                  0,
                  // As Elasticsearch scores cosine: (1 + cosine) / 2, so both kinds of candidate compare.
                  ...[memory.embedding, memory.context_embedding]
                    .filter((vector): vector is number[] => vector !== undefined)
                    .flatMap((vector) => vectors.map((question) => (1 + cosine(question, vector)) / 2)),
                ),
            termCoverage: termCoverage(queryTerms, new Set((memory.content_terms ?? '').split(' '))),
            mentionsQueryEntity: memory.entity_ids.some((entityId) => namedEntities.has(entityId)),
            sourceId: memory.source.ingestion_id,
            ...priorOf(
              (aboutAsker && isAssistantSpeaker(memory.speaker) ? tuning.rerank.assistantPrior : 1) *
                feedbackWeightOf(memory.feedback, tuning.feedback),
            ),
          },
        ]
      }),
    )
    const ranked = withAtMostPerSource(
      reranked,
      ({ id }) => documents.get(id)?.source.ingestion_id ?? id,
      request.limit,
      broad?.perSource,
    )
    const order = withInstructionsLast(
      ranked,
      nearInstructions.filter((instruction) => documents.has(instruction)),
      request.limit,
    )
    return {
      hits: order.flatMap(({ id, score }) => {
        const memory = documents.get(id)
        if (!memory) return []
        const {
          embedding: _vector,
          content_terms: _terms,
          context_terms: _contextTerms,
          context_embedding: _contextVector,
          ...stored
        } = memory
        return [{ memory: stored, score }]
      }),
      vectorQueries: countVectorSearches(searches),
      graphQueries: entities.length > 0 ? 1 : 0,
      stages: {
        embedding: embedded - started,
        retrieval: retrieved - embedded,
        rerank: performance.now() - retrieved,
      },
    }
  }

  /**
   * The memories that state the fact a question asks about ("where does Ana live?": Ana's residence), valid at the
   * question's moment unless superseded ones are asked for: the version whose value the question names first, then
   * the one in force, then the latest. Ranking by similarity alone confuses a person's attributes with each other
   * ("job" is nearer "started a new job at Kestrel" than "works as a photographer"); the fact says which one is asked.
   */
  async function statedFacts(instanceId: string, request: SearchRequest, asked: AskedFact): Promise<Hit[]> {
    const fromProfile = await statedInProfile(instanceId, request, asked)
    if (fromProfile) return fromProfile
    const filter: estypes.QueryDslQueryContainer[] = [
      ...scopeFilters(instanceId, request, now()),
      { term: { 'fact.attribute': asked.attribute } },
    ]
    if (asked.subjects.length > 0) filter.push({ terms: { 'fact.subject': [...asked.subjects, 'self'] } })
    const response = await deps.elasticsearch.search<StoredMemory>({
      index,
      size: 20,
      query: { bool: { filter } },
      sort: [{ valid_from: 'desc' }, { id: 'asc' }],
      track_total_hits: false,
      _source: withoutVectors,
    })
    const moment = Date.parse(request.as_of ?? new Date().toISOString())
    const words = new Set(asked.words)
    const named = (memory: StoredMemory) =>
      (memory.fact?.value ?? '').split(' ').some((word) => word.length > 0 && words.has(word))
    const inForce = (memory: StoredMemory) => memory.valid_to == null || Date.parse(memory.valid_to) > moment
    const memories = sourcesOf(response.hits.hits)
    return [...memories]
      .sort((a, b) => Number(named(b)) - Number(named(a)) || Number(inForce(b)) - Number(inForce(a)))
      .slice(0, statedFactsFirst)
      .map((memory) => ({ memory, score: 0 }))
  }

  /**
   * What holds now, from the user's profile (the profile read model): the memory stating the asked attribute's value
   * in force for the person the question names (else for each person of the user), read from the memories index.
   * Undefined where the profile cannot answer: no user in the request, superseded memories asked for, or no
   * profile read model given — the query on the memories' facts answers instead.
   */
  async function statedInProfile(
    instanceId: string,
    request: SearchRequest,
    asked: AskedFact,
  ): Promise<Hit[] | undefined> {
    if (!deps.profiles || !request.user_id || request.include_superseded === true || !asked.current)
      return undefined
    const stating = await deps.profiles.statingNow(
      instanceId,
      { user_id: request.user_id, customer_id: request.customer_id ?? null },
      asked.attribute,
      asked.subjects,
      request.as_of,
    )
    if (stating.length === 0) return []
    // Through the request's own filters (scope, validity, expiry, metadata): the profile names, search decides.
    const ids = stating.slice(0, statedFactsFirst).map(({ memory_id }) => memory_id)
    const response = await deps.elasticsearch.search<StoredMemory>({
      index,
      size: ids.length,
      query: { bool: { filter: [...scopeFilters(instanceId, request, now()), { ids: { values: ids } }] } },
      track_total_hits: false,
      _source: withoutVectors,
    })
    const found = new Map(sourcesOf(response.hits.hits).map((memory) => [memory.id, memory]))
    return ids.flatMap((id) => {
      const memory = found.get(id)
      return memory ? [{ memory, score: 0 }] : []
    })
  }

  /**
   * Which attribute of a person the question asks for ("Which city does Amara live in?": her residence), by the
   * question reader on the question's vector; null when it asks for none, or the reader or the model is unavailable
   * (the search goes on without it).
   */
  async function askedOf(question: string): Promise<AskedFact | null> {
    if (!deps.factReader) return null
    try {
      const [reader, [vector]] = await Promise.all([deps.factReader(), embed([question])])
      const asked = vector ? reader.askedAttribute(question, vector) : null
      return asked ? askedFactOf(question, asked.attribute) : null
    } catch {
      return null
    }
  }

  /**
   * Of the best results, those the reader finds telling the asked attribute of the asked person in words the
   * ingestion did not read as a fact of it ("first week at Revolut done" for "where does Tomasz work now?"): where
   * the reading at ingestion fell short of its bars, a question about what holds now still gets the newest
   * statement of it first. The reader reads their stored vectors, fetched for these few.
   */
  async function readAsStating(hits: Hit[], asked: AskedFact): Promise<Hit[]> {
    const reader = deps.factReader ? await deps.factReader().catch(() => null) : null
    if (!reader) return []
    const subjects = new Set(asked.subjects)
    const candidates = hits.slice(0, readingDepth).filter(({ memory }) => {
      if (memory.fact?.attribute === asked.attribute || !memory.speaker) return false
      if (isAssistantSpeaker(memory.speaker)) return false
      return subjects.size === 0 || subjects.has(memory.speaker.toLowerCase()) || isUserRole(memory.speaker)
    })
    if (candidates.length === 0) return []
    const fetched = await deps.elasticsearch.mget<{ embedding?: number[] }>({
      index,
      ids: candidates.map(({ memory }) => memory.id),
      _source: ['embedding'],
    })
    const vectors = new Map(
      fetched.docs.flatMap((doc) =>
        'found' in doc && doc.found && doc._source?.embedding
          ? [[doc._id, doc._source.embedding] as const]
          : [],
      ),
    )
    return candidates.filter(({ memory }) => {
      const vector = vectors.get(memory.id)
      if (!vector) return false
      const meaning = reader.meaning({
        content: memory.content,
        speaker: memory.speaker ?? undefined,
        vector,
      })
      return (
        (meaning.topic[asked.attribute] ?? 0) >= stating.topic && meaning.stance.current >= stating.current
      )
    })
  }

  return {
    async search(instanceId, request) {
      const asking = askedOf(request.query)
      const [outcome, asked, stated] = await Promise.all([
        request.mode === 'fast' ? fast(instanceId, request) : accurate(instanceId, request),
        asking,
        asking.then((asked) => (asked ? statedFacts(instanceId, request, asked) : [])),
      ])
      const hits =
        request.include_superseded === true
          ? supersededWeighedDown(outcome.hits, request.as_of, tuning.superseded)
          : outcome.hits
      // A statement users rated down is not put first: it ranks by its (weighed) score like any other.
      const leading = (
        asked?.current ? newestStatingFirst([...stated, ...(await readAsStating(hits, asked))], hits) : stated
      ).filter(({ memory }) => !isRatedDown(memory.feedback))
      // A question about someone's attribute is answered by a statement, not by a question or a request they made.
      const answering = asked ? [...hits.filter((hit) => !asks(hit)), ...hits.filter(asks)] : hits
      return { ...outcome, hits: withStatedFactsFirst(answering, leading, request.limit) }
    },
    async hasMemories(instanceId, scope) {
      const response = await deps.elasticsearch.search({
        index,
        size: 0,
        terminate_after: 1,
        track_total_hits: 1,
        query: { bool: { filter: scopeFilters(instanceId, scope, now()) } },
      })
      return totalHitsOf(response.hits.total) > 0
    },
  }
}

/** A memory that asks or requests rather than states: "Kwame asked: …?", "How does Arjun plan…", "Help Ana write…". */
function asks({ memory }: Hit): boolean {
  return (
    /^[^:]{1,60}\basked: /.test(memory.content) ||
    /\?\s*$/.test(memory.content) ||
    /^(?:how|what|where|why|which|can|could|would|should|help|give|tell|show|write|make) \b/i.test(
      memory.content,
    )
  )
}

/** How a conversation labels its person's side (turnSplitting.ts): their preferences say how to answer them. */
const userRoles = ['User', 'Human', 'Customer']

/** A question in the first person: the asker's own preferences and instructions may say how to answer it. */
function asksAboutThemself(query: string): boolean {
  return /\b(?:[Ii]|[Ii]['’](?:m|ve|d|ll)|[Mm]y|[Mm]e|[Mm]ine|[Mm]yself)\b/.test(query)
}

function countVectorSearches(searches: ListSearch[]): number {
  return searches.filter(({ scored }) => scored).length
}
