import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { usageEvent } from '@memory-service/domain'
import { type OutgoingEvent } from '@memory-service/domain'

export type RecordUsage = (events: OutgoingEvent[]) => void

/**
 * One `api_call` usage event per authenticated request (route, status, latency), and `memory_get` for each memory
 * read. Recorded after the answer is sent, never holding it back; a call without a valid key has no instance to
 * count against.
 */
export function recordApiUsage(app: FastifyInstance, record: RecordUsage): void {
  app.addHook('onResponse', async (request, reply) => {
    const principal = request.principal
    if (!principal) return
    const instanceId = principal.instance.instance_id
    const route = request.routeOptions.url ?? 'unknown'
    const latencyMs = Number(reply.elapsedTime.toFixed(3))
    const occurredAt = new Date().toISOString()
    // Each response is measured once; nothing measures it again, so a random id is as stable as needed.
    const measuredBy = `response:${randomUUID()}`
    const events = [
      usageEvent(
        {
          instanceId,
          metric: 'api_call',
          value: 1,
          measuredBy,
          occurredAt,
          latencyMs,
          dimensions: { operation: `${request.method} ${route}`, status_code: String(reply.statusCode) },
        },
        request.id,
      ),
    ]
    if (request.method === 'GET' && route === '/v1/memories/:memory_id' && reply.statusCode === 200) {
      events.push(
        usageEvent(
          { instanceId, metric: 'memory_get', value: 1, measuredBy, occurredAt, latencyMs },
          request.id,
        ),
      )
    }
    record(events)
  })
}
