import { extractStatementsInSlices } from '../extraction/builtinExtractor.js'
import { searchTermsOf } from '../search/searchTerms.js'

/** A stored conversation turn, in log order. */
export interface Turn {
  role: string
  content: string
  occurred_at: string
  position: number
}

/**
 * Tokens of a text, estimated as one per four characters (the usual rule of thumb for English with BPE
 * tokenizers). Budgets are about fitting a prompt, where a consistent estimate matters more than an exact count.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

const roleLabel: Record<string, string> = {
  user: 'User',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool',
}

/** Turns as a labelled transcript ("User: …"), the form extraction reads speakers from. */
export function transcriptOf(turns: Pick<Turn, 'role' | 'content'>[]): string {
  return turns.map((turn) => `${roleLabel[turn.role] ?? turn.role}: ${turn.content}`).join('\n')
}

const factWords = 3
const carriedShare = 0.6

/**
 * The facts a span of conversation states, for the validation score: its sentences that are not questions and have
 * at least three content words, each as its set of stemmed content words.
 */
export function factsOf(text: string): string[][] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0 && !sentence.endsWith('?'))
    .map((sentence) =>
      [...new Set(searchTermsOf(sentence.replace(/^\w+:\s*/, '')).split(' '))].filter(Boolean),
    )
    .filter((terms) => terms.length >= factWords)
}

/**
 * How much of what the compacted turns said the summary still carries: the share of their facts (see factsOf) with
 * at least 60 % of their content words in the summary. 1 when the turns stated no fact. It measures what was kept,
 * not whether it was kept faithfully: a summary that copies every sentence scores 1.
 */
export function validationScore(turnsText: string, summary: string): number {
  const facts = factsOf(turnsText)
  if (facts.length === 0) return 1
  const summaryTerms = new Set(searchTermsOf(summary).split(' '))
  const carried = facts.filter(
    (terms) =>
      terms.filter((term) => summaryTerms.has(term)).length >= Math.ceil(terms.length * carriedShare),
  )
  return Number((carried.length / facts.length).toFixed(4))
}

export interface CompactedSummary {
  summary: string
  originalTokens: number
  summaryTokens: number
  /** Tokens of what was summarized (the previous summary and the compacted turns) per token of the summary. */
  compressionRatio: number
  validationScore: number
}

/**
 * Summarizes the older part of a conversation without a language model: the statements the built-in extractor
 * finds in the turns (self-contained, speaker named, relative dates resolved), appended to the previous summary.
 * Greetings, thanks and bare questions state nothing and drop out. When the summary would outgrow `maxTokens`, the
 * statements naming the fewest entities go first, then the oldest lines of the summary.
 */
export async function summarizeExtractively(input: {
  previousSummary: string | null
  turns: Pick<Turn, 'role' | 'content' | 'occurred_at'>[]
  maxTokens: number
}): Promise<CompactedSummary> {
  const text = transcriptOf(input.turns)
  // Read in time slices: a long span does not hold the thread that acknowledges and projects turns.
  const statements = await extractStatementsInSlices({
    text,
    documentType: 'ai-chat-conversation',
    documentCreatedAt: input.turns.at(-1)?.occurred_at ?? new Date().toISOString(),
    mode: 'fast',
  })
  let lines = statements.map((statement, order) => ({
    text: `- ${statement.content}`,
    weight: statement.entities.length + (statement.occurredOn ? 1 : 0),
    order,
  }))
  const previous = input.previousSummary ? input.previousSummary.split('\n') : []
  const size = (kept: typeof lines) =>
    estimateTokens([...previous, ...kept.map((line) => line.text)].join('\n'))
  while (lines.length > 0 && size(lines) > input.maxTokens) {
    const lightest = lines.reduce((a, b) =>
      b.weight < a.weight || (b.weight === a.weight && b.order < a.order) ? b : a,
    )
    lines = lines.filter((line) => line !== lightest)
  }
  while (previous.length > 0 && size(lines) > input.maxTokens) previous.shift()
  return measureSummary({ ...input, summary: [...previous, ...lines.map((line) => line.text)].join('\n') })
}

/** A summary's compression ratio and validation score, however it was written. */
export function measureSummary(input: {
  previousSummary: string | null
  turns: Pick<Turn, 'role' | 'content'>[]
  summary: string
}): CompactedSummary {
  const text = transcriptOf(input.turns)
  const originalTokens = estimateTokens(text) + estimateTokens(input.previousSummary ?? '')
  const summaryTokens = estimateTokens(input.summary)
  return {
    summary: input.summary,
    originalTokens,
    summaryTokens,
    compressionRatio: Number((originalTokens / Math.max(summaryTokens, 1)).toFixed(3)),
    validationScore: validationScore(text, input.summary),
  }
}

export interface ContextParts<M> {
  summary: string | null
  /** Turns not compacted yet, oldest first. */
  turns: Turn[]
  /** Memories, most relevant first, with the text that counts against the budget. */
  memories: { memory: M; text: string }[]
  budget: number
}

/** Shares of the budget: the summary gets at most 40 %, and memories are sure of 25 % before turns take the rest. */
export const contextShares = { summary: 0.4, memories: 0.25 } as const

/**
 * Fits a context into a token budget. The summary comes first, cut to its newest lines when it exceeds its share;
 * memories, in order of relevance, take up to their reserved share; the recent turns then fill what is left from
 * the newest back (a turn that does not fit ends the run, so what is kept is contiguous); memories that did not fit
 * their share get whatever room the turns left.
 */
export function fitContext<M>(parts: ContextParts<M>): {
  summary: string | null
  turns: Turn[]
  memories: M[]
  tokensUsed: number
  omittedTurns: number
} {
  let summary: string | null = null
  if (parts.summary !== null) {
    const lines = parts.summary.split('\n')
    while (lines.length > 0 && estimateTokens(lines.join('\n')) > parts.budget * contextShares.summary)
      lines.shift()
    summary = lines.length > 0 ? lines.join('\n') : null
  }
  let used = summary === null ? 0 : estimateTokens(summary)
  const chosen = new Set<number>()
  const takeMemories = (limit: number) => {
    parts.memories.forEach(({ text }, index) => {
      if (chosen.has(index) || used + estimateTokens(text) > limit) return
      used += estimateTokens(text)
      chosen.add(index)
    })
  }
  takeMemories(used + parts.budget * contextShares.memories)
  const turns: Turn[] = []
  for (const turn of [...parts.turns].reverse()) {
    if (used + estimateTokens(turn.content) > parts.budget) break
    used += estimateTokens(turn.content)
    turns.unshift(turn)
  }
  takeMemories(parts.budget)
  return {
    summary,
    turns,
    memories: parts.memories.flatMap(({ memory }, index) => (chosen.has(index) ? [memory] : [])),
    tokensUsed: used,
    omittedTurns: parts.turns.length - turns.length,
  }
}
