import {
  categorize,
  createBuiltinExtractor,
  createLlmExtractor,
  recognizeEntities,
  type ContentAnalysis,
  type Extractor,
  type MemoryState,
  type ServiceConfig,
} from '@memory-service/shared'
import { resolveEntities } from './entityResolution.js'

/** The configured extractor: the built-in one unless an LLM is configured (loadConfig checks its settings). */
export function createExtractor(config: ServiceConfig): Extractor {
  if (config.extraction.provider === 'builtin') return createBuiltinExtractor()
  const { baseUrl, model, apiKey, timeoutMs } = config.llm
  if (baseUrl === undefined || model === undefined) {
    throw new Error('EXTRACTION_PROVIDER=llm needs LLM_BASE_URL and LLM_MODEL')
  }
  return createLlmExtractor({ baseUrl, model, timeoutMs, ...(apiKey !== undefined ? { apiKey } : {}) })
}

/**
 * What an edited memory's new content mentions and what kind of memory it now is: the built-in recognition and
 * categorization, with name-level entity resolution (the same ids the pipeline derives for those names).
 */
export function analyzeEditedContent(content: string, memory: MemoryState): ContentAnalysis {
  const statement = {
    content,
    speaker: memory.speaker,
    occurredOn: memory.occurred_on,
    entities: recognizeEntities(content, {
      speaker: memory.speaker,
      knownPeople: memory.speaker ? [memory.speaker] : [],
    }),
    relations: [],
  }
  const [resolved] = resolveEntities(memory.instance_id, 'fast', [statement], [])
  const category = categorize(statement)
  return {
    entities: resolved?.entities ?? [],
    relations: [],
    type: category.type,
    confidence: category.confidence,
  }
}
