export {
  API_KEY_VARIABLE,
  BASE_URL_VARIABLE,
  createMemoryClient,
  type MemoryClient,
  type MemoryClientOptions,
} from './memoryClient.js'
export {
  defaultRetryPolicy,
  isRetryableStatus,
  parseRetryAfter,
  retryDelayMs,
  type RetryPolicy,
} from './retry.js'
export * from './errors.js'
export {
  createEventStream,
  DEFAULT_STOP_DEADLINE_MS,
  type EventStream,
  type EventStreamOptions,
  type HeldEvent,
  type StopResult,
  type StreamEvent,
} from './eventStream.js'
export {
  createMemoryInstructions,
  createMemoryProfileTool,
  createMemorySearchTool,
  createMemoryStoreTool,
  formatInstructions,
  MemoryIntegrationError,
  resolveScope,
  withMemoryMessage,
  type InstructionStyle,
  type MemoryInstructions,
  type MemoryProfileInput,
  type MemoryProfileOutput,
  type MemorySearchInput,
  type MemorySearchOutput,
  type MemoryStoreInput,
  type MemoryStoreOutput,
  type MemoryToolDefinition,
  type MemoryToolOptions,
  type SystemMessage,
  type ToolSession,
} from './agents/memoryTools.js'
