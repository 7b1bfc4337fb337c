import { describe, expect, it } from 'vitest'
import { formatInstructions, MemoryIntegrationError, resolveScope, withMemoryMessage } from './memoryTools.js'

describe('whose memory a tool call touches', () => {
  it('takes the configured user, else the authenticated principal, and the session as conversation', () => {
    expect(resolveScope({ userId: 'u-1' }, { authenticated: false, sessionId: 's-1' })).toEqual({
      userId: 'u-1',
      conversationId: 's-1',
    })
    expect(resolveScope({}, { authenticated: true, principalId: 'p-1', sessionId: 's-1' })).toEqual({
      userId: 'p-1',
      conversationId: 's-1',
    })
    expect(
      resolveScope({ customerId: 'c-1', conversationId: 'conv' }, { authenticated: true, principalId: 'p' }),
    ).toEqual({ userId: 'p', customerId: 'c-1', conversationId: 'conv' })
  })

  it('never falls back to the session initiator', () => {
    const anonymous = { authenticated: false, principalId: 'p-1', initiatorId: 'bot-1', sessionId: 's-1' }
    expect(() => resolveScope({}, anonymous)).toThrow(MemoryIntegrationError)
    expect(() => resolveScope({}, undefined)).toThrow(/userId is required/)
  })
})

describe('the resolver message', () => {
  const summary = '- Tom moved to Oslo.\n- Tom works as a carpenter.'

  it('formats the summary in each style', () => {
    expect(formatInstructions(summary, 'narrative')).toBe(
      'Earlier in this conversation (compacted): Tom moved to Oslo. Tom works as a carpenter.',
    )
    expect(formatInstructions(summary, 'bullet_points')).toBe(
      'Earlier in this conversation:\n- Tom moved to Oslo.\n- Tom works as a carpenter.',
    )
    expect(formatInstructions(summary, 'structured')).toBe(
      '## Conversation memory\n\n### Earlier in this conversation\n- Tom moved to Oslo.\n- Tom works as a carpenter.',
    )
  })

  it('is added once after the leading system prompt, which stays', () => {
    const memory = { role: 'system' as const, content: 'memory' }
    const base = { role: 'system', content: 'base' }
    const user = { role: 'user', content: 'hi' }
    expect(withMemoryMessage([base, user], memory)).toEqual([base, memory, user])
    expect(withMemoryMessage([user], memory)).toEqual([memory, user])
    expect(withMemoryMessage([base, user], null)).toEqual([base, user])
  })
})
