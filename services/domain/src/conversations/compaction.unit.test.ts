import { describe, expect, it } from 'vitest'
import {
  estimateTokens,
  factsOf,
  fitContext,
  summarizeExtractively,
  transcriptOf,
  validationScore,
  type Turn,
} from './compaction.js'

const turn = (role: string, content: string, position: number): Turn => ({
  role,
  content,
  position,
  occurred_at: `2024-03-10T10:${String(position).padStart(2, '0')}:00.000Z`,
})

const conversation = [
  turn('user', 'Hi there!', 1),
  turn('assistant', 'Hello! How can I help you today?', 2),
  turn('user', 'My sister Clara works as a nurse in Berlin.', 3),
  turn('assistant', 'That sounds like demanding work.', 4),
  turn('user', 'I really love spicy ramen and sushi.', 5),
  turn('user', 'Thanks!', 6),
]

describe('token estimates and transcripts', () => {
  it('counts a token per four characters, rounding up', () => {
    expect(estimateTokens('')).toBe(0)
    expect(estimateTokens('abcd')).toBe(1)
    expect(estimateTokens('abcde')).toBe(2)
  })

  it('labels each turn with its speaker', () => {
    expect(transcriptOf(conversation.slice(0, 2))).toBe(
      'User: Hi there!\nAssistant: Hello! How can I help you today?',
    )
  })
})

describe('the validation score', () => {
  it('counts as facts only statements with three content words, not questions or greetings', () => {
    expect(factsOf(transcriptOf(conversation))).toEqual([
      ['sister', 'clara', 'work', 'nurs', 'berlin'],
      ['sound', 'like', 'demand', 'work'],
      ['realli', 'love', 'spici', 'ramen', 'sushi'],
    ])
  })

  it('is the share of facts whose content words the summary holds (60 % or more of them)', () => {
    const text = transcriptOf(conversation)
    expect(validationScore(text, 'Clara, the sister of the user, works as a nurse in Berlin.')).toBeCloseTo(
      1 / 3,
      4,
    )
    expect(
      validationScore(text, 'Clara is a nurse in Berlin. The user loves spicy ramen and sushi.'),
    ).toBeCloseTo(2 / 3, 4)
    expect(validationScore(text, '')).toBe(0)
    expect(validationScore('Hi! Thanks!', '')).toBe(1)
  })
})

describe('extractive compaction', () => {
  it('keeps what the turns state, drops greetings and thanks, and measures itself', async () => {
    const compacted = await summarizeExtractively({
      previousSummary: null,
      turns: conversation,
      maxTokens: 1000,
    })
    expect(compacted.summary).toMatch(/Clara/)
    expect(compacted.summary).toMatch(/ramen/)
    expect(compacted.summary).not.toMatch(/Hi there|Thanks/)
    expect(compacted.originalTokens).toBe(estimateTokens(transcriptOf(conversation)))
    expect(compacted.summaryTokens).toBe(estimateTokens(compacted.summary))
    expect(compacted.compressionRatio).toBeCloseTo(compacted.originalTokens / compacted.summaryTokens, 2)
    expect(compacted.compressionRatio).toBeGreaterThan(1)
    expect(compacted.validationScore).toBe(validationScore(transcriptOf(conversation), compacted.summary))
    expect(compacted.validationScore).toBeGreaterThanOrEqual(2 / 3)
  })

  it('appends to the previous summary and stays within its token limit, dropping the least specific lines', async () => {
    const first = await summarizeExtractively({ previousSummary: null, turns: conversation, maxTokens: 1000 })
    const second = await summarizeExtractively({
      previousSummary: first.summary,
      turns: [turn('user', 'Last week I adopted a beagle named Rocket.', 7)],
      maxTokens: 1000,
    })
    expect(second.summary.startsWith(first.summary)).toBe(true)
    expect(second.summary).toMatch(/Rocket/)
    const tight = await summarizeExtractively({
      previousSummary: first.summary,
      turns: conversation,
      maxTokens: 20,
    })
    expect(estimateTokens(tight.summary)).toBeLessThanOrEqual(20)
    expect(tight.validationScore).toBeLessThan(1)
  })
})

describe('fitting a context into a budget', () => {
  const turns = [
    turn('user', 'a'.repeat(40), 1),
    turn('assistant', 'b'.repeat(40), 2),
    turn('user', 'c'.repeat(40), 3),
  ]
  const memories = [
    { memory: 'm1', text: 'd'.repeat(40) },
    { memory: 'm2', text: 'e'.repeat(400) },
    { memory: 'm3', text: 'f'.repeat(8) },
  ]

  it('takes the summary, reserved memories, then the newest turns, then the memories left', () => {
    expect(fitContext({ summary: 's'.repeat(40), turns, memories, budget: 1000 })).toEqual({
      summary: 's'.repeat(40),
      turns,
      memories: ['m1', 'm2', 'm3'],
      tokensUsed: 10 + 30 + 10 + 100 + 2,
      omittedTurns: 0,
    })
    // Budget 40: summary ≤ 16 tokens (10), memories ≤ 10 more (m1 10 → 20 used; m3 would exceed the share),
    // turns take 20 (two of three), m3 (2) fits in what is left.
    expect(fitContext({ summary: 's'.repeat(40), turns, memories, budget: 42 })).toEqual({
      summary: 's'.repeat(40),
      turns: turns.slice(1),
      memories: ['m1', 'm3'],
      tokensUsed: 10 + 10 + 20 + 2,
      omittedTurns: 1,
    })
  })

  it('cuts a summary over its share to its newest lines', () => {
    const summary = ['- oldest fact here', '- middle fact here', '- newest fact here'].join('\n')
    const fitted = fitContext({ summary, turns: [], memories: [], budget: 25 })
    expect(fitted.summary).toBe('- middle fact here\n- newest fact here')
  })

  it('is empty for a conversation with nothing in it', () => {
    expect(fitContext({ summary: null, turns: [], memories: [], budget: 256 })).toEqual({
      summary: null,
      turns: [],
      memories: [],
      tokensUsed: 0,
      omittedTurns: 0,
    })
  })
})
