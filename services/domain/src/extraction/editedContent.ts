import { categorize } from './categorize.js'
import { recognizeEntities } from './entityRecognition.js'
import { type MemoryState } from '../memories/memories.js'

/** What an edited memory's content says: its entities, relations, type and confidence. */
export type ContentAnalysis = Pick<MemoryState, 'entities' | 'relations' | 'type' | 'confidence'>
import { resolveEntities } from './entityResolution.js'

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
