import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify'
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { AppError, type ControlState } from '@memory-service/domain'
import { type Logger } from '@memory-service/engines'
import { type Readiness } from '@memory-service/contracts'
import { contractSchemaPath } from '@memory-service/contracts/files'
import { type TenancyCommands, type Conversations, type UserErasure } from '@memory-service/commands'
import { type EventRecorder } from '@memory-service/log'
import { type AnalyticsReports } from '@memory-service/read-models'
import { CORRELATION_ID_RESPONSE_HEADER, correlationIdFrom } from './http/correlationId.js'
import { handleError } from './http/errorHandler.js'
import { registerFrontDoor } from './http/frontDoor.js'
import { createRateLimiter, type RateLimiter } from './http/rateLimiter.js'
import { registerEventRoutes } from './routes/eventRoutes.js'
import { registerMemoryRoutes, type MemoryRouteDependencies } from './routes/memoryRoutes.js'
import { registerAnalyticsRoutes } from './routes/analyticsRoutes.js'
import { recordApiUsage, type RecordUsage } from './http/usageRecording.js'
import { registerInstanceRoutes } from './routes/instanceRoutes.js'
import { registerConfigRoutes, type ConfigRouteDependencies } from './routes/configRoutes.js'
import { registerConversationRoutes } from './routes/conversationRoutes.js'
import { registerUserRoutes } from './routes/userRoutes.js'

const restSchemasDir = dirname(contractSchemaPath('rest/Memory.schema.json'))

/** Every public REST body schema, by its file name ($id), for routes to reference with `$ref`. */
function restSchemas(): { $id: string }[] {
  return readdirSync(restSchemasDir)
    .filter((file) => file.endsWith('.schema.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(restSchemasDir, file), 'utf8')) as { $id: string })
}

export interface AppDependencies extends MemoryRouteDependencies {
  logger: Logger
  /** Checks every engine with a real client call. */
  checkReadiness(): Promise<Readiness>
  /** Largest accepted request body in bytes. */
  bodyLimit?: number
  /** The control-plane read model: instances and keys. */
  control: { state: ControlState }
  /** Instance and key changes; without it the write routes are not registered. */
  tenancy?: TenancyCommands
  rateLimiter?: RateLimiter
  /** Conversation event recording; without it the event routes are not registered. */
  events?: EventRecorder
  /** Usage analytics reports; without them the analytics routes are not registered. */
  analytics?: AnalyticsReports
  /** Configuration versions and their usage; without them the configuration routes are not registered. */
  configs?: ConfigRouteDependencies['configs']
  /** Transcripts, context fetch and compaction; without them the conversation routes are not registered. */
  conversations?: Conversations
  /** Erasing a user's data; without it the route is not registered. */
  erasure?: UserErasure
  /** Appends usage events (api_call, memory_get) without holding answers back. */
  recordUsage?: RecordUsage
}

const openApiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Memory Service', version: '0.1.0', description: 'Long-term memory for software agents.' },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key' } },
    },
    security: [{ bearer: [] }],
  },
  refResolver: {
    // Component names from the schema files: `Instance.schema.json` becomes `#/components/schemas/Instance`.
    buildLocalReference: (json, _baseUri, _fragment, index) =>
      typeof json.$id === 'string' ? json.$id.replace('.schema.json', '') : `def-${index}`,
  },
}

const errorBody = { $ref: 'ErrorBody.schema.json#' }

/** Every protected route can answer with these errors; the OpenAPI document says so. */
function documentErrorResponses(route: RouteOptions): void {
  if (route.config?.permission === undefined || !route.schema) return
  route.schema.response = {
    400: { ...errorBody, description: 'INVALID_INPUT' },
    401: { ...errorBody, description: 'UNAUTHORIZED or CREDENTIAL_INVALID' },
    403: { ...errorBody, description: 'FORBIDDEN' },
    404: { ...errorBody, description: 'INSTANCE_NOT_FOUND and other missing resources' },
    429: { ...errorBody, description: 'RATE_LIMITED' },
    500: { ...errorBody, description: 'INTERNAL_ERROR' },
    503: { ...errorBody, description: 'SERVICE_UNAVAILABLE' },
    ...(route.schema.response as Record<string, unknown> | undefined),
  }
}

/**
 * JSON bodies are validated strictly (a string is not an array, "5" is not a number); query strings, path
 * parameters and headers are text, so there numbers and booleans are read from their text.
 */
function createValidators(schemas: { $id: string }[]) {
  const make = (coerceTypes: boolean): Ajv => {
    const ajv = new Ajv({
      allErrors: true,
      removeAdditional: false,
      useDefaults: true,
      coerceTypes,
      strict: false,
    })
    addFormats.default(ajv)
    for (const schema of schemas) ajv.addSchema(schema)
    return ajv
  }
  return { body: make(false), request: make(true) }
}

/** Builds the REST gateway without listening, so tests drive it with `app.inject`. */
export function buildApp(deps: AppDependencies): FastifyInstance {
  const loggerInstance: FastifyBaseLogger = deps.logger
  const app = Fastify({
    loggerInstance,
    genReqId: (request) => correlationIdFrom(request.headers['x-correlation-id']),
    bodyLimit: deps.bodyLimit ?? 5 * 1024 * 1024,
  })

  app.addHook('onRequest', async (request, reply) => {
    reply.header(CORRELATION_ID_RESPONSE_HEADER, request.id)
  })

  const schemas = restSchemas()
  for (const schema of schemas) app.addSchema(schema)
  const validators = createValidators(schemas)
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? validators.body : validators.request).compile(schema),
  )
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(async (request) => {
    throw new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0] ?? ''}`, {
      method: request.method,
      path: request.url.split('?')[0],
    })
  })

  // The OpenAPI document is built from the route schemas; the routes are registered after it so it sees them all.
  void app.register(swagger, openApiOptions)
  void app.register(swaggerUi, { routePrefix: '/docs' })
  void app.register(async (routes) => {
    routes.addHook('onRoute', documentErrorResponses)
    if (deps.recordUsage) recordApiUsage(routes, deps.recordUsage)
    registerFrontDoor(routes, { control: deps.control, rateLimiter: deps.rateLimiter ?? createRateLimiter() })

    routes.get(
      '/healthz',
      { schema: { tags: ['health'], security: [], response: { 200: { $ref: 'Liveness.schema.json#' } } } },
      async () => ({ status: 'ok' as const }),
    )
    routes.get(
      '/readyz',
      {
        schema: {
          tags: ['health'],
          security: [],
          response: { 200: { $ref: 'Readiness.schema.json#' }, 503: { $ref: 'Readiness.schema.json#' } },
        },
      },
      async (_request, reply) => {
        const readiness = await deps.checkReadiness()
        return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness)
      },
    )
    routes.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
    registerInstanceRoutes(routes, deps)
    registerEventRoutes(routes, deps)
    registerMemoryRoutes(routes, deps)
    registerAnalyticsRoutes(routes, deps.analytics)
    registerConfigRoutes(routes, deps)
    registerConversationRoutes(routes, deps.conversations)
    registerUserRoutes(routes, deps.erasure)
  })
  return app
}
