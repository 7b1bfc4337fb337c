import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { useStorableDateTimes } from '@memory-service/domain'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type ControlState } from '@memory-service/domain'
import { type Logger } from '@memory-service/engines'
import { type Readiness } from '@memory-service/contracts'
import { contractSchemaPath } from '@memory-service/contracts/files'
import {
  type TenancyCommands,
  type Conversations,
  type UserErasure,
  type WebhookCommands,
} from '@memory-service/commands'
import { type EventRecorder } from '@memory-service/log'
import { type AnalyticsReports } from '@memory-service/read-models'
import { CORRELATION_ID_RESPONSE_HEADER, correlationIdFrom } from './http/correlationId.js'
import { handleClientError, handleError, handleFrameworkError } from './http/errorHandler.js'
import { maxPathParamLength } from './http/limits.js'
import { notFoundHandler } from './http/notFound.js'
import { documentResponses } from './http/openApiResponses.js'
import { registerFrontDoor } from './http/frontDoor.js'
import { registerObservability } from './http/observability.js'
import { builtConsoleDirectory, registerConsole } from './http/console.js'
import { registerAnalyticsForwarding } from './http/analyticsForwarding.js'
import { createRateLimiter, type RateLimiter } from './http/rateLimiter.js'
import { registerEventRoutes } from './routes/eventRoutes.js'
import { registerMemoryRoutes, type MemoryRouteDependencies } from './routes/memoryRoutes.js'
import { registerAnalyticsRoutes } from './routes/analyticsRoutes.js'
import { recordApiUsage, type RecordUsage } from './http/usageRecording.js'
import { registerInstanceRoutes } from './routes/instanceRoutes.js'
import {
  registerConfigRoutes,
  withConfigProposalBody,
  type ConfigRouteDependencies,
} from './routes/configRoutes.js'
import { registerConversationRoutes } from './routes/conversationRoutes.js'
import { registerUserRoutes } from './routes/userRoutes.js'
import type { Profiles } from '@memory-service/read-models'
import { registerWebhookRoutes, webhookEventsOpenApi } from './routes/webhookRoutes.js'

const restSchemasDir = dirname(contractSchemaPath('rest/Memory.schema.json'))

/** Every public REST body schema, by its file name ($id), for routes to reference with `$ref`. */
function restSchemas(): { $id: string }[] {
  return readdirSync(restSchemasDir)
    .filter((file) => file.endsWith('.schema.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(restSchemasDir, file), 'utf8')) as { $id: string })
}

/** What the routes call. Each is required: every route is always registered, so none can silently go missing. */
export interface RouteDependencies extends MemoryRouteDependencies {
  /** Checks every engine with a real client call. */
  checkReadiness(): Promise<Readiness>
  /** The control-plane read model: instances and keys. */
  control: { state: ControlState }
  /** Instance and key changes. */
  tenancy: TenancyCommands
  /** Conversation event recording. */
  events: EventRecorder
  /** Usage analytics reports. */
  analytics: AnalyticsReports
  /** Configuration versions and their usage. */
  configs: ConfigRouteDependencies['configs']
  /** Transcripts, context fetch and compaction. */
  conversations: Conversations
  /** Erasing a user's data. */
  erasure: UserErasure
  /** Users' profiles: each attribute's current value (the profile read model). */
  profiles: Profiles
  /** Webhook registrations and their deliveries. */
  webhooks: WebhookCommands
}

export interface AppDependencies extends RouteDependencies {
  logger: Logger
  /** Largest accepted request body in bytes. */
  bodyLimit?: number
  /** Per-key token buckets; by default one of this process alone. */
  rateLimiter?: RateLimiter
  /** Appends usage events (api_call, memory_get) without holding answers back; without it none are recorded. */
  recordUsage?: RecordUsage
  /** Set when another gateway owns the in-process ClickHouse: analytics reads are forwarded there. */
  analyticsOwnerUrl?: string
  /** The console's built files; by default where `npm run build` puts them, `null` to serve none. */
  consoleDirectory?: string | null
}

/** Every dependency buildApp needs (the compiler keeps this list whole); JavaScript callers and casts get no help. */
const requiredDependencies: Record<keyof RouteDependencies | 'logger', true> = {
  logger: true,
  checkReadiness: true,
  control: true,
  tenancy: true,
  events: true,
  documents: true,
  bulkBacklog: true,
  jobs: true,
  memories: true,
  search: true,
  analytics: true,
  configs: true,
  conversations: true,
  erasure: true,
  profiles: true,
  webhooks: true,
}

/** @throws Error naming every missing dependency: a route that cannot be served is a start-up error, not a 404. */
function requireEveryDependency(deps: AppDependencies): void {
  const given = deps as unknown as Partial<Record<string, unknown>>
  const missing = Object.keys(requiredDependencies).filter((name) => given[name] == null)
  if (missing.length > 0) {
    throw new Error(
      `buildApp: missing dependencies: ${missing.join(', ')}. Every route is always registered; tests pass unwiredDependencies({ ... }).`,
    )
  }
}

const openApiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Memory Service', version: '0.1.0', description: 'Long-term memory for software agents.' },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key' } },
    },
    security: [{ bearer: [] }],
    // What the service sends to registered webhooks (docs/api/webhooks.md).
    webhooks: webhookEventsOpenApi,
  },
  transformObject: (document) =>
    'openapiObject' in document ? withConfigProposalBody(document.openapiObject) : document.swaggerObject,
  refResolver: {
    // Component names from the schema files: `Instance.schema.json` becomes `#/components/schemas/Instance`.
    buildLocalReference: (json, _baseUri, _fragment, index) =>
      typeof json.$id === 'string' ? json.$id.replace('.schema.json', '') : `def-${index}`,
  },
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
    useStorableDateTimes(ajv)
    for (const schema of schemas) ajv.addSchema(schema)
    return ajv
  }
  return { body: make(false), request: make(true) }
}

/** Builds the REST gateway without listening, so tests drive it with `app.inject`. */
export function buildApp(deps: AppDependencies): FastifyInstance {
  requireEveryDependency(deps)
  const loggerInstance: FastifyBaseLogger = deps.logger
  const app = Fastify({
    loggerInstance,
    genReqId: (request) => correlationIdFrom(request.headers['x-correlation-id']),
    bodyLimit: deps.bodyLimit ?? 5 * 1024 * 1024,
    routerOptions: { maxParamLength: maxPathParamLength },
    // What the router rejects before any route or hook runs (a bad percent-encoding, an over-long path parameter)
    // gets the spec's body too.
    frameworkErrors: handleFrameworkError,
    // And what Node's HTTP parser rejects before there is a request at all.
    clientErrorHandler: handleClientError,
  })

  app.addHook('onRequest', async (request, reply) => {
    reply.header(CORRELATION_ID_RESPONSE_HEADER, request.id)
  })
  registerObservability(app)

  const schemas = restSchemas()
  for (const schema of schemas) app.addSchema(schema)
  const validators = createValidators(schemas)
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? validators.body : validators.request).compile(schema),
  )
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(notFoundHandler)

  // The OpenAPI document is built from the route schemas; the routes are registered after it so it sees them all.
  void app.register(swagger, openApiOptions)
  void app.register(swaggerUi, { routePrefix: '/docs' })
  void app.register(async (routes) => {
    routes.addHook('onRoute', documentResponses)
    if (deps.recordUsage) recordApiUsage(routes, deps.recordUsage)
    // Before authentication: the owner of ClickHouse authenticates, limits and answers analytics reads itself.
    if (deps.analyticsOwnerUrl) registerAnalyticsForwarding(routes, { ownerUrl: deps.analyticsOwnerUrl })
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
    registerConsole(
      routes,
      deps.consoleDirectory === undefined ? builtConsoleDirectory() : deps.consoleDirectory,
    )
    registerInstanceRoutes(routes, deps)
    registerEventRoutes(routes, deps)
    registerMemoryRoutes(routes, deps)
    registerAnalyticsRoutes(routes, deps.analytics)
    registerConfigRoutes(routes, deps)
    registerConversationRoutes(routes, deps.conversations)
    registerUserRoutes(routes, deps.erasure, deps.profiles)
    registerWebhookRoutes(routes, deps.webhooks)
  })
  return app
}
