import { createBuiltinExtractor, type Extractor } from '@memory-service/domain'
import { createLlmExtractor, createLlmFactDecider, type FactDecider } from '@memory-service/engines'
import type { ServiceConfig } from '@memory-service/contracts'

/** The configured extractor: the built-in one unless an LLM is configured (loadConfig checks its settings). */
export function createExtractor(config: ServiceConfig): Extractor {
  if (config.extraction.provider === 'builtin') return createBuiltinExtractor()
  const { baseUrl, model, apiKey, timeoutMs } = config.llm
  if (baseUrl === undefined || model === undefined) {
    throw new Error('EXTRACTION_PROVIDER=llm needs LLM_BASE_URL and LLM_MODEL')
  }
  return createLlmExtractor({ baseUrl, model, timeoutMs, ...(apiKey !== undefined ? { apiKey } : {}) })
}

/** With an LLM configured, the model that decides how new statements change existing memories; none otherwise. */
export function createFactDecider(config: ServiceConfig): FactDecider | undefined {
  if (config.extraction.provider === 'builtin') return undefined
  const { baseUrl, model, apiKey, timeoutMs } = config.llm
  if (baseUrl === undefined || model === undefined) return undefined
  return createLlmFactDecider({ baseUrl, model, timeoutMs, ...(apiKey !== undefined ? { apiKey } : {}) })
}
