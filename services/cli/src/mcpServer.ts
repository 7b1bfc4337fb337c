/**
 * `memory-service mcp`: a Model Context Protocol server on stdio exposing memory search, memory store and context
 * fetch to any MCP host, through the client library (MEMORY_SERVICE_URL, MEMORY_SERVICE_API_KEY).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'
import {
  createMemoryClient,
  createMemoryProfileTool,
  createMemorySearchTool,
  createMemoryStoreTool,
  MemoryServiceClientError,
  type MemoryClient,
} from '@memory-service/client'
import { Command, InvalidArgumentError, Option } from 'commander'
import { example, parseAlone } from './commandLine.js'

export interface McpOptions {
  userId: string
  customerId?: string
}

interface McpFlags {
  user: string
  customer?: string
}

function nonEmpty(text: string): string {
  if (text === '') throw new InvalidArgumentError('Expected an id, not an empty string.')
  return text
}

/**
 * The user is required: a stdio host authenticates nobody to us, and the process that started the server (the
 * session initiator) is never taken as the user.
 */
function describeMcp(command: Command): Command {
  return command
    .summary('a Model Context Protocol server on stdio: memory_search, memory_store, context_fetch')
    .description(
      'A Model Context Protocol server on stdio: memory_search, memory_store, context_fetch. It reaches the Memory Service through the client library: MEMORY_SERVICE_URL, MEMORY_SERVICE_API_KEY.',
    )
    .addOption(
      new Option(
        '--user <id>',
        'the user whose memory it serves (required: a stdio host authenticates nobody)',
      )
        .env('MEMORY_SERVICE_USER_ID')
        .argParser(nonEmpty)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--customer <id>', 'the customer of that user').env('MEMORY_SERVICE_CUSTOMER_ID'))
    .addHelpText('after', example('MEMORY_SERVICE_API_KEY=msk_… memory-service mcp --user user_42'))
}

function mcpOptionsOf({ user, customer }: McpFlags): McpOptions {
  return { userId: user, ...(customer ? { customerId: customer } : {}) }
}

/** Throws a CommanderError for arguments the command line would refuse. */
export function parseMcpArguments(args: readonly string[]): McpOptions {
  return mcpOptionsOf(parseAlone(describeMcp(new Command('mcp')), args).opts<McpFlags>())
}

export function addMcpCommand(program: Command): void {
  describeMcp(program.command('mcp')).action((options: McpFlags) => serve(mcpOptionsOf(options)))
}

const asText = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] })

export function createMcpServer(options: McpOptions, client: MemoryClient = createMemoryClient()): McpServer {
  const scope = {
    client,
    userId: options.userId,
    ...(options.customerId ? { customerId: options.customerId } : {}),
  }
  // stdout is the MCP transport: the cause of a failed search (a bad key, the service down) goes to stderr, whole.
  const logger = {
    warn: (message: string, details?: Record<string, unknown>) =>
      console.error(JSON.stringify({ level: 'warn', msg: message, ...details })),
  }
  const search = createMemorySearchTool({ ...scope, logger })
  const store = createMemoryStoreTool(scope)
  const profile = createMemoryProfileTool({ ...scope, logger })
  const server = new McpServer({ name: 'memory-service', version: '0.1.0' })

  server.registerTool(
    search.name,
    {
      description: search.description,
      inputSchema: {
        query: z.string().min(1).max(2000).describe('What to look for, as a question.'),
        maxResults: z.number().int().min(1).max(50).optional().describe('At most this many memories (5).'),
      },
    },
    async ({ query, maxResults }) =>
      asText(await search.execute({ query, ...(maxResults !== undefined ? { maxResults } : {}) })),
  )

  server.registerTool(profile.name, { description: profile.description, inputSchema: {} }, async () =>
    asText(await profile.execute({})),
  )

  server.registerTool(
    store.name,
    {
      description: store.description,
      inputSchema: {
        content: z.string().min(1).max(20000).describe('What to remember.'),
        metadata: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('Key-value pairs kept with the memory.'),
      },
    },
    async ({ content, metadata }) => {
      try {
        return asText(await store.execute({ content, ...(metadata ? { metadata } : {}) }))
      } catch (error) {
        // The host shows the model that the write failed.
        return { ...asText({ stored: false, error: (error as Error).message }), isError: true }
      }
    },
  )

  server.registerTool(
    'context_fetch',
    {
      description:
        'The context of a conversation for the next turn: its compacted summary, the recent turns and the relevant long-term memories, within a token budget.',
      inputSchema: {
        conversation_id: z.string().min(1).max(200),
        query: z.string().min(1).max(2000).optional(),
        max_tokens: z.number().int().min(64).max(32768).optional(),
      },
    },
    async ({ conversation_id, query, max_tokens }) => {
      try {
        return asText(
          await client.conversations.context(conversation_id, {
            user_id: options.userId,
            ...(options.customerId ? { customer_id: options.customerId } : {}),
            ...(query ? { query } : {}),
            ...(max_tokens ? { max_tokens } : {}),
          }),
        )
      } catch (error) {
        const code = error instanceof MemoryServiceClientError ? error.code : 'UNAVAILABLE'
        return { ...asText({ error: (error as Error).message, code }), isError: true }
      }
    },
  )
  return server
}

export async function runMcpServer(args: string[]): Promise<void> {
  await serve(parseMcpArguments(args))
}

async function serve(options: McpOptions): Promise<void> {
  await createMcpServer(options).connect(new StdioServerTransport())
}
