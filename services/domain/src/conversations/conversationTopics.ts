import { readContractSchema } from '@memory-service/contracts/files'
import { AppError } from '../errors/appError.js'
import { CONVERSATIONS_TOPIC } from '../topology.js'

export const CONVERSATION_COMPACTED_SUBJECT = `${CONVERSATIONS_TOPIC}-value`
export const conversationCompactedSchema = readContractSchema('events/ConversationCompacted.v1.schema.json')

export const notFound = (conversationId: string) =>
  new AppError('CONVERSATION_NOT_FOUND', 'Conversation not found', { conversation_id: conversationId })
