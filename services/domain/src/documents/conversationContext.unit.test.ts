import { describe, expect, it } from 'vitest'
import type { Document } from '@memory-service/contracts'
import { batchContextsOf, CONTEXT_MAX_CHARS, contextualTextOf } from './conversationContext.js'

const turn = (document: string, overrides: Partial<Document> = {}): Document => ({
  document,
  document_type: 'ai-chat-conversation',
  mode: 'fast',
  user_id: 'u1',
  document_created_at: '2023-05-08T13:56:00Z',
  ...overrides,
})
const acceptedAt = '2026-11-25T00:00:00.000Z'

describe('batchContextsOf', () => {
  it('gives each turn the turns sent just before and after it in the batch', () => {
    const contexts = batchContextsOf([turn('A: one'), turn('B: two'), turn('A: three')], acceptedAt)
    expect(contexts).toEqual([
      { before: '', after: 'B: two' },
      { before: 'A: one', after: 'A: three' },
      { before: 'B: two', after: '' },
    ])
  })

  it('skips turns of other users, and keeps sessions and document types apart', () => {
    const contexts = batchContextsOf(
      [
        turn('A: one'),
        turn('X: other user', { user_id: 'u2' }),
        turn('A: two'),
        turn('A: a week later', { document_created_at: '2023-05-15T10:00:00Z' }),
        turn('A: a note', { document_type: 'note' }),
      ],
      acceptedAt,
    )
    expect(contexts[0]).toEqual({ before: '', after: 'A: two' })
    expect(contexts[1]).toBeUndefined()
    expect(contexts[2]).toEqual({ before: 'A: one', after: '' })
    // The nearest turn of the same user is a week away: it is another conversation, and nothing older is taken.
    expect(contexts[3]).toBeUndefined()
    expect(contexts[4]).toBeUndefined()
  })

  it('reads turns without a creation time as created when accepted, within 30 minutes of each other', () => {
    const undated = { document_created_at: undefined }
    const contexts = batchContextsOf(
      [turn('A: now', undated), turn('B: 20 minutes ago', { document_created_at: '2026-11-24T23:40:00Z' })],
      acceptedAt,
    )
    expect(contexts[0]).toEqual({ before: '', after: 'B: 20 minutes ago' })
    expect(batchContextsOf([turn('A: alone')], acceptedAt)).toEqual([undefined])
  })

  it('keeps the end of the turn before and the start of the turn after', () => {
    const long = `${'x'.repeat(CONTEXT_MAX_CHARS)}END`
    const [, middle] = batchContextsOf([turn(`START${long}`), turn('B: hi'), turn(`A: ${long}`)], acceptedAt)
    expect(middle?.before).toHaveLength(CONTEXT_MAX_CHARS)
    expect(middle?.before.endsWith('END')).toBe(true)
    expect(middle?.after).toHaveLength(CONTEXT_MAX_CHARS)
    expect(middle?.after.startsWith('A: x')).toBe(true)
  })
})

describe('contextualTextOf', () => {
  it('reads the statement after the turn before it', () => {
    expect(contextualTextOf('It felt crazy.', { before: 'A: I signed!', after: '' })).toBe(
      'A: I signed!\nIt felt crazy.',
    )
    expect(contextualTextOf('It felt crazy.', { before: '', after: 'B: wow' })).toBe('It felt crazy.')
  })
})
