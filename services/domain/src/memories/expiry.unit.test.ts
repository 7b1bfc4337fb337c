import { describe, expect, it } from 'vitest'
import { documentExpiryOf, expiryOfExpirationDate, expiryProblem, isExpired } from './expiry.js'
import { publicMemoryOf } from './memories.js'
import { parseMemoryFilter } from './memoryFilter.js'
import { defaultSearchTuning, feedbackWeightOf, isRatedDown } from '../search/searchTuning.js'

describe('memory expiry', () => {
  const acceptedAt = '2026-12-01T10:00:00.000Z'

  it("takes a document's own expiry over the instance's default, and none without either", () => {
    expect(documentExpiryOf('2027-01-01T00:00:00+01:00', acceptedAt, 30)).toBe('2026-12-31T23:00:00.000Z')
    expect(documentExpiryOf(undefined, acceptedAt, 30)).toBe('2026-12-31T10:00:00.000Z')
    expect(documentExpiryOf(undefined, acceptedAt, null)).toBeNull()
    expect(documentExpiryOf(undefined, acceptedAt, undefined)).toBeNull()
  })

  it('expires a memory at its instant, not a millisecond later', () => {
    const memory = { expires_at: acceptedAt }
    expect(isExpired(memory, Date.parse(acceptedAt) - 1)).toBe(false)
    expect(isExpired(memory, Date.parse(acceptedAt))).toBe(true)
    expect(isExpired({ expires_at: null }, Date.now())).toBe(false)
    expect(isExpired({}, Date.now())).toBe(false)
  })

  it('refuses an expiry that is not later than now, or not an instant the stores take', () => {
    const now = new Date(acceptedAt)
    expect(expiryProblem('2026-12-01T10:00:00.001Z', now)).toBeNull()
    expect(expiryProblem(acceptedAt, now)).toMatch(/later than now/)
    expect(expiryProblem('2026-12-01t10:00:00z', now)).toMatch(/date-time/)
  })

  it("reads mem0's expiration date as counting in full: the memory expires at the next day's start", () => {
    expect(expiryOfExpirationDate('2030-01-31')).toBe('2030-02-01T00:00:00.000Z')
    expect(expiryOfExpirationDate('2024-02-29')).toBe('2024-03-01T00:00:00.000Z')
    expect(expiryOfExpirationDate('2030-01-31T12:00:00Z')).toBe('2030-01-31T12:00:00.000Z')
    expect(expiryOfExpirationDate('2030-02-30')).toBeNull()
  })

  it('shows an expiry and feedback on every memory, null for one stored before they existed', () => {
    const memory = {
      id: 'mem_1',
      type: 'fact' as const,
      content: 'Trial ends Friday',
      confidence: 0.9,
      entities: [],
      scope: { user_id: 'u', customer_id: null, client_id: 'cli_1' },
      source: { ingestion_id: 'ing_1', document_type: 'note', document_created_at: acceptedAt },
      metadata: {},
      created_at: acceptedAt,
      updated_at: null,
      occurred_on: null,
      instance_id: 'inst_0123456789abcdef',
      relations: [],
      speaker: null,
      mode: 'fast' as const,
    }
    expect(publicMemoryOf(memory)).toMatchObject({ expires_at: null, feedback: null })
    const feedback = { rating: 'negative' as const, reason: null, given_at: acceptedAt }
    expect(publicMemoryOf({ ...memory, expires_at: acceptedAt, feedback })).toMatchObject({
      expires_at: acceptedAt,
      feedback,
    })
  })
})

describe('filters on expiry and feedback', () => {
  it('compares expires_at as an instant and feedback as one of the ratings', () => {
    expect(parseMemoryFilter({ expires_at: { lt: '2027-01-01' }, feedback: 'negative' })).toEqual({
      filter: {
        and: [
          { field: 'expires_at', comparison: { op: 'lt', value: '2027-01-01T00:00:00.000Z', as: 'date' } },
          { field: 'feedback', comparison: { op: 'eq', value: 'negative' } },
        ],
      },
    })
    expect(parseMemoryFilter({ feedback: { in: ['positive', 'meh'] } })).toEqual({
      fields: { 'filters.feedback.in.1': 'must be a rating: positive, negative, very_negative' },
    })
    expect(parseMemoryFilter({ feedback: { exists: false } })).toEqual({
      filter: { field: 'feedback', comparison: { op: 'exists', value: false } },
    })
  })
})

describe('feedback in ranking', () => {
  it('keeps the score of a memory without feedback, lowers negative ratings and raises positive ones', () => {
    const weights = defaultSearchTuning.feedback
    expect(feedbackWeightOf(null, weights)).toBe(1)
    expect(feedbackWeightOf(undefined, weights)).toBe(1)
    expect(feedbackWeightOf({ rating: 'positive' }, weights)).toBeGreaterThan(1)
    expect(feedbackWeightOf({ rating: 'negative' }, weights)).toBeLessThan(1)
    expect(feedbackWeightOf({ rating: 'very_negative' }, weights)).toBeLessThan(
      feedbackWeightOf({ rating: 'negative' }, weights),
    )
    expect([null, { rating: 'positive' as const }].map(isRatedDown)).toEqual([false, false])
    expect([{ rating: 'negative' as const }, { rating: 'very_negative' as const }].map(isRatedDown)).toEqual([
      true,
      true,
    ])
  })
})
