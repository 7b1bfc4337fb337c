import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app.js'
import { unwiredDependencies } from '../testing/unwiredDependencies.js'

// The owner's answer echoes what reached it, so the test sees what was forwarded.
let owner: FastifyInstance
let ownerUrl: string
let forwarder: FastifyInstance

beforeAll(async () => {
  owner = Fastify()
  owner.get('/*', async (request, reply) =>
    reply
      .header('x-ratelimit-remaining', '41')
      .code(200)
      .send({
        url: request.url,
        authorization: request.headers.authorization ?? null,
        correlation: request.headers['x-correlation-id'] ?? null,
      }),
  )
  ownerUrl = await owner.listen({ host: '127.0.0.1', port: 0 })
  forwarder = buildApp(unwiredDependencies({ analyticsOwnerUrl: ownerUrl }))
})

afterAll(async () => {
  await Promise.all([owner.close(), forwarder.close()])
})

describe('a gateway that does not own ClickHouse', () => {
  it.each([
    '/v1/analytics/summary?instance_id=inst_1&period=24h',
    '/v1/analytics/metrics?instance_id=inst_1&metric=api_call&bucket=hour&start=2026-11-01T00:00:00Z&end=2026-11-02T00:00:00Z',
    '/dashboard/configs/inst_1/history',
  ])(
    'forwards %s to the owner with the key and the correlation id, and passes its answer back',
    async (url) => {
      const response = await forwarder.inject({
        method: 'GET',
        url,
        headers: { authorization: 'Bearer some-key', 'x-correlation-id': 'corr-forwarded-1' },
      })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({
        url,
        authorization: 'Bearer some-key',
        correlation: 'corr-forwarded-1',
      })
      expect(response.headers['x-ratelimit-remaining']).toBe('41')
      expect(response.headers['x-correlation-id']).toBe('corr-forwarded-1')
    },
  )

  it('answers every other route itself', async () => {
    const response = await forwarder.inject({
      method: 'GET',
      url: '/v1/memories/mem_000000000000000000000000',
      headers: { authorization: 'Bearer some-key' },
    })
    expect(response.statusCode).toBe(401)
  })

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when the owner does not answer', async () => {
    const closed = Fastify()
    const closedUrl = await closed.listen({ host: '127.0.0.1', port: 0 })
    await closed.close()
    const orphan = buildApp(unwiredDependencies({ analyticsOwnerUrl: closedUrl }))
    const response = await orphan.inject({
      method: 'GET',
      url: '/v1/analytics/summary?instance_id=inst_1&period=24h',
      headers: { authorization: 'Bearer some-key' },
    })
    await orphan.close()
    expect(response.statusCode).toBe(503)
    expect(response.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { reason: 'analytics_owner_unreachable' },
    })
    expect(response.headers['retry-after']).toBe('5')
  })
})
