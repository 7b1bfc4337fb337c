/**
 * The OpenAI-compatible embedder against a fake of the external model service: a local HTTP server whose answers
 * each test chooses, for the protocol and for the failures a real endpoint produces now and then.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { EmbeddingError } from './embeddings.js'
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openAiEmbedder.js'

interface ReceivedRequest {
  method: string | undefined
  url: string | undefined
  headers: IncomingHttpHeaders
  body: unknown
}

interface Answer {
  status?: number
  /** Sent as JSON unless it is a string. */
  body: unknown
  delayMs?: number
}

const apiKey = 'sk-test-secret'
let server: Server
let baseUrl: string
let received: ReceivedRequest[] = []
let answer: (request: ReceivedRequest) => Answer

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk: Buffer) => (text += chunk.toString()))
    request.on('end', () => {
      const seen = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: JSON.parse(text),
      }
      received.push(seen)
      const { status = 200, body, delayMs = 0 } = answer(seen)
      setTimeout(() => {
        if (response.destroyed) return
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(typeof body === 'string' ? body : JSON.stringify(body))
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  received = []
  answer = () => ({ body: { data: [] } })
})

const embedder = (options: Partial<OpenAiEmbedderOptions> = {}) =>
  createOpenAiEmbedder({ baseUrl, model: 'text-embedding-3-small', apiKey, dimension: 3, ...options })

/** A well-formed answer with one non-unit vector per input, listed in reverse order. */
function reversedAnswer(request: ReceivedRequest): Answer {
  const { input } = request.body as { input: string[] }
  const data = input
    .map((_, index) => ({ object: 'embedding', index, embedding: [index + 1, 0, 2] }))
    .reverse()
  return { body: { object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: 3 } } }
}

async function embedError(promise: Promise<unknown>): Promise<EmbeddingError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(EmbeddingError)
  return error as EmbeddingError
}

describe('OpenAI-compatible embedder', () => {
  it('posts the texts with the model and the key, and returns unit vectors in input order', async () => {
    answer = reversedAnswer
    const vectors = await embedder().embed(['first', 'second'])

    expect(received).toHaveLength(1)
    const [request] = received
    expect(request?.method).toBe('POST')
    expect(request?.url).toBe('/v1/embeddings')
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`)
    expect(request?.body).toEqual({ model: 'text-embedding-3-small', input: ['first', 'second'] })
    expect(vectors).toEqual([
      [1 / Math.sqrt(5), 0, 2 / Math.sqrt(5)],
      [2 / Math.sqrt(8), 0, 2 / Math.sqrt(8)],
    ])
    expect(embedder().model).toBe('openai/text-embedding-3-small')
  })

  it('embeds a query as it embeds a stored text: the same request, no prefix', async () => {
    answer = reversedAnswer
    const client = embedder()
    const asQueries = await client.embedQueries?.(['Where does Caroline live?'])
    const asStored = await client.embed(['Where does Caroline live?'])
    expect(received.map((request) => request.body)).toEqual([
      { model: 'text-embedding-3-small', input: ['Where does Caroline live?'] },
      { model: 'text-embedding-3-small', input: ['Where does Caroline live?'] },
    ])
    expect(asQueries).toEqual(asStored)
  })

  it('asks for a dimension only when told to, and sends no key when it has none', async () => {
    answer = reversedAnswer
    await embedder({ requestDimensions: true, apiKey: undefined }).embed(['text'])
    expect(received[0]?.body).toEqual({ model: 'text-embedding-3-small', input: ['text'], dimensions: 3 })
    expect(received[0]?.headers.authorization).toBeUndefined()
  })

  it('answers an empty list without calling the API', async () => {
    expect(await embedder().embed([])).toEqual([])
    expect(received).toHaveLength(0)
  })

  it.each([429, 500, 503, 408])('reports HTTP %i as transient', async (status) => {
    answer = () => ({ status, body: { error: { message: 'try later' } } })
    const error = await embedError(embedder().embed(['text']))
    expect(error).toMatchObject({ code: 'EMBEDDING_UNAVAILABLE', transient: true })
    expect(error.message).toContain(`HTTP ${status}`)
  })

  it('reports other 4xx as permanent, without the key even when the server echoes it', async () => {
    answer = (request) => ({
      status: 401,
      body: { error: { message: `invalid key ${String(request.headers.authorization)}` } },
    })
    const error = await embedError(embedder().embed(['text']))
    expect(error).toMatchObject({ code: 'EMBEDDING_FAILED', transient: false })
    expect(error.message).toContain('HTTP 401')
    expect(error.message).toContain('[redacted]')
    expect(error.message).not.toContain(apiKey)
  })

  it.each<[string, (request: ReceivedRequest) => Answer, RegExp]>([
    ['a body that is not JSON', () => ({ body: '<html>gateway</html>' }), /not JSON: <html>gateway<\/html>/],
    ['no data array', () => ({ body: { object: 'list' } }), /no data array/],
    [
      'fewer vectors than texts',
      () => ({ body: { data: [{ index: 0, embedding: [1, 0, 0] }] } }),
      /1 vectors for 2/,
    ],
    [
      'a repeated index',
      () => ({
        body: {
          data: [
            { index: 1, embedding: [1, 0, 0] },
            { index: 1, embedding: [0, 1, 0] },
          ],
        },
      }),
      /index 1 is out of range or repeated/,
    ],
    [
      'the wrong dimension',
      () => ({
        body: {
          data: [
            { index: 0, embedding: [1, 0] },
            { index: 1, embedding: [0, 1] },
          ],
        },
      }),
      /2-dimensional vector where EMBEDDINGS_DIMENSION is 3/,
    ],
    [
      'something other than numbers',
      () => ({
        body: {
          data: [
            { index: 0, embedding: [1, '0', 0] },
            { index: 1, embedding: [0, 1, 0] },
          ],
        },
      }),
      /data\[0\]\.embedding holds something other than finite numbers/,
    ],
    [
      'an all-zero vector',
      () => ({
        body: {
          data: [
            { index: 0, embedding: [0, 0, 0] },
            { index: 1, embedding: [0, 1, 0] },
          ],
        },
      }),
      /input 0 is all zeros/,
    ],
  ])('rejects an answer with %s as malformed, permanently', async (_, malformedAnswer, message) => {
    answer = malformedAnswer
    const error = await embedError(embedder().embed(['one', 'two']))
    expect(error).toMatchObject({ code: 'EMBEDDING_MALFORMED_OUTPUT', transient: false })
    expect(error.message).toMatch(message)
  })

  it('gives up on a slow answer after the timeout, as a transient failure', async () => {
    answer = (request) => ({ ...reversedAnswer(request), delayMs: 2000 })
    const error = await embedError(embedder({ timeoutMs: 100 }).embed(['text']))
    expect(error).toMatchObject({ code: 'EMBEDDING_UNAVAILABLE', transient: true })
    expect(error.message).toContain('no answer within 100 ms')
  })

  it('reports a cancelled call as cancelled', async () => {
    answer = (request) => ({ ...reversedAnswer(request), delayMs: 2000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const error = await embedError(embedder().embed(['text'], controller.signal))
    expect(error).toMatchObject({ code: 'EMBEDDING_UNAVAILABLE', transient: true })
    expect(error.message).toContain('cancelled')
  })

  it('reports an unreachable server as transient', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))

    const error = await embedError(embedder({ baseUrl: `http://127.0.0.1:${port}/v1` }).embed(['text']))
    expect(error).toMatchObject({ code: 'EMBEDDING_UNAVAILABLE', transient: true })
    expect(error.message).toMatch(/ECONNREFUSED/)
  })
})
