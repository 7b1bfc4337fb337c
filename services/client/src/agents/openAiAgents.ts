import { tool, type FunctionTool, type RunContext } from '@openai/agents'
import type { MemoryInstructions, MemoryToolDefinition, ToolSession } from './memoryTools.js'

/**
 * A memory tool for the OpenAI Agents SDK (`new Agent({ tools: [toOpenAiAgentsTool(definition)] })`). The session
 * is the run context (`run(agent, input, { context: { authenticated, principalId, sessionId } })`).
 */
export function toOpenAiAgentsTool<Input, Output>(
  definition: MemoryToolDefinition<Input, Output>,
): FunctionTool<ToolSession | undefined> {
  return tool({
    name: definition.name,
    description: definition.description,
    // The input is validated by the service; the schema tells the model what to send.
    parameters: { ...definition.inputSchema, additionalProperties: true } as never,
    strict: false,
    execute: (input: unknown, runContext?: RunContext<ToolSession | undefined>) =>
      definition.execute(input as Input, runContext?.context),
  })
}

/**
 * Dynamic instructions for an Agent: the base prompt, then the compacted short-term context as its own paragraph
 * when there is one. The base prompt is always kept whole.
 */
export function toOpenAiAgentsInstructions(
  basePrompt: string,
  instructions: MemoryInstructions,
): (runContext: RunContext<ToolSession | undefined>) => Promise<string> {
  return async (runContext) => {
    const memory = await instructions.resolve(runContext.context)
    return memory ? `${basePrompt}\n\n${memory.content}` : basePrompt
  }
}
