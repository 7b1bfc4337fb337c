import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { useStorableDateTimes } from '../timestamps.js'
import { metadataProblem } from '../documents/documents.js'
import { readContractSchema } from '@memory-service/contracts/files'
import { fieldsOfIssues } from '../errors/validationMessages.js'
import type {
  ConversationEvent,
  ConversationEventRecorded,
  EventBatchResponse,
} from '@memory-service/contracts'
import { CONVERSATION_EVENTS_TOPIC } from '../topology.js'

export const CONVERSATION_EVENT_SUBJECT = `${CONVERSATION_EVENTS_TOPIC}-value`

export const conversationEventRecordedSchema = readContractSchema(
  'events/ConversationEventRecorded.v1.schema.json',
)
const conversationEventSchema = readContractSchema('rest/ConversationEvent.schema.json')

const ajv = new Ajv({ allErrors: true, strict: false })
addFormats.default(ajv)
useStorableDateTimes(ajv)
const validateShape = ajv.compile<ConversationEvent>(conversationEventSchema)

const roleOfEventType: Record<ConversationEvent['event_type'], ConversationEvent['role'] | null> = {
  user_message: 'user',
  assistant_message: 'assistant',
  system_message: 'system',
  tool_message: 'tool',
  session_started: null,
  session_ended: null,
}

export type EventResult = EventBatchResponse['results'][number]

/**
 * Checks one event of a batch on its own. Returns the event, or the messages that reject it (an invalid event
 * never fails the rest of the batch).
 */
export function validateConversationEvent(
  raw: unknown,
): { event: ConversationEvent } | { problems: string[] } {
  if (!validateShape(raw)) {
    const fields = fieldsOfIssues(validateShape.errors ?? [], '')
    return {
      problems: Object.entries(fields).map(([field, message]) => (field ? `${field} ${message}` : message)),
    }
  }
  const expectedRole = roleOfEventType[raw.event_type]
  const problems: string[] = []
  if (expectedRole === null && raw.role !== undefined)
    problems.push(`role is not allowed on ${raw.event_type}`)
  if (expectedRole && raw.role !== undefined && raw.role !== expectedRole) {
    problems.push(`role must be ${expectedRole} for ${raw.event_type}`)
  }
  if (expectedRole && raw.content === undefined) problems.push(`content is required for ${raw.event_type}`)
  if (!expectedRole && raw.content !== undefined) problems.push(`content is not allowed on ${raw.event_type}`)
  const metadata = raw.metadata ? metadataProblem(raw.metadata) : null
  if (metadata) problems.push(`metadata ${metadata}`)
  return problems.length > 0 ? { problems } : { event: raw }
}

/** The record appended to Kafka for an accepted event. */
export function toRecordedEvent(
  event: ConversationEvent,
  context: { eventId: string; instanceId: string; clientId: string; receivedAt: string },
): ConversationEventRecorded {
  return {
    type: 'conversation_event_recorded',
    event_id: context.eventId,
    client_event_id: event.event_id ?? null,
    instance_id: context.instanceId,
    client_id: context.clientId,
    conversation_id: event.conversation_id,
    user_id: event.user_id,
    customer_id: event.customer_id ?? null,
    event_type: event.event_type,
    role: event.role ?? roleOfEventType[event.event_type] ?? null,
    content: event.content ?? null,
    metadata: event.metadata ?? {},
    occurred_at: event.occurred_at ?? context.receivedAt,
    received_at: context.receivedAt,
  }
}

/** Conversation events are keyed by conversation so that one conversation stays in order on one partition. */
export function conversationKey(instanceId: string, conversationId: string): string {
  return `${instanceId}/${conversationId}`
}
