import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '@memory-service/domain'
import { CORRELATION_ID_RESPONSE_HEADER } from './correlationId.js'

/** The routes that read ClickHouse: analytics reports and the configuration dashboards (usage per version). */
export function readsAnalytics(routeUrl: string | undefined): boolean {
  return (
    routeUrl !== undefined &&
    (routeUrl.startsWith('/v1/analytics/') || routeUrl.startsWith('/dashboard/configs/'))
  )
}

// What the owner answers that the caller must see (rate limits, caching, content), beside status and body.
const passedResponseHeaders = [
  'content-type',
  'retry-after',
  'cache-control',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]

/**
 * A gateway that does not own the in-process ClickHouse forwards the routes that read it to the gateway that does
 * (`clickhouse.ownerUrl`), before authentication: the owner authenticates, limits, answers and records usage, so the
 * answer is the one any gateway would give. The correlation id travels with the request, so both logs share it.
 */
export function registerAnalyticsForwarding(
  app: FastifyInstance,
  options: { ownerUrl: string; timeoutMs?: number; fetch?: typeof fetch },
): void {
  const send = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? 30_000
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!readsAnalytics(request.routeOptions.url)) return
    const headers: Record<string, string> = { [CORRELATION_ID_RESPONSE_HEADER]: request.id }
    for (const name of ['authorization', 'accept', 'x-api-key']) {
      const value = request.headers[name]
      if (typeof value === 'string') headers[name] = value
    }
    let response: Response
    try {
      response = await send(new URL(request.url, options.ownerUrl), {
        method: request.method,
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      request.log.warn({ err: error, owner: options.ownerUrl }, 'analytics owner unreachable')
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'Analytics are served by the gateway that owns ClickHouse, which did not answer',
        { reason: 'analytics_owner_unreachable', retry_after_seconds: 5 },
        { cause: error },
      )
    }
    reply.code(response.status)
    for (const name of passedResponseHeaders) {
      const value = response.headers.get(name)
      if (value !== null) reply.header(name, value)
    }
    return reply.send(Buffer.from(await response.arrayBuffer()))
  })
}

/**
 * The reports of a gateway that forwards analytics reads: never called while forwarding runs first, and a clear 503
 * (not a crash) if a route is ever reached without it.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the interface it stands in for
export function answeredByOwner<T extends object>(): T {
  return new Proxy({} as T, {
    get: () => () => {
      throw new AppError('SERVICE_UNAVAILABLE', 'Analytics are served by the gateway that owns ClickHouse', {
        reason: 'analytics_elsewhere',
      })
    },
  })
}
