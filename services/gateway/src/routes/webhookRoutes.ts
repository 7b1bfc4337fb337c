import type { FastifyInstance } from 'fastify'
import { principalOf } from '../http/frontDoor.js'
import { errorResponse } from '../http/openApiResponses.js'
import { checkPageDepth, pageDepthDescription } from '../http/limits.js'
import type { PageQuery, WebhookCreateRequest, WebhookUpdateRequest } from '@memory-service/contracts'
import type { WebhookCommands } from '@memory-service/commands'

const webhookParams = {
  type: 'object',
  additionalProperties: false,
  required: ['webhook_id'],
  properties: { webhook_id: { type: 'string', maxLength: 64 } },
} as const

const deliveryParams = {
  type: 'object',
  additionalProperties: false,
  required: ['webhook_id', 'delivery_id'],
  properties: {
    webhook_id: { type: 'string', maxLength: 64 },
    delivery_id: { type: 'string', maxLength: 64 },
  },
} as const

const webhook = { $ref: 'Webhook.schema.json#' }
const notFound = errorResponse('WEBHOOK_NOT_FOUND: no webhook with this id in the key’s instance')
const refusedUrl =
  'INVALID_INPUT: a field is missing or malformed; a URL the policy refuses (not https, a private, loopback, link-local, unique-local, CGNAT or unspecified address, credentials in it) is named in `details.fields.url`'

/**
 * Ingestion webhooks of the key's instance (docs/api/webhooks.md): registration, changes and deletion are control
 * events; deliveries come from the deliveries read model. Reading needs webhooks:read, changing webhooks:write.
 */
export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhookCommands): void {
  const instanceOf = (request: Parameters<typeof principalOf>[0]) => principalOf(request).instance.instance_id

  app.post<{ Body: WebhookCreateRequest }>(
    '/v1/webhooks',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags: ['webhooks'],
        summary: 'Register a webhook; the answer holds its signing secret, shown this once',
        body: { $ref: 'WebhookCreateRequest.schema.json#' },
        response: { 201: { $ref: 'CreatedWebhook.schema.json#' }, 400: errorResponse(refusedUrl) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request)
      const created = await webhooks.create(
        principal.instance.instance_id,
        request.body,
        principal.key.key_id,
        request.id,
      )
      return reply.status(201).send(created)
    },
  )

  app.get<{ Querystring: Required<PageQuery> }>(
    '/v1/webhooks',
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags: ['webhooks'],
        summary: "The instance's webhooks, oldest first (never their secrets)",
        querystring: { $ref: 'PageQuery.schema.json#' },
        response: { 200: { $ref: 'WebhookList.schema.json#' } },
      },
    },
    async (request) => webhooks.list(instanceOf(request), request.query.page, request.query.page_size),
  )

  app.get<{ Params: { webhook_id: string } }>(
    '/v1/webhooks/:webhook_id',
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags: ['webhooks'],
        summary: 'One webhook, with its status (and why it was disabled)',
        params: webhookParams,
        response: { 200: webhook, 404: notFound },
      },
    },
    async (request) => webhooks.get(instanceOf(request), request.params.webhook_id),
  )

  app.patch<{ Params: { webhook_id: string }; Body: WebhookUpdateRequest }>(
    '/v1/webhooks/:webhook_id',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags: ['webhooks'],
        summary: 'Change a webhook’s URL, events or description, or disable it or enable it again (status)',
        params: webhookParams,
        body: { $ref: 'WebhookUpdateRequest.schema.json#' },
        response: { 200: webhook, 400: errorResponse(refusedUrl), 404: notFound },
      },
    },
    async (request) => {
      const principal = principalOf(request)
      return webhooks.update(
        principal.instance.instance_id,
        request.params.webhook_id,
        request.body,
        principal.key.key_id,
        request.id,
      )
    },
  )

  app.delete<{ Params: { webhook_id: string } }>(
    '/v1/webhooks/:webhook_id',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook; its pending deliveries are not sent',
        params: webhookParams,
        response: { 204: { type: 'null', description: 'Deleted' }, 404: notFound },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request)
      await webhooks.delete(
        principal.instance.instance_id,
        request.params.webhook_id,
        principal.key.key_id,
        request.id,
      )
      return reply.status(204).send()
    },
  )

  app.get<{ Params: { webhook_id: string }; Querystring: Required<PageQuery> }>(
    '/v1/webhooks/:webhook_id/deliveries',
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags: ['webhooks'],
        summary:
          'The webhook’s deliveries, newest first: status, attempts, last status code and error, next attempt',
        description: `${pageDepthDescription}: older deliveries are not listed.`,
        params: webhookParams,
        querystring: { $ref: 'PageQuery.schema.json#' },
        response: {
          200: { $ref: 'WebhookDeliveryList.schema.json#' },
          400: errorResponse(pageDepthDescription),
          404: notFound,
        },
      },
    },
    async (request) => {
      checkPageDepth(request.query.page, request.query.page_size, 'older deliveries are not listed')
      return webhooks.deliveries(
        instanceOf(request),
        request.params.webhook_id,
        request.query.page,
        request.query.page_size,
      )
    },
  )

  app.post<{ Params: { webhook_id: string; delivery_id: string } }>(
    '/v1/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags: ['webhooks'],
        summary:
          'Send a delivery again now, with a new retry cycle (same webhook-id, so receivers can deduplicate)',
        params: deliveryParams,
        response: {
          202: { $ref: 'WebhookDelivery.schema.json#' },
          404: errorResponse('WEBHOOK_NOT_FOUND or WEBHOOK_DELIVERY_NOT_FOUND'),
          409: errorResponse('WEBHOOK_DISABLED: enable the webhook first (PATCH {status: "active"})'),
        },
      },
    },
    async (request, reply) => {
      const delivery = await webhooks.redeliver(
        instanceOf(request),
        request.params.webhook_id,
        request.params.delivery_id,
      )
      return reply.status(202).send(delivery)
    },
  )
}

const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The delivery id (whd_…), the same on every attempt and redelivery: deduplicate on it',
    schema: { type: 'string', pattern: '^whd_[0-9a-f]{32}$' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in seconds since the epoch',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" keyed with the secret> (Standard Webhooks)',
    schema: { type: 'string' },
  },
] as const

function outgoing(summary: string, component: string) {
  return {
    post: {
      tags: ['webhooks'],
      summary,
      security: [] as Record<string, string[]>[],
      parameters: [...signatureHeaders],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${component}` } } },
      },
      responses: {
        '2XX': { description: 'Received; any other answer (3xx included) is retried on the schedule' },
      },
    },
  }
}

/** The requests the service makes to registered webhooks (OpenAPI 3.1 `webhooks`), one per event type. */
export const webhookEventsOpenApi = {
  'ingestion.completed': outgoing('An ingestion job completed', 'IngestionWebhookEvent'),
  'ingestion.failed': outgoing('An ingestion job failed', 'IngestionWebhookEvent'),
  'ingestion.partial_success': outgoing(
    'An ingestion job stored some memories and failed others',
    'IngestionWebhookEvent',
  ),
  'configuration.applied': outgoing(
    'A configuration version became the active one',
    'ConfigurationAppliedWebhookEvent',
  ),
  'rebuild.finished': outgoing(
    'The projection rebuild a configuration started finished',
    'RebuildFinishedWebhookEvent',
  ),
}
