import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { AppError, type Logger, type Readiness } from '@memory-service/shared'
import errorBodySchema from '../../../schemas/rest/ErrorBody.schema.json' with { type: 'json' }
import livenessSchema from '../../../schemas/rest/Liveness.schema.json' with { type: 'json' }
import readinessSchema from '../../../schemas/rest/Readiness.schema.json' with { type: 'json' }
import { CORRELATION_ID_RESPONSE_HEADER, correlationIdFrom } from './http/correlationId.js'
import { handleError } from './http/errorHandler.js'

export interface AppDependencies {
  logger: Logger
  /** Checks every engine with a real client call. */
  checkReadiness(): Promise<Readiness>
  /** Largest accepted request body in bytes. */
  bodyLimit?: number
}

/** Builds the REST gateway without listening, so tests drive it with `app.inject`. */
export function buildApp(deps: AppDependencies): FastifyInstance {
  const loggerInstance: FastifyBaseLogger = deps.logger
  const app = Fastify({
    loggerInstance,
    genReqId: (request) => correlationIdFrom(request.headers['x-correlation-id']),
    bodyLimit: deps.bodyLimit ?? 5 * 1024 * 1024,
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true },
    },
  })

  app.addHook('onRequest', async (request, reply) => {
    reply.header(CORRELATION_ID_RESPONSE_HEADER, request.id)
  })

  app.addSchema(errorBodySchema)
  app.addSchema(livenessSchema)
  app.addSchema(readinessSchema)

  app.setErrorHandler(handleError)
  app.setNotFoundHandler(async (request) => {
    throw new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0] ?? ''}`, {
      method: request.method,
      path: request.url.split('?')[0],
    })
  })

  app.get('/healthz', { schema: { response: { 200: { $ref: 'Liveness#' } } } }, async () => ({
    status: 'ok' as const,
  }))

  app.get(
    '/readyz',
    { schema: { response: { 200: { $ref: 'Readiness#' }, 503: { $ref: 'Readiness#' } } } },
    async (_request, reply) => {
      const readiness = await deps.checkReadiness()
      return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness)
    },
  )

  return app
}
