import type { RerankTuning } from './ranking.js'

/** How much each retriever's list counts in the fusion, and how the reranker blends its signals. */
export interface SearchTuning {
  lists: {
    vector: number
    keyword: number
    graph: number
    /** Relative to the question itself (1). */
    subQuestion: number
    withoutNames: number
    /** The question against each memory's conversation (its neighbouring turns): by vector, by keyword. */
    contextVector: number
    contextKeyword: number
    /**
     * fast only: the weight of the question's words (BM25 over the memories' content terms) beside the kNN score, in
     * the same request. Carries the names the embedded question leaves out.
     */
    fastKeyword: number
    /**
     * accurate only, when the question names a period ("in July 2022"): the question against the memories written
     * (or said to have happened) in it, by vector and by keyword.
     */
    periodVector: number
    periodKeyword: number
    /**
     * accurate only, when the asker asks about themself ("how should I…", "show me…"): the question against their
     * standing preferences and instructions ("Always include examples when I ask about probability"), which
     * answer how to reply rather than what to say, so share few words with the question.
     */
    preferences: number
    /**
     * accurate only, when the asker asks what they themself said ("the order in which I brought up…", "what did I
     * say I was using…"): the question against their own turns.
     */
    ownWords: number
  }
  /** Candidates per requested result taken from each list (at least 50, at most 200). */
  depthPerResult: number
  /**
   * Fused candidates per requested result that the reranker sees (at least 30): as many as each list gives, since a
   * memory very near the question but found by one list only (a preference, by the preferences' list) fuses below
   * the 30th place, and the reranker's similarity lifts it (BEAM dev 0.475 → 0.497 all, LoCoMo 0.820 → 0.831).
   */
  rerankPerResult: number
  rerank: RerankTuning
  /**
   * accurate only, for a question about a whole history (the order things came up in, a summary of how something
   * went): its answer needs many messages, each saying a little, so the reranker sees more candidates and the page
   * takes at most `perSource` memories of one message.
   */
  acrossConversations: {
    depthPerResult: number
    rerankPerResult: number
    perSource: number
    /** The best candidates whose shared entities are followed as one more list (0: none followed), and its weight. */
    threadFrom: number
    threadWeight: number
  }
  /**
   * With include_superseded: what a memory no longer valid keeps of its score. Below 1, so the current version of a
   * fact ranks above the versions it superseded for the same question; not 0, so a question about the old version
   * ("when did she move to Porto?") still finds it first.
   */
  superseded: number
  /**
   * What a memory keeps of its score by the feedback it holds (POST /v1/memories/{memory_id}/feedback): below 1 for
   * negative ratings, so a memory users marked unhelpful falls behind the ones they did not, without being deleted;
   * a little above 1 for positive. A memory without feedback keeps its score: ranking without feedback is unchanged.
   */
  feedback: { positive: number; negative: number; very_negative: number }
  /**
   * accurate only: how near (Elasticsearch's cosine score, (1 + cos) / 2) what a user told an assistant to keep doing
   * ("Always format dates as Month Day, Year when I ask about deadlines") must be to a question to take the last
   * place of its results.
   */
  instructionScore: number
  /**
   * accurate only: how many of the nearest such instructions may take the last places. More than one: a question
   * often falls under two ("show me how to implement login": the one about code snippets, the one about
   * authentication), and in BEAM dev the one asked for was the second nearest in all three questions it missed.
   */
  instructionsTaken: number
}

export const defaultSearchTuning: SearchTuning = {
  lists: {
    vector: 1,
    keyword: 1.2,
    graph: 0.3,
    subQuestion: 0.6,
    withoutNames: 1,
    contextVector: 1,
    contextKeyword: 2,
    fastKeyword: 0.2,
    periodVector: 2,
    periodKeyword: 2,
    preferences: 2,
    ownWords: 1,
  },
  depthPerResult: 5,
  rerankPerResult: 5,
  rerank: {
    similarity: 0.4,
    fused: 0.4,
    termCoverage: 0.2,
    entity: 0,
    sameSourceDiscount: 0.6,
    assistantPrior: 0.7,
  },
  acrossConversations: {
    depthPerResult: 10,
    rerankPerResult: 6,
    perSource: 1,
    threadFrom: 8,
    threadWeight: 1,
  },
  superseded: 0.8,
  feedback: { positive: 1.1, negative: 0.5, very_negative: 0.15 },
  instructionScore: 0.55,
  instructionsTaken: 2,
}

/** What a memory keeps of its score by the feedback it holds (SearchTuning.feedback); 1 without feedback. */
export function feedbackWeightOf(
  feedback: { rating: keyof SearchTuning['feedback'] } | null | undefined,
  weights: SearchTuning['feedback'],
): number {
  return feedback ? weights[feedback.rating] : 1
}

/** Whether feedback says the memory should not be put forward (negative or very negative). */
export function isRatedDown(
  feedback: { rating: keyof SearchTuning['feedback'] } | null | undefined,
): boolean {
  return feedback?.rating === 'negative' || feedback?.rating === 'very_negative'
}
