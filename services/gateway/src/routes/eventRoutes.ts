import type { FastifyInstance } from 'fastify'
import type { EventBatchRequest } from '@memory-service/contracts'
import type { EventRecorder } from '@memory-service/log'
import { countEventOutcomes, eventAckDuration, secondsSince } from '@memory-service/engines'
import { principalOf } from '../http/frontDoor.js'

/** `POST /v1/events/batch`: conversation events of the key's own instance, acknowledged one by one. */
export function registerEventRoutes(app: FastifyInstance, deps: { events: EventRecorder }): void {
  const recorder = deps.events
  app.post<{ Body: EventBatchRequest }>(
    '/v1/events/batch',
    {
      config: { permission: 'events:write' },
      schema: {
        tags: ['events'],
        summary:
          'Record conversation events; each is accepted (in Kafka), duplicate (its event_id was seen) or rejected',
        body: { $ref: 'EventBatchRequest.schema.json#' },
        response: { 200: { $ref: 'EventBatchResponse.schema.json#' } },
      },
    },
    async (request) => {
      const principal = principalOf(request)
      const startedAt = performance.now()
      const response = await recorder.record(
        { instanceId: principal.instance.instance_id, clientId: principal.instance.client_id },
        request.body.events,
        request.id,
      )
      eventAckDuration.observe({ transport: 'http' }, secondsSince(startedAt))
      countEventOutcomes('http', response.results)
      return response
    },
  )
}
