import { AppError, externalIdSchemaPattern } from '@memory-service/domain'
import type { FastifyInstance } from 'fastify'
import type { UserErasureReceipt, UserProfile, UserProfileQuery } from '@memory-service/contracts'
import type { Profiles } from '@memory-service/read-models'
import { principalOf } from '../http/frontDoor.js'
import { errorResponse } from '../http/openApiResponses.js'
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
          "Erase all data of a user: their data key at once (nothing of theirs in the log is readable from then on), then a job removes their memories from every projection, the entities only they were mentioned in and their conversations; answered at once with the receipt (running), read by its id until completed",
        params: userParams,
        response: { 202: { $ref: 'UserErasureReceipt.schema.json#' } },
      },
    },
    async (request, reply) => {
      const receipt = await erasure.erase(
        principalOf(request).instance.instance_id,
        request.params.user_id,
        request.id,
      )
      return reply.code(202).send(receipt)
    },
  )

  app.get<{ Params: { user_id: string; receipt_id: string } }>(
    '/v1/users/:user_id/erasures/:receipt_id',
    {
      config: { permission: 'instances:write' },
      schema: {
        tags: ['users'],
        summary:
          "An erasure's receipt: running while the job removes the user's data, then completed with what each store removed",
        params: {
          ...userParams,
          required: ['user_id', 'receipt_id'],
          properties: {
            ...userParams.properties,
            receipt_id: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
          },
        },
        response: {
          200: { $ref: 'UserErasureReceipt.schema.json#' },
          404: errorResponse('NOT_FOUND: no erasure of this user with this id in the key’s instance'),
        },
      },
    },
    async (request): Promise<UserErasureReceipt> => {
      const { user_id: userId, receipt_id: receiptId } = request.params
      const receipt = await erasure.receipt(principalOf(request).instance.instance_id, receiptId)
      if (!receipt || receipt.user_id !== userId)
        throw new AppError('NOT_FOUND', 'Erasure not found', { receipt_id: receiptId })
      return receipt
    },
  )
}
