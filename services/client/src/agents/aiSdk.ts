import { Ajv } from 'ajv'
import { jsonSchema, tool, type Tool } from 'ai'
import type { MemoryInstructions, MemoryToolDefinition, SystemMessage, ToolSession } from './memoryTools.js'

/**
 * A memory tool for the Vercel AI SDK (`generateText({ tools: { [definition.name]: toAiSdkTool(definition) } })`).
 * The session comes from `experimental_context` ({ authenticated, principalId, sessionId, initiatorId }).
 */
export function toAiSdkTool<Input, Output>(
  definition: MemoryToolDefinition<Input, Output>,
): Tool<Input, Output> {
  // The SDK validates a JSON Schema only with a validator; without one a malformed call would reach the service.
  const check = new Ajv({ allErrors: true, strict: false }).compile<Input>(definition.inputSchema)
  const described = {
    description: definition.description,
    inputSchema: jsonSchema<Input>(definition.inputSchema, {
      validate: (value) =>
        check(value)
          ? { success: true, value }
          : {
              success: false,
              error: new Error(`invalid ${definition.name} input: ${JSON.stringify(check.errors)}`),
            },
    }),
    execute: (input: Input, options: { experimental_context?: unknown }) =>
      definition.execute(input, options.experimental_context as ToolSession | undefined),
  }
  // The generic Output defeats the SDK's conditional typing of `execute`; the shape is the one `tool` expects.
  return tool(described as unknown as Tool<Input, Output>)
}

/** The system prompt of a turn: the base prompt, then the memory message when there is one (never instead). */
export async function aiSdkSystemMessages(
  basePrompt: string,
  instructions: MemoryInstructions,
  session?: ToolSession,
): Promise<SystemMessage[]> {
  const memory = await instructions.resolve(session)
  return [{ role: 'system', content: basePrompt }, ...(memory ? [memory] : [])]
}
