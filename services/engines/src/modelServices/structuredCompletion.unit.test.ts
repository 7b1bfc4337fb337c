import { describe, expect, it } from 'vitest'
import { ModelServiceError } from '@memory-service/domain'
import {
  createStructuredCompletion,
  firstProblems,
  structuredOutput,
  toSnakeCase,
} from './structuredCompletion.js'

class GreetingError extends ModelServiceError {}

const codes = {
  unavailable: 'GREETING_UNAVAILABLE',
  rejected: 'GREETING_REJECTED',
  malformed: 'GREETING_MALFORMED',
}
const key = 'sk-greeting-5c1e'
const greeting = structuredOutput<{ words: string[] }>('greeting', {
  type: 'object',
  additionalProperties: false,
  required: ['words'],
  properties: { words: { type: 'array', items: { type: 'string' } } },
})

/** A completion service behind an injected fetch that answers every request with `status` and `body`. */
function serviceAnswering(status: number, body: unknown) {
  const bodies: unknown[] = []
  const fetchStub: typeof fetch = async (_url, init) => {
    bodies.push(JSON.parse(init?.body as string))
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })
  }
  const completion = createStructuredCompletion({
    baseUrl: 'https://models.example/v1',
    model: 'small-model',
    apiKey: key,
    timeoutMs: 1000,
    fetch: fetchStub,
    errorClass: GreetingError,
    codes,
  })
  return { bodies, ask: () => completion.complete({ system: 'Greet.', user: 'Anna' }, greeting, undefined) }
}

const answering = (message: Record<string, unknown>, finishReason = 'stop') => ({
  choices: [{ message, finish_reason: finishReason }],
})

async function failureOf(answer: Promise<unknown>) {
  const error = await answer.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(GreetingError)
  return error as GreetingError
}

describe('structured completion', () => {
  it('asks for the schema as a strict response format and returns the checked output with its usage', async () => {
    const service = serviceAnswering(200, {
      model: 'small-model-2025',
      ...answering({ content: '{"words":["hello","Anna"]}' }),
      usage: { prompt_tokens: 12, completion_tokens: 5 },
    })
    await expect(service.ask()).resolves.toEqual({
      output: { words: ['hello', 'Anna'] },
      usage: { model: 'small-model-2025', inputTokens: 12, outputTokens: 5 },
    })
    expect(service.bodies).toEqual([
      {
        model: 'small-model',
        temperature: 0,
        messages: [
          { role: 'system', content: 'Greet.' },
          { role: 'user', content: 'Anna' },
        ],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'greeting', strict: true, schema: greeting.schema },
        },
      },
    ])
  })

  it.each([
    [408, codes.unavailable, true],
    [429, codes.unavailable, true],
    [503, codes.unavailable, true],
    [401, codes.rejected, false],
  ])(
    'fails on HTTP %i with the code %s (transient: %s) of the error class it was given, without the key',
    async (status, code, transient) => {
      const error = await failureOf(serviceAnswering(status, { error: `bad key ${key}` }).ask())
      expect(error).toMatchObject({ name: 'GreetingError', code, transient })
      expect(error.message).toBe(`LLM API answered HTTP ${status}: {"error":"bad key [redacted]"}`)
    },
  )

  it('fails as unavailable when no answer comes within the timeout', async () => {
    const completion = createStructuredCompletion({
      baseUrl: 'https://models.example/v1',
      model: 'small-model',
      timeoutMs: 50,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
      errorClass: GreetingError,
      codes,
    })
    const error = await failureOf(completion.complete({ system: 's', user: 'u' }, greeting, undefined))
    expect(error).toMatchObject({ code: codes.unavailable, transient: true })
    expect(error.message).toBe('LLM API request failed: no answer within 50 ms')
  })

  it.each([
    ['an answer that is not JSON', 'upstream hiccup', 'LLM API answer is not JSON: upstream hiccup'],
    [
      'a refusal',
      answering({ content: null, refusal: 'I will not greet.' }),
      'model refused: I will not greet.',
    ],
    ['a cut-off', answering({ content: '{"wor' }, 'length'), 'model output was cut off at its token limit'],
    ['no content', answering({}), 'model answered without content'],
    [
      'output off the schema',
      answering({ content: '{"words":[1,2]}' }),
      'model output does not match the schema',
    ],
  ])('fails as malformed, not transient, on %s', async (_case, body, message) => {
    const error = await failureOf(serviceAnswering(200, body).ask())
    expect(error).toMatchObject({ code: codes.malformed, transient: false })
    expect(error.message).toContain(message)
  })

  it('reports at most five problems', () => {
    expect(firstProblems(['a', 'b', 'c', 'd', 'e', 'f'])).toBe('a; b; c; d; e')
  })

  it('repairs a label to snake_case', () => {
    expect(toSnakeCase('  Works At! ')).toBe('works_at')
  })
})
