import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { inspect } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ExtractionError, type ExtractionInput } from '@memory-service/domain'
import { createLlmExtractor, MAX_CHUNK_CHARS, type LlmExtractorOptions } from './llmExtractor.js'

// A stand-in for an OpenAI-compatible model service: records what the extractor sends and answers as each test says.

interface ChatRequest {
  model: string
  temperature: number
  messages: { role: string; content: string }[]
  response_format: {
    type: string
    json_schema: { name: string; strict: boolean; schema: { properties: { statements: StatementsSchema } } }
  }
}
interface StatementsSchema {
  items: { required: string[]; properties: Record<string, unknown> }
}
interface ReceivedRequest {
  method: string | undefined
  path: string | undefined
  authorization: string | undefined
  body: ChatRequest
}
type Answer = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>

const API_KEY = 'sk-test-4f1c9a0e7b2d48c6a3e5'
const MODEL_VERSION = 'gpt-4o-mini-2024-07-18'

let received: ReceivedRequest[] = []
let answer: Answer
let serverUrl = ''

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = []
  for await (const part of request) parts.push(part as Buffer)
  return Buffer.concat(parts).toString('utf8')
}

const server = createServer((request, response) => {
  void readBody(request).then(async (raw) => {
    const recorded: ReceivedRequest = {
      method: request.method,
      path: request.url,
      authorization: request.headers.authorization,
      body: JSON.parse(raw) as ChatRequest,
    }
    received.push(recorded)
    await answer(recorded, response)
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})
beforeEach(() => {
  received = []
})

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  response.writeHead(status, { 'content-type': 'application/json' }).end(text)
}

function chatCompletion(
  output: unknown,
  changes: { model?: string; usage?: object; finishReason?: string; refusal?: string } = {},
) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    ...('model' in changes ? { model: changes.model } : { model: MODEL_VERSION }),
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: changes.refusal === undefined ? JSON.stringify(output) : null,
          refusal: changes.refusal ?? null,
        },
        finish_reason: changes.finishReason ?? 'stop',
      },
    ],
    ...('usage' in changes
      ? changes.usage && { usage: changes.usage }
      : { usage: { prompt_tokens: 812, completion_tokens: 95, total_tokens: 907 } }),
  }
}

const answerWith =
  (output: unknown, changes?: Parameters<typeof chatCompletion>[1]): Answer =>
  (_, response) =>
    send(response, 200, chatCompletion(output, changes))

const extractorWith = (options: Partial<LlmExtractorOptions> = {}) =>
  createLlmExtractor({
    baseUrl: `${serverUrl}/v1/`,
    model: 'gpt-4o-mini',
    apiKey: API_KEY,
    timeoutMs: 5000,
    ...options,
  })

const input = (changes: Partial<ExtractionInput> = {}): ExtractionInput => ({
  text: 'Caroline: I went to a LGBTQ support group yesterday and it was so powerful.\nMelanie: Wow, that is great!',
  documentType: 'ai-chat-conversation',
  documentCreatedAt: '2023-05-08T13:56:00.000Z',
  mode: 'fast',
  ...changes,
})

const caroline = {
  content: '  Caroline went to an LGBTQ support group on 7 May 2023 and found it powerful. ',
  speaker: 'Caroline',
  occurredOn: '2023-05-07',
  entities: [
    { name: 'Caroline', type: 'person' },
    { name: 'LGBTQ support group', type: 'event' },
    { name: '7 May 2023', type: 'date' },
  ],
  category: { type: 'episode', confidence: 0.92 },
}

async function failureOf(extraction: Promise<unknown>): Promise<ExtractionError> {
  const outcome = await extraction.then(
    () => new Error('the extraction succeeded'),
    (error: unknown) => error,
  )
  if (outcome instanceof ExtractionError) return outcome
  throw outcome
}

function onlyRequest(): ReceivedRequest {
  expect(received).toHaveLength(1)
  const [request] = received
  if (request === undefined) throw new Error('no request reached the model service')
  return request
}

const messageOf = (request: ReceivedRequest, role: string) =>
  request.body.messages.find((message) => message.role === role)?.content ?? ''

/** The document text as the extractor framed it in the user message. */
function documentOf(request: ReceivedRequest): string {
  const message = messageOf(request, 'user')
  return message.slice(
    message.indexOf('<document>\n') + '<document>\n'.length,
    message.lastIndexOf('\n</document>'),
  )
}

describe('LLM extractor: the request', () => {
  it('posts the model, bearer key, temperature 0 and a strict json_schema response format', async () => {
    answer = answerWith({ statements: [] })
    await extractorWith().extract(input())

    const request = onlyRequest()
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/v1/chat/completions')
    expect(request.authorization).toBe(`Bearer ${API_KEY}`)
    expect(request.body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'memory_statements', strict: true } },
    })
    expect(request.body.response_format.json_schema.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['statements'],
    })
  })

  it('sends the document, its type and its creation time for resolving relative dates', async () => {
    answer = answerWith({ statements: [] })
    await extractorWith().extract(input())

    const request = onlyRequest()
    expect(documentOf(request)).toBe(input().text)
    const userMessage = messageOf(request, 'user')
    expect(userMessage).toContain('document_created_at: 2023-05-08T13:56:00.000Z')
    expect(userMessage).toContain('document_type: ai-chat-conversation')
    const systemPrompt = messageOf(request, 'system')
    expect(systemPrompt).toContain('document_created_at')
    for (const type of ['fact', 'preference', 'episode', 'emotion', 'temporal_event', 'organization']) {
      expect(systemPrompt).toContain(type)
    }
  })

  it('asks for no relations in fast mode and for relations and entity resolution in long-range mode', async () => {
    answer = answerWith({ statements: [] })
    await extractorWith().extract(input({ mode: 'fast' }))
    await extractorWith().extract(input({ mode: 'long-range' }))

    const [fast, longRange] = received.map((request) => ({
      statement: request.body.response_format.json_schema.schema.properties.statements.items,
      prompt: messageOf(request, 'system'),
    }))
    expect(fast?.statement.required).toEqual(['content', 'speaker', 'occurredOn', 'entities', 'category'])
    expect(fast?.prompt).toContain('Mode: fast')
    expect(fast?.prompt).not.toContain('relations:')
    expect(longRange?.statement.required).toContain('relations')
    expect(longRange?.prompt).toContain('Mode: long-range')
    expect(longRange?.prompt).toContain('Resolve entities')
    expect(longRange?.prompt).toContain('relations:')
  })

  it('sends no authorization header when no key is configured', async () => {
    answer = answerWith({ statements: [] })
    await extractorWith({ apiKey: undefined }).extract(input())
    expect(onlyRequest().authorization).toBeUndefined()
  })

  it('goes through the fetch it is given', async () => {
    answer = answerWith({ statements: [] })
    const urls: string[] = []
    const recordingFetch: typeof fetch = (url, init) => {
      urls.push(url instanceof Request ? url.url : url.toString())
      return fetch(url, init)
    }
    await extractorWith({ fetch: recordingFetch }).extract(input())
    expect(urls).toEqual([`${serverUrl}/v1/chat/completions`])
  })

  it('does not call the model for a blank document', async () => {
    answer = answerWith({ statements: [] })
    expect(await extractorWith().extract(input({ text: ' \n\n  ' }))).toEqual({ statements: [] })
    expect(received).toEqual([])
  })
})

describe('LLM extractor: the answer', () => {
  it('returns the trimmed statements, without blank ones and with no relations in fast mode', async () => {
    answer = answerWith({ statements: [caroline, { ...caroline, content: '   ' }] })
    const result = await extractorWith().extract(input())

    expect(result.statements).toEqual([
      {
        content: 'Caroline went to an LGBTQ support group on 7 May 2023 and found it powerful.',
        speaker: 'Caroline',
        occurredOn: '2023-05-07',
        entities: caroline.entities,
        relations: [],
        category: { type: 'episode', confidence: 0.92 },
      },
    ])
  })

  it('reports usage with the model the service answered with', async () => {
    answer = answerWith({ statements: [caroline] })
    const { usage } = await extractorWith().extract(input())
    expect(usage).toEqual({ model: MODEL_VERSION, inputTokens: 812, outputTokens: 95 })
  })

  it('falls back to the configured model, and to zero tokens, when the service reports neither', async () => {
    answer = answerWith({ statements: [caroline] }, { model: undefined, usage: undefined })
    const { usage } = await extractorWith().extract(input())
    expect(usage).toEqual({ model: 'gpt-4o-mini', inputTokens: 0, outputTokens: 0 })
  })

  it('returns relations in long-range mode, with labels repaired to snake_case and a blank speaker as null', async () => {
    const relations = [{ from: ' Caroline', to: 'LGBTQ support group ', type: 'Went To' }]
    answer = answerWith({ statements: [{ ...caroline, speaker: ' ', relations }] })
    const { statements } = await extractorWith().extract(input({ mode: 'long-range' }))

    expect(statements).toMatchObject([
      { speaker: null, relations: [{ from: 'Caroline', to: 'LGBTQ support group', type: 'went_to' }] },
    ])
  })
})

describe('LLM extractor: failures', () => {
  it.each([
    [429, 'EXTRACTION_UNAVAILABLE', true],
    [500, 'EXTRACTION_UNAVAILABLE', true],
    [502, 'EXTRACTION_UNAVAILABLE', true],
    [503, 'EXTRACTION_UNAVAILABLE', true],
    [408, 'EXTRACTION_UNAVAILABLE', true],
    [400, 'EXTRACTION_REJECTED', false],
    [401, 'EXTRACTION_REJECTED', false],
    [403, 'EXTRACTION_REJECTED', false],
    [404, 'EXTRACTION_REJECTED', false],
    [422, 'EXTRACTION_REJECTED', false],
  ])('HTTP %i → %s (transient: %s), with the status and a short excerpt', async (status, code, transient) => {
    const body = JSON.stringify({
      error: { message: `The service says no. ${'Details follow. '.repeat(60)}` },
    })
    answer = (_, response) => send(response, status, body)
    const error = await failureOf(extractorWith().extract(input()))

    expect(error).toMatchObject({ code, transient })
    expect(error.message).toContain(`HTTP ${status}`)
    expect(error.message).toContain('The service says no.')
    const excerpt = error.message.slice(error.message.indexOf('{'))
    expect(excerpt.length).toBeLessThanOrEqual(200)
  })

  it('a dropped connection is transient', async () => {
    answer = (_, response) => {
      response.socket?.destroy()
    }
    const error = await failureOf(extractorWith().extract(input()))
    expect(error).toMatchObject({ code: 'EXTRACTION_UNAVAILABLE', transient: true })
  })

  it('an unreachable service is transient', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))

    const error = await failureOf(extractorWith({ baseUrl: `http://127.0.0.1:${port}/v1` }).extract(input()))
    expect(error).toMatchObject({ code: 'EXTRACTION_UNAVAILABLE', transient: true })
    expect(error.message).toContain('ECONNREFUSED')
  })

  it('a service slower than the timeout is transient, and is not waited for', async () => {
    answer = async (_, response) => {
      await sleep(2000)
      send(response, 200, chatCompletion({ statements: [] }))
    }
    const started = Date.now()
    const error = await failureOf(extractorWith({ timeoutMs: 150 }).extract(input()))

    expect(error).toMatchObject({ code: 'EXTRACTION_UNAVAILABLE', transient: true })
    expect(error.message).toContain('no answer within 150 ms')
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it("the caller's abort signal ends the request as transient", async () => {
    answer = async (_, response) => {
      await sleep(2000)
      send(response, 200, chatCompletion({ statements: [] }))
    }
    const error = await failureOf(extractorWith().extract(input(), AbortSignal.timeout(100)))
    expect(error).toMatchObject({ code: 'EXTRACTION_UNAVAILABLE', transient: true })
    expect(error.message).toContain('cancelled')
  })

  const contentWith = (content: string): Answer => {
    const completion = chatCompletion({ statements: [] })
    return (_, response) =>
      send(response, 200, { ...completion, choices: [{ ...completion.choices[0], message: { content } }] })
  }

  it.each<[string, ExtractionInput['mode'], Answer, string]>([
    [
      'an answer that is not JSON',
      'fast',
      (_, response) => send(response, 200, '<html>'),
      'not JSON: <html>',
    ],
    ['an answer that is not a chat completion', 'fast', (_, r) => send(r, 200, { object: 'x' }), 'choices'],
    [
      'model output that is not JSON',
      'fast',
      contentWith('Sure! Caroline went to a group.'),
      'not JSON: Sure!',
    ],
    [
      'a refusal',
      'fast',
      answerWith(null, { refusal: 'I cannot help with that.' }),
      'refused: I cannot help',
    ],
    ['output cut off at the token limit', 'fast', answerWith(null, { finishReason: 'length' }), 'cut off'],
    [
      'an unknown memory type',
      'fast',
      answerWith({ statements: [{ ...caroline, category: { type: 'opinion', confidence: 1 } }] }),
      'statements.0.category.type: must be one of: fact, preference',
    ],
    [
      'relations in fast mode',
      'fast',
      answerWith({ statements: [{ ...caroline, relations: [] }] }),
      'statements.0.relations: is not a known field',
    ],
    [
      'a missing field',
      'long-range',
      answerWith({ statements: [caroline] }),
      'statements.0.relations: is required',
    ],
    [
      'a confidence above 1',
      'fast',
      answerWith({ statements: [{ ...caroline, category: { type: 'fact', confidence: 1.5 } }] }),
      'statements.0.category.confidence: must be <= 1',
    ],
    [
      'a date that is not YYYY-MM-DD',
      'fast',
      answerWith({ statements: [{ ...caroline, occurredOn: '7 May 2023' }] }),
      'statements.0.occurredOn: must match format "date"',
    ],
    [
      'a relation to an entity the statement does not name',
      'long-range',
      answerWith({
        statements: [{ ...caroline, relations: [{ from: 'Caroline', to: 'Sweden', type: 'from' }] }],
      }),
      'statements.0.relations.0.to: must name an entity of the same statement',
    ],
  ])('%s is malformed output, not worth retrying', async (_, mode, malformedAnswer, expected) => {
    answer = malformedAnswer
    const error = await failureOf(extractorWith().extract(input({ mode })))
    expect(error).toMatchObject({ code: 'EXTRACTION_MALFORMED_OUTPUT', transient: false })
    expect(error.message).toContain(expected)
  })

  it('never puts the API key into an error, even when the service echoes it', async () => {
    const echoes: Answer[] = [
      (request, response) =>
        send(response, 401, {
          error: { message: `Incorrect API key provided: ${request.authorization ?? ''}` },
        }),
      (request, response) => send(response, 502, `proxy saw authorization=${request.authorization ?? ''}`),
      (request, response) =>
        send(response, 200, chatCompletion(null, { refusal: `Not for ${request.authorization ?? ''}` })),
    ]
    for (const echo of echoes) {
      answer = echo
      const error = await failureOf(extractorWith().extract(input()))
      expect(error.message).toContain('[redacted]')
      expect(inspect(error, { depth: 5 })).not.toContain(API_KEY)
    }
  })
})

describe('LLM extractor: long documents', () => {
  const turn = (index: number) =>
    `${index % 2 === 0 ? 'Caroline' : 'Melanie'}: Turn ${index}. ${'We talked about painting and hiking. '.repeat(12)}\n`
  const longDocument = Array.from({ length: 120 }, (_, index) => turn(index)).join('')

  it('extracts parts split at turn boundaries and sums their usage', async () => {
    answer = (request, response) => {
      const part = received.indexOf(request) + 1
      const output = { statements: [{ ...caroline, content: `Statement of part ${part}.` }] }
      send(
        response,
        200,
        chatCompletion(output, { usage: { prompt_tokens: 1000 + part, completion_tokens: 10 } }),
      )
    }
    const result = await extractorWith().extract(input({ text: longDocument }))

    const parts = received.map(documentOf)
    expect(longDocument.length).toBeGreaterThan(2 * MAX_CHUNK_CHARS)
    expect(parts).toHaveLength(3)
    expect(parts.join('')).toBe(longDocument)
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS)
      expect(part).toMatch(/^(Caroline|Melanie): Turn \d+\./)
      expect(part.endsWith('\n')).toBe(true)
    }
    received.forEach((request, index) => {
      expect(messageOf(request, 'user')).toContain(`part: ${index + 1} of 3`)
    })
    expect(result.statements.map((statement) => statement.content)).toEqual([
      'Statement of part 1.',
      'Statement of part 2.',
      'Statement of part 3.',
    ])
    expect(result.usage).toEqual({ model: MODEL_VERSION, inputTokens: 3006, outputTokens: 30 })
  })

  it('splits text without line breaks at sentences', async () => {
    answer = answerWith({ statements: [] })
    const prose = 'Caroline paints landscapes every weekend. '.repeat(1000)
    await extractorWith().extract(input({ text: prose }))

    const parts = received.map(documentOf)
    expect(parts.length).toBeGreaterThan(1)
    expect(parts.join('')).toBe(prose)
    for (const part of parts) expect(part).toMatch(/^Caroline paints .*weekend\. $/s)
  })

  it('stops at the first part that fails', async () => {
    answer = (_, response) => send(response, 503, 'overloaded')
    const error = await failureOf(extractorWith().extract(input({ text: longDocument })))
    expect(error.code).toBe('EXTRACTION_UNAVAILABLE')
    expect(received).toHaveLength(1)
  })
})
