import type { FastifyInstance } from 'fastify'
import { principalOf } from '../http/frontDoor.js'
import { listInstances, requireClientInstance, type ControlState } from '@memory-service/domain'
import { type CreateInstanceRequest, type CurrentKey, type PageQuery } from '@memory-service/contracts'
import { type TenancyCommands } from '@memory-service/commands'

export interface InstanceRouteDependencies {
  control: { state: ControlState }
  tenancy: TenancyCommands
}

/** Dashboard instance routes: they act on the caller's client (every instance of it), never on another client's. */
export function registerInstanceRoutes(app: FastifyInstance, deps: InstanceRouteDependencies): void {
  app.get(
    '/v1/keys/current',
    {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['dashboard'],
        summary: 'The calling API key: its instance and permissions',
        response: { 200: { $ref: 'CurrentKey.schema.json#' } },
      },
    },
    async (request): Promise<CurrentKey> => {
      const { key } = principalOf(request)
      return {
        key_id: key.key_id,
        key_prefix: key.key_prefix,
        instance_id: key.instance_id,
        client_id: key.client_id,
        permissions: key.permissions,
        issued_at: key.issued_at,
      }
    },
  )

  app.get<{ Querystring: Required<PageQuery> }>(
    '/dashboard/instances',
    {
      config: { permission: 'instances:read' },
      schema: {
        tags: ['dashboard'],
        summary: "List the caller's client's instances",
        querystring: { $ref: 'PageQuery.schema.json#' },
        response: { 200: { $ref: 'InstanceList.schema.json#' } },
      },
    },
    async (request) => {
      const principal = principalOf(request)
      return listInstances(
        deps.control.state,
        principal.instance.client_id,
        request.query.page,
        request.query.page_size,
      )
    },
  )

  app.get<{ Params: { instance_id: string } }>(
    '/dashboard/instances/:instance_id',
    {
      config: { permission: 'instances:read' },
      schema: {
        tags: ['dashboard'],
        summary: "One instance of the caller's client",
        params: {
          type: 'object',
          additionalProperties: false,
          required: ['instance_id'],
          properties: { instance_id: { type: 'string', maxLength: 64 } },
        },
        response: { 200: { $ref: 'Instance.schema.json#' } },
      },
    },
    async (request) =>
      requireClientInstance(deps.control.state, principalOf(request), request.params.instance_id),
  )

  const tenancy = deps.tenancy
  app.post<{ Body: CreateInstanceRequest }>(
    '/dashboard/instances',
    {
      config: { permission: 'instances:write' },
      schema: {
        tags: ['dashboard'],
        summary:
          "Create an instance for the caller's client; the response holds its first API key, shown once",
        description:
          'rate_limit is required for the enterprise tier and may not be given for free or pro, which have fixed limits (otherwise 400 INVALID_INPUT naming rate_limit).',
        body: { $ref: 'CreateInstanceRequest.schema.json#' },
        response: { 201: { $ref: 'CreatedInstance.schema.json#' } },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request)
      const created = await tenancy.createInstance(
        {
          clientId: principal.instance.client_id,
          name: request.body.name,
          tier: request.body.tier,
          ...(request.body.rate_limit ? { rateLimit: request.body.rate_limit } : {}),
        },
        request.id,
      )
      return reply.status(201).send(created)
    },
  )
}
