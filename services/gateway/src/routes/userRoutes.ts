import { externalIdSchemaPattern } from '@memory-service/domain'
import type { FastifyInstance } from 'fastify'
import { principalOf } from '../http/frontDoor.js'
import type { UserErasure } from '@memory-service/commands'

/** Erasing a user's data within the key's instance: an admin operation (instances:write), answered with a receipt. */
export function registerUserRoutes(app: FastifyInstance, erasure: UserErasure): void {
  app.delete<{ Params: { user_id: string } }>(
    '/v1/users/:user_id',
    {
      config: { permission: 'instances:write' },
      schema: {
        tags: ['users'],
        summary:
          'Erase all data of a user: memories in every projection, the entities only they were mentioned in, their conversations; the receipt lists what each store removed',
        params: {
          type: 'object',
          additionalProperties: false,
          required: ['user_id'],
          properties: {
            user_id: { type: 'string', minLength: 1, maxLength: 200, pattern: externalIdSchemaPattern },
          },
        },
        response: { 200: { $ref: 'UserErasureReceipt.schema.json#' } },
      },
    },
    async (request) =>
      erasure.erase(principalOf(request).instance.instance_id, request.params.user_id, request.id),
  )
}
