import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { AppError } from '@memory-service/domain'

/** The methods a route can have here; OPTIONS is not answered. */
const methods: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The methods the path has a route for (HEAD wherever GET is: fastify answers it), in `methods` order. */
export function allowedMethods(app: FastifyInstance, path: string): HTTPMethods[] {
  return methods.filter((method) => {
    // fastify's types leave out the null it returns for a URL no route of that method matches.
    const found: unknown = app.findRoute({ method, url: path })
    return found !== null
  })
}

/**
 * The not-found handler: a path some route has, asked with another method, is answered 405 METHOD_NOT_ALLOWED with
 * `Allow`; a path no route has, 404 NOT_FOUND. Both in the spec's body.
 */
export function notFoundHandler(app: FastifyInstance) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<never> => {
    const path = request.url.split('?')[0] ?? ''
    const allowed = allowedMethods(app, path)
    // A route of this method that found nothing (a missing file of the console) is a 404, not a 405.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      void reply.header('Allow', allowed.join(', '))
      throw new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`, {
        method: request.method,
        path,
        allowed,
      })
    }
    throw new AppError('NOT_FOUND', `No route ${request.method} ${path}`, { method: request.method, path })
  }
}
