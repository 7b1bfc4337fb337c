import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { AppError } from '@memory-service/domain'

/** The methods a route can have here; OPTIONS is not answered. */
const methods: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/**
 * The methods the path has a route for (HEAD wherever GET is: fastify answers it), in `methods` order. Where a
 * static route names the path, methods that reach it only through a parameter are left out: `/v1/memories/batch`
 * takes POST, though `GET /v1/memories/:memory_id` would match it.
 */
export function allowedMethods(app: FastifyInstance, path: string): HTTPMethods[] {
  const found = methods.flatMap((method) => {
    // fastify's types leave out the null it returns for a URL no route of that method matches.
    const route = app.findRoute({ method, url: path }) as { params: Record<string, unknown> } | null
    return route === null ? [] : [{ method, parameters: Object.keys(route.params).length }]
  })
  const fewest = Math.min(...found.map(({ parameters }) => parameters))
  return found.filter(({ parameters }) => parameters === fewest).map(({ method }) => method)
}

/**
 * What a request no route took is answered: a path some route has, asked with another method, 405
 * METHOD_NOT_ALLOWED with `Allow`; a path no route has, 404 NOT_FOUND. Both in the spec's body.
 */
export function missingRouteError(request: FastifyRequest, reply: FastifyReply): AppError {
  const path = request.url.split('?')[0] ?? ''
  const allowed = allowedMethods(request.server, path)
  // A route of this method that found nothing (a missing file of the console) is a 404, not a 405.
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    void reply.header('Allow', allowed.join(', '))
    return new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`, {
      method: request.method,
      path,
      allowed,
    })
  }
  return new AppError('NOT_FOUND', `No route ${request.method} ${path}`, { method: request.method, path })
}

/** The not-found handler: {@link missingRouteError}. */
export async function notFoundHandler(request: FastifyRequest, reply: FastifyReply): Promise<never> {
  throw missingRouteError(request, reply)
}
