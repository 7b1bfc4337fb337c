import { describe, expect, it } from 'vitest'
import { validateConversationEvent } from '../conversations/conversationEvents.js'
import { ingestionIdFor, metadataProblem, validateDocument } from './documents.js'

describe('metadata a memory can carry', () => {
  // Each of these keys, nested, was accepted once and then refused by Elasticsearch's flattened field, leaving the
  // memory in the dead letters instead of the index (found by the fuzzer).
  const nestedKeys = ['\u0000­ä', 'ôê5詖.\tA', '\u0003XFB', '', 'k'.repeat(257)]

  it('refuses a key with control characters, an empty or an overlong key at any depth', () => {
    for (const key of nestedKeys) {
      expect(metadataProblem({ outer: { [key]: 1 } }), JSON.stringify(key)).toMatch(/keys, at every level/)
      expect(metadataProblem({ a: [{ b: { [key]: true } }] }), JSON.stringify(key)).toMatch(/keys/)
    }
  })

  it('takes keys in any script, with dots and spaces, and arrays of scalars', () => {
    expect(
      metadataProblem({ 'página.1': { 'ключ с пробелом': ['x', 2, null], '𝮜': { ok: false } } }),
    ).toBeNull()
  })

  it('is checked for documents and for conversation events alike', () => {
    const document = {
      document: 'Caroline: I moved to Lisbon.',
      document_type: 'ai-chat-conversation',
      mode: 'fast',
      metadata: { source: { '\u0000': 1 } },
    }
    expect(validateDocument(document)).toEqual({
      fields: { metadata: expect.stringMatching(/keys/) as string },
    })
    const event = {
      event_id: 'evt-1',
      conversation_id: 'conv-1',
      user_id: 'u-1',
      event_type: 'user_message',
      role: 'user',
      content: 'hello',
      metadata: { source: { '\u0000': 1 } },
    }
    expect(validateConversationEvent(event)).toEqual({ problems: [expect.stringMatching(/^metadata keys/)] })
  })
})

describe('ingestion ids', () => {
  it('of a document_id are the same for the same instance and document, and differ otherwise', () => {
    const id = ingestionIdFor('inst_a', 'doc-1')
    expect(id).toMatch(/^ing_[0-9a-f]{32}$/)
    expect(ingestionIdFor('inst_a', 'doc-1')).toBe(id)
    expect(ingestionIdFor('inst_b', 'doc-1')).not.toBe(id)
    expect(ingestionIdFor('inst_a', 'doc-2')).not.toBe(id)
  })
})
