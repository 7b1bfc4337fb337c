import { rateLimited } from '@memory-service/engines'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  AppError,
  authenticate,
  requirePermission,
  type ControlState,
  type Permission,
  type Principal,
} from '@memory-service/domain'
import type { RateLimiter } from './rateLimiter.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The permission a route needs; `authenticated` asks for a valid key and nothing more (a key may always read
     * about itself). Routes without one are public (health, docs, the console's files, unknown paths).
     */
    permission?: Permission | 'authenticated'
  }
  interface FastifyRequest {
    principal: Principal | null
  }
}

/**
 * The caller of a protected route, as the front door resolved it.
 * @throws AppError UNAUTHORIZED if a route without a permission asks (a wiring mistake, never a caller's)
 */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHORIZED', 'Authentication required')
  return request.principal
}

function setRateLimitHeaders(
  reply: FastifyReply,
  limit: number,
  remaining: number,
  resetAtSeconds: number,
): void {
  reply.header('X-RateLimit-Limit', limit)
  reply.header('X-RateLimit-Remaining', remaining)
  reply.header('X-RateLimit-Reset', resetAtSeconds)
}

/**
 * One front door for every protected route: who is calling (401), how fast (429, headers on every response),
 * and may they do this (403). Runs before the body is parsed, so a bad key never costs a parse.
 */
export function registerFrontDoor(
  app: FastifyInstance,
  deps: { control: { state: ControlState }; rateLimiter: RateLimiter },
) {
  app.decorateRequest('principal', null)
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const permission = request.routeOptions.config.permission
    if (permission === undefined) return
    const principal = authenticate(deps.control.state, request.headers.authorization)
    request.principal = principal
    request.log = request.log.child({
      instance_id: principal.instance.instance_id,
      key_id: principal.key.key_id,
    })
    const limit = principal.instance.rate_limit
    const decision = deps.rateLimiter.take(principal.key.key_id, limit)
    setRateLimitHeaders(reply, limit.requests_per_minute, decision.remaining, decision.resetAtSeconds)
    if (!decision.allowed) {
      rateLimited.inc({ transport: 'http' })
      reply.header('Retry-After', decision.retryAfterSeconds)
      throw new AppError('RATE_LIMITED', 'Rate limit exceeded for this API key', {
        limit: limit.requests_per_minute,
        remaining: decision.remaining,
        reset_at: new Date(decision.resetAtSeconds * 1000).toISOString(),
        retry_after_seconds: decision.retryAfterSeconds,
      })
    }
    if (permission !== 'authenticated') requirePermission(principal, permission)
  })
}
