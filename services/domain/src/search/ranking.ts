/** One ranked list of memory ids from one retriever (vector, keyword or graph), best first. */
export interface Ranking {
  ids: readonly string[]
  /** How much this retriever's vote counts in the fusion. */
  weight: number
}

/** Reciprocal-rank fusion: rank positions, not raw scores, so retrievers with incomparable scores can be mixed. */
export function fuseRankings(rankings: readonly Ranking[], k = 60): Map<string, number> {
  const fused = new Map<string, number>()
  for (const { ids, weight } of rankings) {
    ids.forEach((id, rank) => {
      fused.set(id, (fused.get(id) ?? 0) + weight / (k + rank + 1))
    })
  }
  return fused
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0
  let normA = 0
  let normB = 0
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? 0
    const y = b[i] ?? 0
    dot += x * y
    normA += x * x
    normB += y * y
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}

/** One kNN list as Elasticsearch scored it, best first; `k` is how many it was asked for. */
export interface ScoredList {
  hits: readonly { id: string; score: number }[]
  k: number
}

/** What the kNN lists say of a candidate's similarity to the question. */
export interface ListSimilarity {
  /** Whether some list scored the candidate; one that none did (a keyword match) needs its vectors compared. */
  scored(id: string): boolean
  /**
   * The candidate's best score in any list, raised to what it may have in a full list that left it out (at most
   * that list's lowest score): the tightest upper bound the lists give of its best similarity.
   */
  of(id: string): number
}

/**
 * The reranker's similarity from the kNN lists' own scores, so most candidates need not be fetched with their
 * vectors. A list that returned fewer than it was asked for held every memory its filter admits, so it bounds
 * nothing.
 */
export function similarityFromLists(lists: readonly ScoredList[]): ListSimilarity {
  const best = new Map<string, number>()
  const bounded = lists.flatMap(({ hits, k }) => {
    for (const { id, score } of hits) best.set(id, Math.max(best.get(id) ?? -Infinity, score))
    const last = hits[hits.length - 1]
    return hits.length >= k && last ? [{ ids: new Set(hits.map(({ id }) => id)), bound: last.score }] : []
  })
  return {
    scored: (id) => best.has(id),
    of: (id) =>
      bounded.reduce(
        (value, { ids, bound }) => (ids.has(id) ? value : Math.max(value, bound)),
        best.get(id) ?? 0,
      ),
  }
}

export interface RerankCandidate {
  id: string
  /** Fused reciprocal-rank score. */
  fused: number
  /** Best cosine similarity between the memory and the question or one of its sub-questions. */
  similarity: number
  /** Share of the question's keyword terms the memory contains (0..1). */
  termCoverage: number
  /** Whether the memory mentions an entity the question names. */
  mentionsQueryEntity: boolean
  /** The document the memory came from: several memories of one document say related things. */
  sourceId: string
  /** What the memory keeps of its score before the document discount (an assistant's statement for a question about the asker); 1 by default. */
  prior?: number
}

/** Weights of the reranker's signals (each scaled to 0..1), and the discount per memory already taken from a document. */
export interface RerankTuning {
  similarity: number
  fused: number
  termCoverage: number
  entity: number
  sameSourceDiscount: number
  /**
   * What an assistant's statement keeps of its score when the asker asks about themself ("what did I decide…"): in
   * BEAM dev a quarter of the evidence but more than half of what was found came from the assistant's answers.
   */
  assistantPrior: number
}

/**
 * Final order: a weighted blend of the exact similarity to the question, the fused rank and the keyword and entity
 * evidence, each scaled to 0..1 within the candidates. Then diversity: a memory from a document already in the
 * answer is discounted, so one document's many statements cannot crowd out other evidence (they stay, lower).
 */
export function rerank(
  weights: RerankTuning,
  candidates: readonly RerankCandidate[],
): { id: string; score: number }[] {
  if (candidates.length === 0) return []
  const scale = (values: number[]) => {
    const min = Math.min(...values)
    const max = Math.max(...values)
    return (value: number) => (max > min ? (value - min) / (max - min) : 1)
  }
  const similarity = scale(candidates.map((candidate) => candidate.similarity))
  const fused = scale(candidates.map((candidate) => candidate.fused))
  const scored = candidates.map((candidate) => ({
    candidate,
    score:
      (candidate.prior ?? 1) *
      (weights.similarity * similarity(candidate.similarity) +
        weights.fused * fused(candidate.fused) +
        weights.termCoverage * candidate.termCoverage +
        weights.entity * (candidate.mentionsQueryEntity ? 1 : 0)),
  }))
  const discount = weights.sameSourceDiscount
  const remaining = [...scored].sort(
    (a, b) => b.score - a.score || a.candidate.id.localeCompare(b.candidate.id),
  )
  const chosen: { id: string; score: number }[] = []
  const perSource = new Map<string, number>()
  // Greedy: each step takes the best remaining memory after discounting the documents already chosen.
  while (remaining.length > 0) {
    let bestIndex = 0
    let bestScore = -Infinity
    remaining.forEach(({ candidate, score }, index) => {
      const adjusted = score * discount ** (perSource.get(candidate.sourceId) ?? 0)
      if (adjusted > bestScore) {
        bestScore = adjusted
        bestIndex = index
      }
    })
    const [best] = remaining.splice(bestIndex, 1)
    if (!best) break
    chosen.push({ id: best.candidate.id, score: Number(bestScore.toFixed(6)) })
    perSource.set(best.candidate.sourceId, (perSource.get(best.candidate.sourceId) ?? 0) + 1)
  }
  return chosen
}

/** Share of the query's terms present in a memory's terms. */
export function termCoverage(queryTerms: readonly string[], memoryTerms: ReadonlySet<string>): number {
  if (queryTerms.length === 0) return 0
  return queryTerms.filter((term) => memoryTerms.has(term)).length / queryTerms.length
}

/**
 * At most `perSource` results of one source document among the first `limit`, unless nothing else is left: one
 * long message must not fill an answer (BEAM dev: one answer took 7 of the top 10). Order is kept; what a source
 * had too many of follows, in order, only where the others run out.
 */
export function withAtMostPerSource<T>(
  ranked: readonly T[],
  sourceOf: (item: T) => string,
  limit: number,
  perSource = sourceCapFor(limit),
): T[] {
  const taken: T[] = []
  const deferred: T[] = []
  const counts = new Map<string, number>()
  for (const item of ranked) {
    const source = sourceOf(item)
    const count = counts.get(source) ?? 0
    if (count < perSource) {
      taken.push(item)
      counts.set(source, count + 1)
    } else deferred.push(item)
    if (taken.length === limit) return taken
  }
  return [...taken, ...deferred].slice(0, limit)
}

/**
 * The standing instructions near a question ("Always format code with syntax highlighting when I ask about
 * implementation details") in the last places of its page, unless the page has them already; each takes the score
 * of the last result it follows. The page keeps at least one result of its own: the nearest instructions first.
 */
export function withInstructionsLast(
  ranked: readonly { id: string; score: number }[],
  instructions: readonly string[],
  limit: number,
): { id: string; score: number }[] {
  const page = ranked.slice(0, limit)
  const missing = instructions
    .filter((instruction) => !page.some(({ id }) => id === instruction))
    .slice(0, Math.max(0, limit - 1))
  if (missing.length === 0) return page
  const kept = page.slice(0, limit - missing.length)
  return [...kept, ...missing.map((id) => ({ id, score: kept.at(-1)?.score ?? 0 }))]
}

/** Three of ten: a few, in proportion to the page. */
export function sourceCapFor(limit: number): number {
  return Math.max(1, Math.ceil(limit * 0.3))
}

/**
 * The entities a thread runs through: those at least two of the best candidates mention, but not every one (the
 * asker, in all of them), and not one the question names (searched already). `mentioned` holds each candidate's
 * entity ids.
 */
export function sharedThreadEntities(
  mentioned: readonly (readonly string[])[],
  named: readonly string[],
): string[] {
  const counts = new Map<string, number>()
  for (const entityIds of mentioned)
    for (const entityId of new Set(entityIds)) counts.set(entityId, (counts.get(entityId) ?? 0) + 1)
  return [...counts.entries()]
    .filter(([entityId, count]) => count >= 2 && count < mentioned.length && !named.includes(entityId))
    .map(([entityId]) => entityId)
}
