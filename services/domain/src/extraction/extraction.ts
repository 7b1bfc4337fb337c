import { ModelServiceError } from '../errors/modelServiceError.js'

/**
 * The contract between the ingestion pipeline and whatever turns a document into memory statements. Two
 * implementations exist: the built-in rule-based extractor (default, no model service) and the LLM extractor over
 * an OpenAI-compatible chat API. Both return the same shape; the pipeline validates it before using it.
 */

/** Exactly the memory types of the spec. */
export const memoryTypes = ['fact', 'preference', 'episode', 'emotion', 'temporal_event'] as const
export type MemoryType = (typeof memoryTypes)[number]

/** The entity types this service recognizes (the spec names only `location`; the rest is our documented set). */
export const entityTypes = ['person', 'location', 'organization', 'date', 'event', 'object', 'other'] as const
export type EntityType = (typeof entityTypes)[number]

export type IngestionMode = 'fast' | 'long-range'

export interface ExtractionInput {
  /** Raw document text. */
  text: string
  /** One of the spec's document_type values (ai-chat-conversation, email, meeting-transcript, …). */
  documentType: string
  /** ISO 8601; relative dates ("yesterday", "last week") are resolved against it. */
  documentCreatedAt: string
  mode: IngestionMode
}

export interface RecognizedEntity {
  /** The name as it should be shown (e.g. "Caroline", "Sweden", "7 May 2023"). */
  name: string
  type: EntityType
}

/** A relation between two entities of the same statement (long-range mode only). */
export interface RecognizedRelation {
  from: string
  to: string
  /** snake_case label, e.g. went_to, works_at, related_to */
  type: string
}

export interface Categorization {
  type: MemoryType
  /** 0..1 */
  confidence: number
}

export interface ExtractedStatement {
  /** Self-contained memory text: speaker named instead of "I", relative dates resolved. */
  content: string
  /** Who said it, when the document attributes statements to speakers ("Caroline: I went…"). */
  speaker: string | null
  /** ISO date (YYYY-MM-DD) of the event the statement is about, when a date was stated or resolved. */
  occurredOn: string | null
  entities: RecognizedEntity[]
  relations: RecognizedRelation[]
  /** Set by extractors that categorize themselves (the LLM); otherwise the categorizer fills it. */
  category?: Categorization
}

export interface TokenUsage {
  model: string
  inputTokens: number
  outputTokens: number
}

export interface ExtractionResult {
  statements: ExtractedStatement[]
  /** Model tokens spent, recorded as usage events; absent for the built-in extractor. */
  usage?: TokenUsage
}

export interface Extractor {
  readonly name: string
  /**
   * @throws ExtractionError with `transient: true` for failures worth retrying (timeouts, 429, 5xx), `false` for
   * failures that will repeat (malformed model output after validation, 4xx).
   */
  extract(input: ExtractionInput, signal?: AbortSignal): Promise<ExtractionResult>
}

/** A failure of this stage's model service; `transient` says whether a retry can help. */
export class ExtractionError extends ModelServiceError {}
