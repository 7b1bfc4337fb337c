import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, emptyControlState, type Readiness } from '@memory-service/shared'
import { buildApp } from '@memory-service/gateway'
import { createMemoryClient, MemoryServiceError } from './index.js'

let readiness: Readiness = { status: 'ready', checks: [] }
const app = buildApp({
  logger: createLogger({ level: 'silent', name: 'test' }),
  checkReadiness: async () => readiness,
  control: { state: emptyControlState() },
})
let baseUrl = ''

beforeAll(async () => {
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(() => app.close())

describe('client library', () => {
  it('reads liveness and readiness over HTTP', async () => {
    const client = createMemoryClient({ baseUrl })
    expect(await client.liveness()).toEqual({ status: 'ok' })
    readiness = {
      status: 'not_ready',
      checks: [{ name: 'neo4j', status: 'down', latency_ms: 2, error: 'refused' }],
    }
    expect(await client.readiness()).toEqual(readiness)
  })

  it('raises the error code, details and correlation id of an error body', async () => {
    const client = createMemoryClient({ baseUrl: `${baseUrl}/v9` })
    const error = await client.liveness().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MemoryServiceError)
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', details: { path: '/v9/healthz' } })
    expect((error as MemoryServiceError).correlationId).toMatch(/^[0-9a-f-]{36}$/)
  })
})
