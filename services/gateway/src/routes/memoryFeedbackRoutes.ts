import type { FastifyInstance } from 'fastify'
import type { Memory, MemoryFeedbackRequest } from '@memory-service/contracts'
import type { MemoryEditor } from '@memory-service/commands'
import {
  AppError,
  invalidInput,
  isMemoryId,
  publicMemoryOf,
  usageEvent,
  type OutgoingEvent,
} from '@memory-service/domain'
import { principalOf } from '../http/frontDoor.js'
import { memoryIdParams } from './memoryRouteParts.js'

/**
 * Feedback on a memory (docs/api/feedback.md): the memory holds the last feedback given, as a change in the log
 * with its history entry; search ranks by it; analytics counts each rating given (`memory_feedback`, by
 * operation: the rating, or `withdrawn`).
 */
export function registerMemoryFeedbackRoutes(
  app: FastifyInstance,
  deps: {
    editor: Pick<MemoryEditor, 'giveFeedback'>
    recordUsage: (events: OutgoingEvent[]) => void
    now: () => Date
  },
): void {
  app.post<{ Params: { memory_id: string }; Body: MemoryFeedbackRequest }>(
    '/v1/memories/:memory_id/feedback',
    {
      config: { permission: 'memories:write' },
      schema: {
        tags: ['memories'],
        summary:
          'Give feedback on a memory (positive, negative, very_negative, or null to withdraw it); answers the memory with its feedback',
        description:
          'The memory holds the last feedback given; the same feedback again changes nothing. Search ranks a memory rated negative lower, very_negative much lower and positive a little higher; nothing is deleted.',
        params: memoryIdParams,
        body: { $ref: 'MemoryFeedbackRequest.schema.json#' },
        response: { 200: { $ref: 'Memory.schema.json#' } },
      },
    },
    async (request): Promise<Memory> => {
      const instanceId = principalOf(request).instance.instance_id
      const memoryId = request.params.memory_id
      if (!isMemoryId(memoryId)) throw new AppError('NOT_FOUND', 'Memory not found', { memory_id: memoryId })
      const { rating, reason } = request.body
      if (rating === null && reason !== undefined && reason !== null)
        throw invalidInput({
          reason: 'goes with a rating; rating null withdraws the feedback the memory holds',
        })
      const { memory, changed } = await deps.editor.giveFeedback(
        instanceId,
        memoryId,
        { rating, ...(reason !== undefined ? { reason } : {}) },
        request.id,
      )
      if (changed) {
        const { user_id, customer_id } = memory.scope
        deps.recordUsage([
          usageEvent(
            {
              instanceId,
              metric: 'memory_feedback',
              value: 1,
              // The change's own event: a feedback is counted once however often its usage is sent.
              measuredBy: `feedback:${memory.last_event_id}`,
              occurredAt: deps.now().toISOString(),
              dimensions: {
                operation: rating ?? 'withdrawn',
                ...(user_id !== null ? { user_id } : {}),
                ...(customer_id !== null ? { customer_id } : {}),
              },
            },
            request.id,
          ),
        ])
      }
      return publicMemoryOf(memory)
    },
  )
}
