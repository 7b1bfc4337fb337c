import type { MemorySearchResponse } from '@memory-service/contracts'
import { createMemoryClient, type MemoryClient } from '../memoryClient.js'

/** What a framework knows about the session a tool runs in (adapters read it from the framework's context). */
export interface ToolSession {
  /** Whether the channel authenticated the person the agent acts for. */
  authenticated: boolean
  /** The authenticated principal's id: the default user on an authenticated channel. */
  principalId?: string
  /** The session id: the default conversation. */
  sessionId?: string
  /** Who started the session (a bot, a scheduler, another agent). Never used as the user. */
  initiatorId?: string
}

export interface MemoryToolOptions {
  /** Default: a client from MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY. */
  client?: MemoryClient
  /** Default: the session's authenticated principal; required on unauthenticated channels. */
  userId?: string
  /** Required when `businessToBusiness` is set. */
  customerId?: string
  /** Default: the session id. */
  conversationId?: string
  /** The instance serves businesses: every memory belongs to a customer, so `customerId` is required. */
  businessToBusiness?: boolean
  /** Where failures are reported (the search tool and the resolver carry on without memory). */
  logger?: { warn: (message: string, details?: Record<string, unknown>) => void }
}

/** Framework-neutral: usable as the default export of a tool file named after `name`, or through an adapter. */
export interface MemoryToolDefinition<Input, Output> {
  name: string
  description: string
  /** JSON Schema of the input the model sends. */
  inputSchema: Record<string, unknown>
  execute(input: Input, session?: ToolSession): Promise<Output>
}

/** A memory operation the agent asked for could not be done; thrown so that the model sees the outage. */
export class MemoryIntegrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'MemoryIntegrationError'
  }
}

const consoleLogger = {
  warn: (message: string, details?: Record<string, unknown>) =>
    console.warn(`[memory-service] ${message}`, details ?? {}),
}

/**
 * A read tool's answer: what was read, or `{ available: false }` after a logged warning, so that the model learns
 * memory is unavailable and the agent carries on without it.
 */
async function readOrUnavailable<T extends object>(
  logger: NonNullable<MemoryToolOptions['logger']>,
  warning: string,
  read: () => Promise<T>,
): Promise<({ available: true } & T) | { available: false }> {
  try {
    return { available: true, ...(await read()) }
  } catch (error) {
    logger.warn(warning, {
      error: (error as Error).message,
      code: (error as { code?: string }).code,
    })
    return { available: false }
  }
}

interface Scope {
  userId: string
  customerId?: string
  conversationId?: string
}

function checkOptions(options: MemoryToolOptions): void {
  if (options.businessToBusiness && !options.customerId) {
    throw new MemoryIntegrationError('customerId is required on a business-to-business instance')
  }
}

/**
 * Whose memory a call touches: the configured user, else the authenticated principal of the session. On an
 * unauthenticated channel the user must be configured; the session initiator is never taken instead.
 */
export function resolveScope(options: MemoryToolOptions, session: ToolSession | undefined): Scope {
  const userId = options.userId ?? (session?.authenticated ? session.principalId : undefined)
  if (!userId) {
    throw new MemoryIntegrationError(
      'userId is required: the channel did not authenticate a user, and the session initiator is never used as one',
    )
  }
  const conversationId = options.conversationId ?? session?.sessionId
  return {
    userId,
    ...(options.customerId ? { customerId: options.customerId } : {}),
    ...(conversationId ? { conversationId } : {}),
  }
}

export interface MemorySearchInput {
  query: string
  maxResults?: number
}

export type MemorySearchOutput =
  | {
      available: true
      memories: Pick<
        MemorySearchResponse['results'][number],
        'id' | 'type' | 'content' | 'score' | 'created_at'
      >[]
    }
  | { available: false }

/** memory_search: the model asks for what is known about the user; on any failure it learns memory is unavailable. */
export function createMemorySearchTool(
  options: MemoryToolOptions & { mode?: 'accurate' | 'fast' } = {},
): MemoryToolDefinition<MemorySearchInput, MemorySearchOutput> {
  checkOptions(options)
  const client = options.client ?? createMemoryClient()
  const logger = options.logger ?? consoleLogger
  return {
    name: 'memory_search',
    description:
      'Search long-term memory about the user (facts, preferences, past events) by meaning. Use it before answering anything that depends on what the user said in earlier conversations.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['query'],
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: 2000,
          description: 'What to look for, as a question.',
        },
        maxResults: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          description: 'At most this many memories (5).',
        },
      },
    },
    execute: (input, session) =>
      readOrUnavailable(
        logger,
        'memory search unavailable; the agent carries on without memory',
        async () => {
          const scope = resolveScope(options, session)
          const found = await client.memories.search({
            query: input.query,
            user_id: scope.userId,
            ...(scope.customerId ? { customer_id: scope.customerId } : {}),
            limit: input.maxResults ?? 5,
            mode: options.mode ?? 'accurate',
          })
          return {
            memories: found.results.map(({ id, type, content, score, created_at }) => ({
              id,
              type,
              content,
              score,
              created_at,
            })),
          }
        },
      ),
  }
}

export type MemoryProfileInput = Record<string, never>

export type MemoryProfileOutput =
  | {
      available: true
      /** Per person the user's memories tell of (the user first): each attribute's current value and since when. */
      people: {
        subject: string
        facts: { attribute: string; value: string; since: string; statement: string }[]
      }[]
    }
  | { available: false }

/**
 * memory_profile: what holds now about the user — where they live, whom they work for, their pets… — as the
 * profile read model keeps it; on any failure the model learns it is unavailable.
 */
export function createMemoryProfileTool(
  options: MemoryToolOptions = {},
): MemoryToolDefinition<MemoryProfileInput, MemoryProfileOutput> {
  checkOptions(options)
  const client = options.client ?? createMemoryClient()
  const logger = options.logger ?? consoleLogger
  return {
    name: 'memory_profile',
    description:
      "The user's profile from long-term memory: each changing fact's current value (where they live, where they work, their partner, pets, diet, phone…) and since when. Use it for what holds now; use memory_search for events and details.",
    inputSchema: { type: 'object', additionalProperties: false, properties: {} },
    execute: (_input, session) =>
      readOrUnavailable(logger, 'memory profile unavailable; the agent carries on without it', async () => {
        const scope = resolveScope(options, session)
        const profile = await client.users.profile(scope.userId, {
          ...(scope.customerId ? { customer_id: scope.customerId } : {}),
        })
        return {
          people: profile.subjects.map(({ subject, attributes }) => ({
            subject,
            facts: attributes.map(({ attribute, value, since, content }) => ({
              attribute,
              value,
              since,
              statement: content,
            })),
          })),
        }
      }),
  }
}

export interface MemoryStoreInput {
  content: string
  metadata?: Record<string, unknown>
}

export interface MemoryStoreOutput {
  stored: true
  ingestion_id: string
}

/** memory_store: the model writes something worth remembering; a failure is raised so the model sees it. */
export function createMemoryStoreTool(
  options: MemoryToolOptions = {},
): MemoryToolDefinition<MemoryStoreInput, MemoryStoreOutput> {
  checkOptions(options)
  const client = options.client ?? createMemoryClient()
  return {
    name: 'memory_store',
    description:
      'Store a fact, preference or event about the user in long-term memory, as one self-contained statement.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['content'],
      properties: {
        content: { type: 'string', minLength: 1, maxLength: 20000, description: 'What to remember.' },
        metadata: { type: 'object', description: 'Key-value pairs kept with the memory.' },
      },
    },
    async execute(input, session) {
      const scope = resolveScope(options, session)
      try {
        const accepted = await client.memories.ingest({
          document: input.content,
          document_type: 'note',
          mode: 'fast',
          user_id: scope.userId,
          ...(scope.customerId ? { customer_id: scope.customerId } : {}),
          metadata: {
            ...input.metadata,
            source: 'memory_store_tool',
            ...(scope.conversationId ? { conversation_id: scope.conversationId } : {}),
          },
        })
        return { stored: true, ingestion_id: accepted.ingestion_id }
      } catch (error) {
        throw new MemoryIntegrationError(`memory store failed: ${(error as Error).message}`, { cause: error })
      }
    },
  }
}

export type InstructionStyle = 'narrative' | 'structured' | 'bullet_points'

export interface SystemMessage {
  role: 'system'
  content: string
}

/** The summary's lines as statements ("- Clara is a nurse." → "Clara is a nurse."). */
const statementsOf = (summary: string) =>
  summary
    .split('\n')
    .map((line) => line.replace(/^\s*[-*]\s*/, '').trim())
    .filter(Boolean)

export function formatInstructions(summary: string, style: InstructionStyle): string {
  const statements = statementsOf(summary)
  switch (style) {
    case 'narrative':
      return `Earlier in this conversation (compacted): ${statements.join(' ')}`
    case 'structured':
      return [
        '## Conversation memory',
        '',
        '### Earlier in this conversation',
        ...statements.map((s) => `- ${s}`),
      ].join('\n')
    case 'bullet_points':
      return ['Earlier in this conversation:', ...statements.map((s) => `- ${s}`)].join('\n')
  }
}

export interface MemoryInstructions {
  name: 'memory_instructions'
  /**
   * Each turn: the compacted short-term context of the conversation as one system message to add after the base
   * prompt (never instead of it); null when there is none yet, or — with onError 'fallback' — when it could not be
   * fetched.
   */
  resolve(session?: ToolSession): Promise<SystemMessage | null>
}

/** The per-turn resolver of short-term context. */
export function createMemoryInstructions(
  options: MemoryToolOptions & { style?: InstructionStyle; onError?: 'fallback' | 'throw' } = {},
): MemoryInstructions {
  checkOptions(options)
  const client = options.client ?? createMemoryClient()
  const logger = options.logger ?? consoleLogger
  return {
    name: 'memory_instructions',
    async resolve(session) {
      try {
        const scope = resolveScope(options, session)
        if (!scope.conversationId) return null
        const context = await client.conversations.context(scope.conversationId, {
          user_id: scope.userId,
          ...(scope.customerId ? { customer_id: scope.customerId } : {}),
        })
        if (!context.summary?.text) return null
        return {
          role: 'system',
          content: formatInstructions(context.summary.text, options.style ?? 'narrative'),
        }
      } catch (error) {
        if (options.onError === 'throw') throw error
        logger.warn('short-term context unavailable; the turn goes on without it', {
          error: (error as Error).message,
        })
        return null
      }
    },
  }
}

/** The messages of a turn with the memory message added right after the leading system prompt, which stays. */
export function withMemoryMessage<M extends { role: string }>(
  messages: M[],
  memory: SystemMessage | null,
): (M | SystemMessage)[] {
  if (!memory) return messages
  const leadingSystem = messages.findIndex((message) => message.role !== 'system')
  const at = leadingSystem === -1 ? messages.length : leadingSystem
  return [...messages.slice(0, at), memory, ...messages.slice(at)]
}
