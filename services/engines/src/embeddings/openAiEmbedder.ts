import { openAiCompatibleEndpoint } from '../modelServices/openAiCompatible.js'
import { EmbeddingError, type Embedder } from './embeddings.js'

export interface OpenAiEmbedderOptions {
  /** Base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1. */
  baseUrl: string
  model: string
  /** Sent as a bearer token; never part of an error message. */
  apiKey?: string
  /** Length every returned vector must have. */
  dimension: number
  /**
   * Ask the server to shorten its vectors to `dimension` (the `dimensions` field of text-embedding-3 models). Off
   * by default: other models and servers reject the field.
   */
  requestDimensions?: boolean
  /** Per request. */
  timeoutMs?: number
  fetch?: typeof fetch
}

const DEFAULT_TIMEOUT_MS = 30_000

/** The parts of an OpenAI embeddings response this client reads. */
interface EmbeddingItem {
  index: number
  embedding: number[]
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The items of `data`, or a description of the first thing wrong with the answer. */
function embeddingItems(body: unknown): EmbeddingItem[] | string {
  if (!isRecord(body) || !Array.isArray(body.data)) return 'no data array'
  const items: EmbeddingItem[] = []
  for (const [position, item] of (body.data as unknown[]).entries()) {
    if (!isRecord(item)) return `data[${position}] is not an object`
    const { index, embedding } = item
    if (typeof index !== 'number' || !Number.isInteger(index))
      return `data[${position}].index is not an integer`
    if (!Array.isArray(embedding)) return `data[${position}].embedding is not an array`
    const values = embedding as unknown[]
    if (!values.every((value): value is number => typeof value === 'number' && Number.isFinite(value))) {
      return `data[${position}].embedding holds something other than finite numbers`
    }
    items.push({ index, embedding: values })
  }
  return items
}

function unitLength(vector: number[]): number[] | undefined {
  const norm = Math.hypot(...vector)
  return norm > 0 ? vector.map((value) => value / norm) : undefined
}

/** An OpenAI-compatible `/embeddings` endpoint (OpenAI, Azure OpenAI, vLLM, Ollama, LiteLLM, TEI, …). */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const fetchEmbeddings = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const { dimension } = options
  const { url, headers, redact, excerpt } = openAiCompatibleEndpoint({ ...options, path: 'embeddings' })
  const malformed = (problem: string) =>
    new EmbeddingError('EMBEDDING_MALFORMED_OUTPUT', `embeddings API answer is malformed: ${problem}`, false)

  async function post(texts: string[], callerSignal: AbortSignal | undefined) {
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout
    const body = JSON.stringify({
      model: options.model,
      input: texts,
      ...(options.requestDimensions === true && { dimensions: dimension }),
    })
    try {
      const response = await fetchEmbeddings(url, { method: 'POST', headers, body, signal })
      return { status: response.status, text: await response.text() }
    } catch (error) {
      let reason: string
      if (timeout.aborted) reason = `no answer within ${timeoutMs} ms`
      else if (callerSignal?.aborted) reason = 'cancelled'
      else if (error instanceof Error)
        reason = error.cause instanceof Error ? error.cause.message : error.message
      else reason = String(error)
      throw new EmbeddingError(
        'EMBEDDING_UNAVAILABLE',
        `embeddings API request failed: ${redact(reason)}`,
        true,
        {
          cause: error,
        },
      )
    }
  }

  async function embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    // The API rejects an empty input list.
    if (texts.length === 0) return []
    const response = await post(texts, signal)
    if (response.status < 200 || response.status > 299) {
      const message = `embeddings API answered HTTP ${response.status}: ${excerpt(response.text)}`
      // 408 is a timeout reported by the server side, as retryable as our own.
      const transient = response.status >= 500 || response.status === 429 || response.status === 408
      throw new EmbeddingError(transient ? 'EMBEDDING_UNAVAILABLE' : 'EMBEDDING_FAILED', message, transient)
    }
    const body = parseJson(response.text)
    if (body === undefined) throw malformed(`not JSON: ${excerpt(response.text)}`)
    const items = embeddingItems(body)
    if (typeof items === 'string') throw malformed(items)
    if (items.length !== texts.length) throw malformed(`${items.length} vectors for ${texts.length} texts`)

    // The API may answer out of order; `index` says which input each vector belongs to.
    const vectors = new Array<number[] | undefined>(texts.length)
    for (const { index, embedding } of items) {
      if (index < 0 || index >= texts.length || vectors[index] !== undefined) {
        throw malformed(`index ${index} is out of range or repeated`)
      }
      if (embedding.length !== dimension) {
        throw malformed(`a ${embedding.length}-dimensional vector where EMBEDDINGS_DIMENSION is ${dimension}`)
      }
      const normalized = unitLength(embedding)
      if (normalized === undefined) throw malformed(`the vector for input ${index} is all zeros`)
      vectors[index] = normalized
    }
    return vectors.filter((vector): vector is number[] => vector !== undefined)
  }

  return {
    model: `openai/${options.model}`,
    dimension,
    embed,
    // The models behind these endpoints (text-embedding-3 and the like) take a query as they take a stored text.
    embedQueries: embed,
    async close() {
      // Stateless: each call is one HTTP request.
    },
  }
}
