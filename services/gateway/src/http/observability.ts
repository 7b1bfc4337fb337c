import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  contextFrom,
  httpRequestDuration,
  isTracing,
  metricsExposition,
  SpanKind,
  SpanStatusCode,
  tracer,
  withActiveSpan,
  type Span,
} from '@memory-service/engines'

const spans = new WeakMap<FastifyRequest, Span>()

/** Probes and scrapes arrive every few seconds and do nothing worth a trace; they are still counted. */
const untraced = new Set(['/healthz', '/readyz', '/metrics'])

/** The route's template (`/v1/memories/:memoryId`), never the path itself: ids would make labels unbounded. */
const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? 'unmatched'

/**
 * Request metrics and spans for every route, and GET /metrics for Prometheus. The span of a request is made active
 * for its handler, so what the handler appends to Kafka carries its `traceparent`.
 */
export function registerObservability(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (isTracing() && !untraced.has(routeOf(request))) {
      const span = tracer().startSpan(
        `${request.method} ${routeOf(request)}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'http.route': routeOf(request),
            'memory_service.correlation_id': request.id,
            'memory_service.role': 'gateway',
          },
        },
        contextFrom(request.headers),
      )
      spans.set(request, span)
    }
    done()
  })
  // The last hook before the handler: whatever it runs (the handler and its awaits) sees the request's span.
  app.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request)
    if (span) withActiveSpan(span, done)
    else done()
  })
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request)
    httpRequestDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    )
    const span = spans.get(request)
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode)
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
    }
    done()
  })
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const { contentType, body } = await metricsExposition()
    return reply.type(contentType).send(body)
  })
}
