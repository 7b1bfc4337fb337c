/**
 * The agent-framework integration on the real stack: the memory tools run by the real Vercel AI SDK (a scripted
 * language model decides the tool calls; the SDK validates and executes them) and the real OpenAI Agents SDK tool
 * wrapper; the per-turn resolver; every option, including the refusal to fall back to the session initiator; and the
 * MCP server driven by the official MCP client over stdio.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { RunContext } from '@openai/agents'
import { generateText, stepCountIs } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMemoryClient,
  createMemoryInstructions,
  createMemorySearchTool,
  createMemoryStoreTool,
  MemoryIntegrationError,
  withMemoryMessage,
  type MemoryClient,
  type ToolSession,
} from '@memory-service/client'
import { aiSdkSystemMessages, toAiSdkTool } from '@memory-service/client/ai-sdk'
import { toOpenAiAgentsInstructions, toOpenAiAgentsTool } from '@memory-service/client/openai-agents'
import type { CreatedInstance, TranscriptRequest } from '@memory-service/contracts'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { completedJob } from '../support/ingestion.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let instance: CreatedInstance
let client: MemoryClient
/** A client of a service that is not there. */
const unreachable = createMemoryClient({
  baseUrl: 'http://127.0.0.1:9',
  apiKey: 'msk_x',
  retry: { maxAttempts: 1 },
})
const root = join(dirname(fileURLToPath(import.meta.url)), '../..')

const user = uniqueName('agent-user')
const sessionId = uniqueName('agent-session')
const session: ToolSession = {
  authenticated: true,
  principalId: user,
  sessionId,
  initiatorId: 'scheduler-bot',
}
const warnings: string[] = []
const logger = { warn: (message: string) => void warnings.push(message) }

/** A language model that asks for the given tool calls, one step each, and then answers. */
function scriptedModel(calls: { toolName: string; input: unknown }[]) {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  }
  return new MockLanguageModelV3({
    doGenerate: [
      ...calls.map((call, index) => ({
        content: [
          {
            type: 'tool-call' as const,
            toolCallId: `call-${String(index)}`,
            toolName: call.toolName,
            input: JSON.stringify(call.input),
          },
        ],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      })),
      {
        content: [{ type: 'text' as const, text: 'done' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      },
    ],
  })
}

async function completed(ingestionId: string): Promise<string[]> {
  const job = await completedJob(client, ingestionId)
  return job.memory_ids ?? []
}

beforeAll(async () => {
  harness = await startGatewayWithInstance('agent-integration', { withWorkers: true })
  instance = harness.instance
  client = createMemoryClient({ baseUrl: harness.gateway.addresses.http ?? '', apiKey: instance.api_key.key })
})

afterAll(async () => {
  await harness.close()
})

describe('memory tools in the Vercel AI SDK', () => {
  it('the model stores a memory, then finds it; user and conversation come from the session', async () => {
    const store = toAiSdkTool(createMemoryStoreTool({ client }))
    const stored = await generateText({
      model: scriptedModel([
        {
          toolName: 'memory_store',
          input: {
            content: 'I am allergic to peanuts and carry an epinephrine pen.',
            metadata: { topic: 'health' },
          },
        },
      ]),
      tools: { memory_store: store },
      experimental_context: session,
      stopWhen: stepCountIs(3),
      prompt: 'Remember my allergy.',
    })
    const result = stored.steps.flatMap((step) => step.toolResults)[0]?.output as { ingestion_id: string }
    expect(result).toMatchObject({ stored: true, ingestion_id: expect.stringMatching(/^ing_/) })
    const [memoryId] = await completed(result.ingestion_id)
    const memory = await client.memories.get(memoryId ?? '')
    expect(memory.scope.user_id).toBe(user)
    expect(memory.metadata).toMatchObject({
      topic: 'health',
      conversation_id: sessionId,
      source: 'memory_store_tool',
    })

    const search = toAiSdkTool(createMemorySearchTool({ client, mode: 'fast' }))
    // Search is near real time (the index refreshes every second); the job said the memory is readable by id.
    const output = await eventually(async () => {
      const found = await generateText({
        model: scriptedModel([
          { toolName: 'memory_search', input: { query: 'what is the user allergic to', maxResults: 3 } },
        ]),
        tools: { memory_search: search },
        experimental_context: session,
        stopWhen: stepCountIs(3),
        prompt: 'What am I allergic to?',
      })
      const result = found.steps.flatMap((step) => step.toolResults)[0]?.output as {
        available: boolean
        memories: { id: string; content: string }[]
      }
      return result.memories.some((hit) => hit.id === memoryId) ? result : undefined
    })
    expect(output.available).toBe(true)
    expect(output.memories.length).toBeLessThanOrEqual(3)
    expect(output.memories.map((hit) => hit.id)).toContain(memoryId)
  })

  it('the SDK refuses input that does not match the tool schema before anything runs', async () => {
    const search = toAiSdkTool(createMemorySearchTool({ client }))
    const refused = await generateText({
      model: scriptedModel([{ toolName: 'memory_search', input: { maxResults: 3 } }]),
      tools: { memory_search: search },
      experimental_context: session,
      stopWhen: stepCountIs(3),
      prompt: 'anything',
    })
    const parts = refused.steps.flatMap((step) => step.content)
    expect(parts.some((part) => part.type === 'tool-error')).toBe(true)
  })

  it('a store outage is an error the model sees; a search outage answers available: false and logs', async () => {
    const store = toAiSdkTool(createMemoryStoreTool({ client: unreachable }))
    const failed = await generateText({
      model: scriptedModel([{ toolName: 'memory_store', input: { content: 'something' } }]),
      tools: { memory_store: store },
      experimental_context: session,
      stopWhen: stepCountIs(3),
      prompt: 'remember',
    })
    const error = failed.steps.flatMap((step) => step.content).find((part) => part.type === 'tool-error')
    expect(error && 'error' in error ? error.error : undefined).toBeInstanceOf(MemoryIntegrationError)

    warnings.length = 0
    const search = createMemorySearchTool({ client: unreachable, logger })
    expect(await search.execute({ query: 'anything' }, session)).toEqual({ available: false })
    expect(warnings).toEqual(['memory search unavailable; the agent carries on without memory'])
  })
})

describe('options', () => {
  it('on an unauthenticated channel the user must be given: the session initiator is never used', async () => {
    const anonymous: ToolSession = { authenticated: false, sessionId, initiatorId: 'scheduler-bot' }
    await expect(createMemoryStoreTool({ client }).execute({ content: 'x' }, anonymous)).rejects.toThrow(
      /userId is required/,
    )
    expect(await createMemorySearchTool({ client, logger }).execute({ query: 'x' }, anonymous)).toEqual({
      available: false,
    })
    expect(await createMemoryInstructions({ client, logger }).resolve(anonymous)).toBeNull()
    expect((await client.memories.list({ user_id: 'scheduler-bot' })).total).toBe(0)
    // An explicit user works on the same channel.
    const explicit = await createMemoryStoreTool({ client, userId: user }).execute(
      { content: 'I live in Porto.' },
      anonymous,
    )
    expect(explicit.stored).toBe(true)
  })

  it('a business-to-business instance needs a customer; the customer scopes what is stored', async () => {
    expect(() => createMemoryStoreTool({ client, businessToBusiness: true })).toThrow(
      /customerId is required/,
    )
    expect(() => createMemorySearchTool({ client, businessToBusiness: true })).toThrow(MemoryIntegrationError)
    const stored = await createMemoryStoreTool({
      client,
      businessToBusiness: true,
      customerId: 'acme',
    }).execute({ content: 'Acme renews its contract every March.' }, session)
    const [memoryId] = await completed(stored.ingestion_id)
    expect((await client.memories.get(memoryId ?? '')).scope).toMatchObject({
      user_id: user,
      customer_id: 'acme',
    })
  })
})

describe('the per-turn resolver', () => {
  const messages = [
    { role: 'user' as const, content: 'My brother Tom moved to Oslo last year.' },
    { role: 'assistant' as const, content: 'How does he like Oslo?' },
    { role: 'user' as const, content: 'He loves it and works as a carpenter there.' },
    { role: 'assistant' as const, content: 'Carpentry in Oslo sounds great.' },
    { role: 'user' as const, content: 'Thanks, I will visit him in June.' },
  ] satisfies TranscriptRequest['messages']

  beforeAll(async () => {
    await client.conversations.ingestTranscript(sessionId, { user_id: user, messages })
    await eventually(async () => {
      const context = await client.conversations.context(sessionId, { user_id: user })
      return context.recent_turns.length === 5 ? true : undefined
    })
    await client.conversations.compact(sessionId, { user_id: user, keep_recent: 1 })
  })

  it('adds one system message with the compacted context, in each style, after the base prompt', async () => {
    const narrative = await createMemoryInstructions({ client }).resolve(session)
    expect(narrative?.role).toBe('system')
    expect(narrative?.content).toMatch(/^Earlier in this conversation \(compacted\): .*Oslo/)
    const bullets = await createMemoryInstructions({ client, style: 'bullet_points' }).resolve(session)
    expect(bullets?.content.split('\n')[0]).toBe('Earlier in this conversation:')
    expect(
      bullets?.content
        .split('\n')
        .slice(1)
        .every((line) => line.startsWith('- ')),
    ).toBe(true)
    const structured = await createMemoryInstructions({ client, style: 'structured' }).resolve(session)
    expect(structured?.content.startsWith('## Conversation memory\n')).toBe(true)

    const base = { role: 'system' as const, content: 'You are a helpful travel agent.' }
    const turn = withMemoryMessage(
      [base, { role: 'user' as const, content: 'Plan my June trip.' }],
      narrative,
    )
    expect(turn.map((message) => message.role)).toEqual(['system', 'system', 'user'])
    expect(turn[0]).toEqual(base)
    expect(await aiSdkSystemMessages(base.content, createMemoryInstructions({ client }), session)).toEqual([
      { role: 'system', content: base.content },
      narrative,
    ])
  })

  it('returns null without context, and on failure unless told to throw', async () => {
    const fresh = { ...session, sessionId: uniqueName('agent-fresh') }
    expect(await createMemoryInstructions({ client }).resolve(fresh)).toBeNull()
    expect(await createMemoryInstructions({ client: unreachable, logger }).resolve(session)).toBeNull()
    await expect(
      createMemoryInstructions({ client: unreachable, onError: 'throw' }).resolve(session),
    ).rejects.toThrow()
    // The conversation defaults to the session; an explicit one wins.
    const explicit = await createMemoryInstructions({ client, conversationId: sessionId }).resolve({
      authenticated: true,
      principalId: user,
      sessionId: 'another-session',
    })
    expect(explicit?.content).toMatch(/Oslo/)
  })
})

describe('the OpenAI Agents SDK adapter', () => {
  it('runs the search tool through the SDK’s FunctionTool with the run context as session', async () => {
    const search = toOpenAiAgentsTool(createMemorySearchTool({ client, mode: 'fast' }))
    expect(search).toMatchObject({ type: 'function', name: 'memory_search', strict: false })
    const output = await search.invoke(
      new RunContext<ToolSession | undefined>(session),
      JSON.stringify({ query: 'Oslo' }),
    )
    expect(output).toMatchObject({ available: true })
  })

  it('keeps the base prompt and appends the compacted context', async () => {
    const instructions = toOpenAiAgentsInstructions(
      'You are a helpful travel agent.',
      createMemoryInstructions({ client }),
    )
    const text = await instructions(new RunContext<ToolSession | undefined>(session))
    expect(text.startsWith('You are a helpful travel agent.\n\nEarlier in this conversation')).toBe(true)
    const without = await instructions(
      new RunContext<ToolSession | undefined>({ ...session, sessionId: 'none-yet' }),
    )
    expect(without).toBe('You are a helpful travel agent.')
  })
})

describe('the MCP server (stdio)', () => {
  const launch = (args: string[], apiKey = instance.api_key.key) =>
    new StdioClientTransport({
      command: join(root, 'services/cli/bin/memory-service'),
      args: ['mcp', ...args],
      env: {
        ...(process.env as Record<string, string>),
        MEMORY_SERVICE_URL: harness.gateway.addresses.http ?? '',
        MEMORY_SERVICE_API_KEY: apiKey,
        MEMORY_SERVICE_USER_ID: '',
      },
      stderr: 'pipe',
    })

  it('lists its tools and answers them for the configured user', async () => {
    const mcp = new McpClient({ name: 'memory-service-e2e', version: '1.0.0' })
    await mcp.connect(launch(['--user', user]))
    try {
      const { tools } = await mcp.listTools()
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'context_fetch',
        'memory_profile',
        'memory_search',
        'memory_store',
      ])
      const profile = await mcp.callTool({ name: 'memory_profile', arguments: {} })
      expect(JSON.parse((profile.content as { text: string }[])[0]?.text ?? '{}')).toMatchObject({
        available: true,
        people: expect.any(Array),
      })
      const found = await mcp.callTool({ name: 'memory_search', arguments: { query: 'peanut allergy' } })
      const text = (found.content as { type: string; text: string }[])[0]?.text ?? ''
      expect(JSON.parse(text)).toMatchObject({ available: true })
      expect(text).toMatch(/peanuts/)
      const context = await mcp.callTool({ name: 'context_fetch', arguments: { conversation_id: sessionId } })
      expect(JSON.parse((context.content as { text: string }[])[0]?.text ?? '{}')).toMatchObject({
        conversation_id: sessionId,
        summary: { text: expect.stringMatching(/Oslo/) },
      })
      const foreign = await mcp.callTool({
        name: 'context_fetch',
        arguments: { conversation_id: 'not\u0001valid' },
      })
      expect(foreign.isError).toBe(true)
    } finally {
      await mcp.close()
    }
  })

  it('answers available: false to a search with a bad key, and says why on stderr', async () => {
    const mcp = new McpClient({ name: 'memory-service-e2e', version: '1.0.0' })
    const transport = launch(['--user', user], 'ms_live_not-a-key')
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    await mcp.connect(transport)
    try {
      const found = await mcp.callTool({ name: 'memory_search', arguments: { query: 'peanut allergy' } })
      const text = (found.content as { type: string; text: string }[])[0]?.text ?? ''
      expect(JSON.parse(text)).toEqual({ available: false })
      await eventually(async () => (stderr.includes('memory search unavailable') ? true : undefined))
      const warning = stderr.split('\n').find((line) => line.includes('memory search unavailable')) ?? '{}'
      expect(JSON.parse(warning)).toMatchObject({ level: 'warn', code: 'UNAUTHORIZED' })
    } finally {
      await mcp.close()
    }
  })

  it('refuses to start without a user', async () => {
    const mcp = new McpClient({ name: 'memory-service-e2e', version: '1.0.0' })
    await expect(mcp.connect(launch([]))).rejects.toThrow()
  })
})
