import { describe, expect, it } from 'vitest'
import { toRecordedEvent, validateConversationEvent } from './conversationEvents.js'

const base = { conversation_id: 'conv-1', user_id: 'user-1' }

describe('validateConversationEvent', () => {
  it('accepts each message type with its role, given or implied, and session events without content', () => {
    for (const [eventType, role] of [
      ['user_message', 'user'],
      ['assistant_message', 'assistant'],
      ['system_message', 'system'],
      ['tool_message', 'tool'],
    ] as const) {
      expect(
        validateConversationEvent({ ...base, event_type: eventType, role, content: 'x' }),
      ).toHaveProperty('event')
      expect(validateConversationEvent({ ...base, event_type: eventType, content: 'x' })).toHaveProperty(
        'event',
      )
    }
    expect(validateConversationEvent({ ...base, event_type: 'session_started' })).toHaveProperty('event')
    expect(validateConversationEvent({ ...base, event_type: 'session_ended' })).toHaveProperty('event')
  })

  it('lists every problem of an event', () => {
    expect(
      validateConversationEvent({ event_type: 'user_message', role: 'assistant', content: 'x' }),
    ).toEqual({
      problems: ['conversation_id is required', 'user_id is required'],
    })
    expect(validateConversationEvent({ ...base, event_type: 'assistant_message', role: 'user' })).toEqual({
      problems: ['role must be assistant for assistant_message', 'content is required for assistant_message'],
    })
    expect(validateConversationEvent({ ...base, event_type: 'session_ended', role: 'user' })).toEqual({
      problems: ['role is not allowed on session_ended'],
    })
  })

  it('records an event with its implied role and the receive time when it has no time of its own', () => {
    const checked = validateConversationEvent({ ...base, event_type: 'tool_message', content: 'result' })
    if (!('event' in checked)) throw new Error('expected a valid event')
    expect(
      toRecordedEvent(checked.event, {
        eventId: 'evt_1',
        instanceId: 'inst_0123456789abcdef',
        clientId: 'cli_1',
        receivedAt: '2026-11-22T12:00:00.000Z',
      }),
    ).toEqual({
      type: 'conversation_event_recorded',
      event_id: 'evt_1',
      client_event_id: null,
      instance_id: 'inst_0123456789abcdef',
      client_id: 'cli_1',
      conversation_id: 'conv-1',
      user_id: 'user-1',
      customer_id: null,
      event_type: 'tool_message',
      role: 'tool',
      content: 'result',
      metadata: {},
      occurred_at: '2026-11-22T12:00:00.000Z',
      received_at: '2026-11-22T12:00:00.000Z',
    })
  })
})
