import { externalIdSchemaPattern } from '@memory-service/domain'
import type { FastifyInstance } from 'fastify'
import type { UserProfile, UserProfileQuery } from '@memory-service/contracts'
import type { Profiles } from '@memory-service/read-models'
import { principalOf } from '../http/frontDoor.js'
import type { UserErasure } from '@memory-service/commands'

const userParams = {
  type: 'object',
  additionalProperties: false,
  required: ['user_id'],
  properties: {
    user_id: { type: 'string', minLength: 1, maxLength: 200, pattern: externalIdSchemaPattern },
  },
} as const

/**
 * A user's profile (memories:read), and erasing a user's data within the key's instance: an admin operation
 * (instances:write), answered with a receipt.
 */
export function registerUserRoutes(app: FastifyInstance, erasure: UserErasure, profiles: Profiles): void {
  app.get<{ Params: { user_id: string }; Querystring: UserProfileQuery }>(
    '/v1/users/:user_id/profile',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['users'],
        summary:
          "A user's profile: each changing attribute's value (now, or as_of a moment), since when, the memory that states it and the values it replaced",
        params: userParams,
        querystring: { $ref: 'UserProfileQuery.schema.json#' },
        response: { 200: { $ref: 'UserProfile.schema.json#' } },
      },
    },
    async (request): Promise<UserProfile> =>
      profiles.profileOf(
        principalOf(request).instance.instance_id,
        { user_id: request.params.user_id, customer_id: request.query.customer_id ?? null },
        request.query.as_of,
      ),
  )

  app.delete<{ Params: { user_id: string } }>(
    '/v1/users/:user_id',
    {
      config: { permission: 'instances:write' },
      schema: {
        tags: ['users'],
        summary:
          'Erase all data of a user: memories in every projection, the entities only they were mentioned in, their conversations; the receipt lists what each store removed',
        params: userParams,
        response: { 200: { $ref: 'UserErasureReceipt.schema.json#' } },
      },
    },
    async (request) =>
      erasure.erase(principalOf(request).instance.instance_id, request.params.user_id, request.id),
  )
}
