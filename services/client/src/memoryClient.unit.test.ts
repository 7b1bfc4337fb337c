import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Readiness } from '@memory-service/contracts'
import { buildApp, unwiredDependencies } from '@memory-service/gateway'
import {
  AuthenticationError,
  ConflictError,
  createMemoryClient,
  InvalidInputError,
  MemoryServiceClientError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
} from './index.js'

let readiness: Readiness = { status: 'ready', checks: [] }
const app = buildApp(unwiredDependencies({ checkReadiness: async () => readiness }))
let baseUrl = ''

beforeAll(async () => {
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(() => app.close())

/** Answers the given statuses first (an error body, optional Retry-After), then lets requests through. */
function faultyFetch(faults: { status: number; retryAfter?: string; code?: string }[]) {
  const calls: string[] = []
  const fetchWithFaults: typeof fetch = async (input, init) => {
    calls.push(input instanceof Request ? input.url : input.toString())
    const fault = faults.shift()
    if (!fault) return fetch(input, init)
    return new Response(JSON.stringify({ error: 'injected', code: fault.code ?? 'INJECTED', details: {} }), {
      status: fault.status,
      headers: {
        'content-type': 'application/json',
        'x-correlation-id': 'injected-correlation',
        ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}),
      },
    })
  }
  return { fetch: fetchWithFaults, calls }
}

function recordingSleep() {
  const waits: number[] = []
  return { waits, sleep: async (ms: number) => void waits.push(ms) }
}

describe('client library over HTTP', () => {
  it('reads liveness and readiness', async () => {
    const client = createMemoryClient({ baseUrl })
    expect(await client.liveness()).toEqual({ status: 'ok' })
    readiness = {
      status: 'not_ready',
      checks: [{ name: 'neo4j', status: 'down', latency_ms: 2, error: 'refused' }],
    }
    expect(await client.readiness()).toEqual(readiness)
  })

  it('raises the mapped error with code, details, status and correlation id', async () => {
    const client = createMemoryClient({ baseUrl: `${baseUrl}/v9` })
    const error = await client.liveness().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toBeInstanceOf(MemoryServiceClientError)
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', details: { path: '/v9/healthz' } })
    expect((error as MemoryServiceClientError).correlationId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('retries 429, 500 and 503, waiting at least Retry-After, then answers', async () => {
    const { fetch: faulty, calls } = faultyFetch([
      { status: 503, retryAfter: '3' },
      { status: 500 },
      { status: 429, retryAfter: '1' },
    ])
    const { waits, sleep } = recordingSleep()
    const client = createMemoryClient({ baseUrl, fetch: faulty, sleep })
    expect(await client.liveness()).toEqual({ status: 'ok' })
    expect(calls).toHaveLength(4)
    expect(waits[0]).toBeGreaterThanOrEqual(3000)
    expect(waits[1]).toBeGreaterThanOrEqual(250)
    expect(waits[1]).toBeLessThanOrEqual(500)
    expect(waits[2]).toBeGreaterThanOrEqual(1000)
  })

  it('gives up after its attempts with the last error', async () => {
    const { fetch: faulty, calls } = faultyFetch(Array.from({ length: 5 }, () => ({ status: 503 })))
    const client = createMemoryClient({ baseUrl, fetch: faulty, sleep: recordingSleep().sleep })
    const error = await client.liveness().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error).toMatchObject({ status: 503, correlationId: 'injected-correlation' })
    expect(calls).toHaveLength(4)
  })

  it.each([
    [400, InvalidInputError],
    [401, AuthenticationError],
    [403, AuthenticationError],
    [404, NotFoundError],
    [409, ConflictError],
  ] as const)('never retries %i', async (status, type) => {
    const { fetch: faulty, calls } = faultyFetch([{ status }])
    const client = createMemoryClient({ baseUrl, fetch: faulty, sleep: recordingSleep().sleep })
    await expect(client.liveness()).rejects.toBeInstanceOf(type)
    expect(calls).toHaveLength(1)
  })

  it('a 429 that runs out of attempts carries retryAfterSeconds', async () => {
    const { fetch: faulty } = faultyFetch(Array.from({ length: 4 }, () => ({ status: 429, retryAfter: '7' })))
    const client = createMemoryClient({ baseUrl, fetch: faulty, sleep: recordingSleep().sleep })
    const error = await client.liveness().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).retryAfterSeconds).toBe(7)
  })

  it('repeats a request after a lost connection only when that is safe', async () => {
    let failures = 0
    const dropping: typeof fetch = async (input, init) => {
      failures += 1
      if (failures === 1) throw new TypeError('fetch failed')
      return fetch(input, init)
    }
    const reads = createMemoryClient({ baseUrl, fetch: dropping, sleep: recordingSleep().sleep })
    expect(await reads.liveness()).toEqual({ status: 'ok' })
    failures = 0
    // A compaction is not idempotent: the library cannot know whether the lost request ran.
    const writes = createMemoryClient({ baseUrl, fetch: dropping, sleep: recordingSleep().sleep })
    await expect(writes.conversations.compact('c-1', { user_id: 'u-1' })).rejects.toMatchObject({
      code: 'CONNECTION_FAILED',
    })
    expect(failures).toBe(1)
  })

  it('gives up an attempt that gets no answer in time (TIMEOUT), retrying only what is safe to repeat', async () => {
    let attempts = 0
    // A service that never answers: the attempt ends only when its signal aborts it.
    const silent: typeof fetch = (_input, init) => {
      attempts += 1
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error))
      })
    }
    const options = { baseUrl, fetch: silent, sleep: recordingSleep().sleep, timeoutMs: 20 }
    await expect(createMemoryClient(options).liveness()).rejects.toMatchObject({ code: 'TIMEOUT' })
    expect(attempts).toBe(4)
    attempts = 0
    await expect(
      createMemoryClient(options).conversations.compact('c-1', { user_id: 'u-1' }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' })
    expect(attempts).toBe(1)
  })

  it("stops at once when the caller's signal aborts, also while waiting to retry (ABORTED)", async () => {
    const controller = new AbortController()
    let attempts = 0
    const unavailable: typeof fetch = async () => {
      attempts += 1
      return new Response(null, { status: 503 })
    }
    // The wait before the retry never ends by itself: only the abort can end it.
    const client = createMemoryClient({
      baseUrl,
      fetch: unavailable,
      sleep: () => new Promise(() => undefined),
    })
    const pending = client.withOptions({ signal: controller.signal }).liveness()
    await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' })
    expect(attempts).toBe(1)
    await expect(client.withOptions({ signal: controller.signal }).liveness()).rejects.toMatchObject({
      code: 'ABORTED',
    })
    expect(attempts).toBe(1)
  })

  it('sends fail_fast with a document batch only when asked', async () => {
    const bodies: unknown[] = []
    const recordingFetch: typeof fetch = async (_input, init) => {
      bodies.push(JSON.parse(typeof init?.body === 'string' ? init.body : ''))
      return new Response(JSON.stringify({ results: [], errors: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    }
    const client = createMemoryClient({ baseUrl, apiKey: 'k', fetch: recordingFetch })
    const document = {
      document: 'Ana moved to Porto.',
      document_type: 'note' as const,
      mode: 'fast' as const,
    }
    await client.memories.ingestBatch([document], { fail_fast: true })
    await client.memories.ingestBatch([document])
    expect(bodies).toEqual([{ documents: [document], fail_fast: true }, { documents: [document] }])
  })

  it('reads the API key from MEMORY_SERVICE_API_KEY by default', async () => {
    const seen: (string | null)[] = []
    const spying: typeof fetch = async (input, init) => {
      seen.push(new Headers(init?.headers).get('authorization'))
      return fetch(input, init)
    }
    process.env.MEMORY_SERVICE_API_KEY = 'msk_from_the_environment'
    try {
      await createMemoryClient({ baseUrl, fetch: spying }).liveness()
    } finally {
      delete process.env.MEMORY_SERVICE_API_KEY
    }
    expect(seen).toEqual(['Bearer msk_from_the_environment'])
  })
})
