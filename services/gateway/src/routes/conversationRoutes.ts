import type { FastifyInstance } from 'fastify'
import { principalOf } from '../http/frontDoor.js'
import { errorResponse } from '../http/openApiResponses.js'
import type {
  CompactionRequest,
  ConversationContextQuery,
  TranscriptRequest,
} from '@memory-service/contracts'
import type { Conversations } from '@memory-service/commands'

// Any text up to the router's limit reaches the handler: a malformed conversation id is answered 404
// CONVERSATION_NOT_FOUND, like a foreign one; a longer one 414 URI_TOO_LONG before any route runs.
const conversationParams = {
  type: 'object',
  additionalProperties: false,
  required: ['conversation_id'],
  properties: { conversation_id: { type: 'string', maxLength: 200 } },
} as const

/**
 * Conversations as agents use them (the spec leaves these paths to the client library): a whole transcript at
 * once, the context for the next turn, and compaction of the older turns.
 */
export function registerConversationRoutes(app: FastifyInstance, conversations: Conversations): void {
  const scopeOf = (request: Parameters<typeof principalOf>[0]) => {
    const { instance } = principalOf(request)
    return { instanceId: instance.instance_id, clientId: instance.client_id }
  }

  app.post<{ Params: { conversation_id: string }; Body: TranscriptRequest }>(
    '/v1/conversations/:conversation_id/transcript',
    {
      config: { permission: 'events:write' },
      schema: {
        tags: ['conversations'],
        summary:
          'Ingest a whole conversation: 201 accepted once; the identical transcript again is 200 duplicate, another one 409 TRANSCRIPT_CONFLICT',
        params: conversationParams,
        body: { $ref: 'TranscriptRequest.schema.json#' },
        response: {
          200: { $ref: 'TranscriptAccepted.schema.json#' },
          201: { $ref: 'TranscriptAccepted.schema.json#' },
          404: errorResponse('CONVERSATION_NOT_FOUND: a malformed conversation id'),
          409: errorResponse(
            'TRANSCRIPT_CONFLICT: another transcript was ingested for this conversation (a transcript is immutable)',
          ),
        },
      },
    },
    async (request, reply) => {
      const outcome = await conversations.ingestTranscript(
        scopeOf(request),
        request.params.conversation_id,
        request.body,
        request.id,
      )
      return reply.status(outcome.status === 'accepted' ? 201 : 200).send(outcome)
    },
  )

  app.get<{ Params: { conversation_id: string }; Querystring: ConversationContextQuery }>(
    '/v1/conversations/:conversation_id/context',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['conversations'],
        summary:
          'The context for the next turn within a token budget: compacted summary, recent turns, relevant memories',
        params: conversationParams,
        querystring: { $ref: 'ConversationContextQuery.schema.json#' },
        response: { 200: { $ref: 'ConversationContext.schema.json#' } },
      },
    },
    async (request) =>
      conversations.context(scopeOf(request), request.params.conversation_id, request.query, request.id),
  )

  app.post<{ Params: { conversation_id: string }; Body: CompactionRequest }>(
    '/v1/conversations/:conversation_id/compact',
    {
      config: { permission: 'events:write' },
      schema: {
        tags: ['conversations'],
        summary:
          'Summarize the older turns and hand them to memory extraction; 409 COMPACTION_IN_PROGRESS while one runs',
        params: conversationParams,
        body: { $ref: 'CompactionRequest.schema.json#' },
        response: {
          200: { $ref: 'Compaction.schema.json#' },
          404: errorResponse("CONVERSATION_NOT_FOUND: malformed, another instance's or user's, or erased"),
          409: errorResponse(
            'COMPACTION_IN_PROGRESS: a compaction of this conversation is running (details.compaction_id, started_at)',
          ),
        },
      },
    },
    async (request) =>
      conversations.compact(scopeOf(request), request.params.conversation_id, request.body, request.id),
  )
}
