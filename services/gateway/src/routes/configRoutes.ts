import { readContractSchema } from '@memory-service/contracts/files'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { principalOf } from '../http/frontDoor.js'
import { errorResponse } from '../http/openApiResponses.js'
import { requireClientInstance, type ConfigFormat, type ControlState } from '@memory-service/domain'
import { type ConfigCommands } from '@memory-service/commands'
import { type ConfigReports } from '@memory-service/read-models'
import { type ConfigReviewRequest, type ConfigVersionsQuery } from '@memory-service/contracts'

export interface ConfigRouteDependencies {
  control: { state: ControlState }
  configs: { commands: ConfigCommands; reports: ConfigReports }
}

const instanceParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 64 } },
} as const

const versionParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'config_id'],
  properties: { id: { type: 'string', maxLength: 64 }, config_id: { type: 'string', maxLength: 64 } },
} as const

const dashboardParams = {
  type: 'object',
  additionalProperties: false,
  required: ['instance_id'],
  properties: { instance_id: { type: 'string', maxLength: 64 } },
} as const

const version = { $ref: 'ConfigVersion.schema.json#' }
const yamlTypes = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml']

const proposalExample = `storage:
  graph:
    enabled: true
retrieval:
  default_mode: accurate
  max_results: 20
`

/**
 * The proposal's body in the OpenAPI document: the route reads it as text (so a syntax error names its line), which
 * a route schema cannot say, so the document is completed here: YAML or plain text, or the same configuration as
 * JSON, each with the MemoryArchitectureConfig schema.
 */
export function withConfigProposalBody<T extends { paths?: object; components?: object }>(document: T): T {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>
  const path = Object.keys(paths).find((candidate) =>
    candidate.endsWith('/{id}/memory-architecture/versions'),
  )
  const operation = path ? paths[path]?.post : undefined
  if (!operation) return document
  const { $id, $schema, ...config } = readContractSchema('config/MemoryArchitectureConfig.schema.json')
  const schema = { $ref: '#/components/schemas/MemoryArchitectureConfig' }
  operation.requestBody = {
    required: true,
    description:
      'The configuration as YAML (application/yaml, text/yaml, text/plain) or JSON (application/json); see MemoryArchitectureConfig',
    content: {
      'application/yaml': { schema, example: proposalExample },
      'text/yaml': { schema },
      'text/plain': { schema },
      'application/json': {
        schema,
        example: {
          storage: { graph: { enabled: true } },
          retrieval: { default_mode: 'accurate', max_results: 20 },
        },
      },
    },
  }
  const components = (document.components ?? {}) as { schemas?: Record<string, unknown> }
  return {
    ...document,
    components: { ...components, schemas: { ...components.schemas, MemoryArchitectureConfig: config } },
  }
}

/** The body's format from its Content-Type; YAML is also what a plain-text body is read as. */
function formatOf(request: FastifyRequest): ConfigFormat {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  return type === 'application/json' ? 'json' : 'yaml'
}

/**
 * Configuration versions of an instance's memory architecture (spec: Dashboard and instance routes): any instance
 * of the caller's client, like the other dashboard routes. Proposing, reviewing and applying each need their own
 * permission (configs:write, configs:review, configs:apply).
 */
export function registerConfigRoutes(app: FastifyInstance, deps: ConfigRouteDependencies): void {
  const configs = deps.configs
  const instanceOf = (request: FastifyRequest, instanceId: string) =>
    requireClientInstance(deps.control.state, principalOf(request), instanceId).instance_id
  const actorOf = (request: FastifyRequest) => {
    const { key } = principalOf(request)
    return { keyId: key.key_id, permissions: key.permissions }
  }

  app.post<{ Params: { id: string } }>(
    '/instances/:id/memory-architecture/init',
    {
      config: { permission: 'configs:write' },
      schema: {
        tags: ['configs'],
        summary:
          'Give the instance its first configuration version (the defaults), active at once; 200 with the active version when it has one',
        params: instanceParams,
        response: { 200: version, 201: version },
      },
    },
    async (request, reply) => {
      const outcome = await configs.commands.init(instanceOf(request, request.params.id), request.id)
      return reply.status(outcome.created ? 201 : 200).send(outcome.version)
    },
  )

  app.get<{
    Params: { id: string }
    Querystring: Required<Omit<ConfigVersionsQuery, 'status'>> & ConfigVersionsQuery
  }>(
    '/instances/:id/memory-architecture/versions',
    {
      config: { permission: 'configs:read' },
      schema: {
        tags: ['configs'],
        summary: "The instance's configuration versions, newest first",
        params: instanceParams,
        querystring: { $ref: 'ConfigVersionsQuery.schema.json#' },
        response: { 200: { $ref: 'ConfigVersionList.schema.json#' } },
      },
    },
    async (request) =>
      configs.commands.list(
        instanceOf(request, request.params.id),
        request.query.page,
        request.query.page_size,
        request.query.status,
      ),
  )

  void app.register(async (proposals) => {
    // The configuration is read as text in the format its Content-Type names, so a YAML or JSON syntax error is a
    // CONFIG_VALIDATION_ERROR naming the line, like every other problem with it.
    proposals.removeContentTypeParser('application/json')
    proposals.removeContentTypeParser('text/plain')
    proposals.addContentTypeParser(
      ['application/json', 'text/plain', ...yamlTypes],
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, body)
      },
    )
    proposals.post<{ Params: { id: string }; Body: string }>(
      '/instances/:id/memory-architecture/versions',
      {
        config: { permission: 'configs:write' },
        schema: {
          tags: ['configs'],
          summary:
            'Propose a configuration version (YAML or JSON as the Content-Type says; schema MemoryArchitectureConfig); it awaits review',
          params: instanceParams,
          response: {
            201: version,
            400: errorResponse(
              'CONFIG_VALIDATION_ERROR: the text does not parse or the configuration is not valid (`details.validation_errors` lists each problem); INVALID_INPUT: a bad path parameter',
            ),
          },
        },
      },
      async (request, reply) => {
        const proposed = await configs.commands.propose(
          instanceOf(request, request.params.id),
          typeof request.body === 'string' ? request.body : '',
          formatOf(request),
          actorOf(request),
          request.id,
        )
        return reply.status(201).send(proposed)
      },
    )
  })

  app.get<{ Params: { id: string; config_id: string } }>(
    '/instances/:id/memory-architecture/versions/:config_id',
    {
      config: { permission: 'configs:read' },
      schema: {
        tags: ['configs'],
        summary: 'One configuration version, with the progress of the rebuild its apply started',
        params: versionParams,
        response: { 200: version },
      },
    },
    async (request) => configs.commands.get(instanceOf(request, request.params.id), request.params.config_id),
  )

  app.post<{ Params: { id: string; config_id: string }; Body: ConfigReviewRequest }>(
    '/instances/:id/memory-architecture/versions/:config_id/review',
    {
      config: { permission: 'configs:review' },
      schema: {
        tags: ['configs'],
        summary: 'Approve or reject a pending version; the key that proposed it cannot approve it',
        params: versionParams,
        body: { $ref: 'ConfigReviewRequest.schema.json#' },
        response: {
          200: version,
          403: errorResponse(
            'FORBIDDEN: the key lacks configs:review, or proposed this version and tries to approve it (details.reason own_proposal)',
          ),
          404: errorResponse('INSTANCE_NOT_FOUND or CONFIG_NOT_FOUND'),
          409: errorResponse('CONFIG_CONFLICT: the version is not pending review (details.current_status)'),
        },
      },
    },
    async (request) =>
      configs.commands.review(
        instanceOf(request, request.params.id),
        request.params.config_id,
        request.body.decision === 'approve' ? 'approved' : 'rejected',
        request.body.comment,
        actorOf(request),
        request.id,
      ),
  )

  app.post<{ Params: { id: string; config_id: string } }>(
    '/instances/:id/memory-architecture/versions/:config_id/apply',
    {
      config: { permission: 'configs:apply' },
      schema: {
        tags: ['configs'],
        summary:
          'Make an approved version active (the active one becomes superseded); a change of embeddings or of what is stored starts a rebuild (see rebuild)',
        params: versionParams,
        response: {
          200: version,
          404: errorResponse('INSTANCE_NOT_FOUND or CONFIG_NOT_FOUND'),
          409: errorResponse(
            'CONFIG_ALREADY_ACTIVE: the version is already active; CONFIG_CONFLICT: it is not approved (details.current_status)',
          ),
        },
      },
    },
    async (request) =>
      configs.commands.apply(
        instanceOf(request, request.params.id),
        request.params.config_id,
        actorOf(request),
        request.id,
      ),
  )

  app.get<{ Params: { instance_id: string } }>(
    '/dashboard/configs/:instance_id',
    {
      config: { permission: 'configs:read' },
      schema: {
        tags: ['dashboard'],
        summary: "The instance's active configuration version and its usage since it was applied",
        params: dashboardParams,
        response: { 200: { $ref: 'CurrentConfig.schema.json#' } },
      },
    },
    async (request) => configs.reports.current(instanceOf(request, request.params.instance_id)),
  )

  app.get<{ Params: { instance_id: string } }>(
    '/dashboard/configs/:instance_id/history',
    {
      config: { permission: 'configs:read' },
      schema: {
        tags: ['dashboard'],
        summary:
          'Every version that was active, newest first, with its usage and the change against the one before',
        params: dashboardParams,
        response: { 200: { $ref: 'ConfigHistory.schema.json#' } },
      },
    },
    async (request) => configs.reports.history(instanceOf(request, request.params.instance_id)),
  )
}
