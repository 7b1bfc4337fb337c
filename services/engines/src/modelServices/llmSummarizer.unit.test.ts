import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLlmSummarizer } from './llmSummarizer.js'

// A stand-in for an OpenAI-compatible model service: records what the summarizer sends and answers as told.
let answer: { status: number; body: unknown } = { status: 200, body: {} }
const received: { authorization: string | undefined; body: Record<string, unknown> }[] = []
const server = createServer((request: IncomingMessage, response) => {
  const parts: Buffer[] = []
  request.on('data', (part: Buffer) => parts.push(part))
  request.on('end', () => {
    received.push({
      authorization: request.headers.authorization,
      body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>,
    })
    response.writeHead(answer.status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(answer.body))
  })
})
let baseUrl = ''

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/v1`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const turns = [
  { role: 'user', content: 'My sister Clara lives in Lisbon.', occurred_at: '2024-03-10T10:00:00.000Z' },
  { role: 'assistant', content: 'Nice, do you visit her often?', occurred_at: '2024-03-10T10:00:05.000Z' },
]

describe('LLM summarizer', () => {
  it('sends the previous summary and the labelled turns, and reads the bullet list and its token usage', async () => {
    answer = {
      status: 200,
      body: {
        model: 'gpt-4o-mini-2024-07-18',
        choices: [{ message: { content: '- Clara, the user’s sister, lives in Lisbon.\n' } }],
        usage: { prompt_tokens: 120, completion_tokens: 14 },
      },
    }
    const summarize = createLlmSummarizer({
      baseUrl,
      model: 'gpt-4o-mini',
      apiKey: 'sk-secret',
      timeoutMs: 5000,
    })
    const summary = await summarize({
      previousSummary: '- The user is planning a trip.',
      turns,
      maxTokens: 300,
    })
    expect(summary).toEqual({
      summary: '- Clara, the user’s sister, lives in Lisbon.',
      model: 'gpt-4o-mini-2024-07-18',
      inputTokens: 120,
      outputTokens: 14,
    })
    const sent = received.at(-1)
    expect(sent?.authorization).toBe('Bearer sk-secret')
    expect(sent?.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0, max_tokens: 300 })
    const messages = sent?.body.messages as { role: string; content: string }[]
    expect(messages[0]?.role).toBe('system')
    expect(messages[1]?.content).toBe(
      'Previous summary:\n- The user is planning a trip.\n\nTurns to compact:\nUser: My sister Clara lives in Lisbon.\nAssistant: Nice, do you visit her often?',
    )
  })

  it('keeps the newest lines when the answer is over the limit', async () => {
    answer = {
      status: 200,
      body: { choices: [{ message: { content: `- ${'old '.repeat(40)}\n- newest fact` } }] },
    }
    const summarize = createLlmSummarizer({ baseUrl, model: 'm', timeoutMs: 5000 })
    expect((await summarize({ previousSummary: null, turns, maxTokens: 10 })).summary).toBe('- newest fact')
  })

  it('fails on an error answer or an empty one, without the API key in the message', async () => {
    const summarize = createLlmSummarizer({ baseUrl, model: 'm', apiKey: 'sk-secret', timeoutMs: 5000 })
    answer = { status: 500, body: { error: 'overloaded, key sk-secret' } }
    const failed = await summarize({ previousSummary: null, turns, maxTokens: 100 }).catch(
      (error: unknown) => error,
    )
    expect((failed as Error).message).toMatch(/answered 500/)
    expect((failed as Error).message).not.toContain('sk-secret')
    answer = { status: 200, body: { choices: [{ message: { content: '' } }] } }
    await expect(summarize({ previousSummary: null, turns, maxTokens: 100 })).rejects.toThrow(/no content/)
  })
})
