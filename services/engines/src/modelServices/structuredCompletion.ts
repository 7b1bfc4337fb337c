import { openAiCompatibleEndpoint } from './openAiCompatible.js'
import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv'
import { fieldOfIssue, messageOfIssue, type ModelServiceError, type TokenUsage } from '@memory-service/domain'

/** An OpenAI-compatible chat model (`EXTRACTION_PROVIDER=llm` with LLM_BASE_URL and LLM_MODEL). */
export interface ChatModelOptions {
  /** Base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1. */
  baseUrl: string
  model: string
  /** Sent as a bearer token; never part of an error message. */
  apiKey?: string
  /** Per request. */
  timeoutMs: number
  fetch?: typeof fetch
}

/** The stable codes under which a model service reports the three ways a structured completion fails. */
export interface ModelServiceErrorCodes {
  /** Transient: a timeout, the caller's abort, a network error, HTTP 408, 429 or 5xx. */
  unavailable: string
  /** Not transient: any other answer that is not 2xx. */
  rejected: string
  /** Not transient: no chat completion, a refusal, output cut off, not JSON or not matching the output schema. */
  malformed: string
}

/** What the model must answer: a JSON Schema sent as a strict `json_schema` response format, and its validator. */
export interface StructuredOutput<T> {
  name: string
  schema: SchemaObject
  validate: ValidateFunction<T>
}

/** The parts of an OpenAI chat completion read here; everything else is ignored. */
interface ChatCompletion {
  model?: string
  choices: {
    finish_reason?: string | null
    message: { content?: string | null; refusal?: string | null }
  }[]
  usage?: { prompt_tokens?: number; completion_tokens?: number }
}

const chatCompletionSchema = {
  type: 'object',
  required: ['choices'],
  properties: {
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message'],
        properties: {
          finish_reason: { type: ['string', 'null'] },
          message: {
            type: 'object',
            properties: { content: { type: ['string', 'null'] }, refusal: { type: ['string', 'null'] } },
          },
        },
      },
    },
    usage: {
      type: 'object',
      properties: {
        prompt_tokens: { type: 'integer', minimum: 0 },
        completion_tokens: { type: 'integer', minimum: 0 },
      },
    },
  },
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true })
const validateChatCompletion = ajv.compile<ChatCompletion>(chatCompletionSchema)

/** Compiles an output schema once, for every completion that asks for it. */
export function structuredOutput<T>(name: string, schema: SchemaObject): StructuredOutput<T> {
  return { name, schema, validate: ajv.compile<T>(schema) }
}

/** Enough validation messages to fix a prompt or a model choice, few enough for a job's error record. */
const MAX_REPORTED_PROBLEMS = 5

export const firstProblems = (problems: readonly string[]) =>
  problems.slice(0, MAX_REPORTED_PROBLEMS).join('; ')

const firstIssues = (issues: readonly ErrorObject[] | null | undefined, subject: string) =>
  firstProblems((issues ?? []).map((issue) => `${fieldOfIssue(issue, subject)}: ${messageOfIssue(issue)}`))

// Models drift from snake_case ("works at", "WORKS_AT"); such a label is repaired rather than failing the answer.
export const toSnakeCase = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')

/** The parsed value, or undefined when the text is not JSON (a JSON document is never `undefined`). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * Chat completions from the configured model whose answer is JSON of a given schema, checked against it. Every
 * failure is an instance of `errorClass` with one of `codes`; no message contains the API key.
 */
export function createStructuredCompletion(
  options: ChatModelOptions & { errorClass: typeof ModelServiceError; codes: ModelServiceErrorCodes },
) {
  const { errorClass: Failure, codes } = options
  const fetchCompletion = options.fetch ?? fetch
  const { url, headers, redact, excerpt } = openAiCompatibleEndpoint({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    path: 'chat/completions',
  })

  /** For an answer the caller finds wrong after it matched the schema. */
  const malformed = (message: string) => new Failure(codes.malformed, message, false)

  function unavailable(error: unknown, timeout: AbortSignal, callerSignal: AbortSignal | undefined) {
    let reason: string
    if (timeout.aborted) reason = `no answer within ${options.timeoutMs} ms`
    else if (callerSignal?.aborted) reason = 'cancelled'
    else if (error instanceof Error)
      reason = error.cause instanceof Error ? error.cause.message : error.message
    else reason = String(error)
    return new Failure(codes.unavailable, `LLM API request failed: ${redact(reason)}`, true, { cause: error })
  }

  async function requestCompletion(body: string, callerSignal: AbortSignal | undefined) {
    const timeout = AbortSignal.timeout(options.timeoutMs)
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout
    try {
      const response = await fetchCompletion(url, { method: 'POST', headers, body, signal })
      return { status: response.status, text: await response.text() }
    } catch (error) {
      throw unavailable(error, timeout, callerSignal)
    }
  }

  /** The model's answer to the system and user messages, matching `output`, and the tokens it cost. */
  async function complete<T>(
    prompt: { system: string; user: string },
    output: StructuredOutput<T>,
    signal: AbortSignal | undefined,
  ): Promise<{ output: T; usage: TokenUsage }> {
    const request = {
      model: options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: output.name, strict: true, schema: output.schema },
      },
    }
    const response = await requestCompletion(JSON.stringify(request), signal)
    if (response.status < 200 || response.status > 299) {
      const message = `LLM API answered HTTP ${response.status}: ${excerpt(response.text)}`
      // 408 is a timeout reported by the server side, as retryable as our own.
      const transient = response.status >= 500 || response.status === 429 || response.status === 408
      throw transient
        ? new Failure(codes.unavailable, message, true)
        : new Failure(codes.rejected, message, false)
    }

    const completion = parseJson(response.text)
    if (completion === undefined) throw malformed(`LLM API answer is not JSON: ${excerpt(response.text)}`)
    if (!validateChatCompletion(completion)) {
      throw malformed(
        `LLM API answer is not a chat completion: ${firstIssues(validateChatCompletion.errors, 'answer')}`,
      )
    }
    const choice = completion.choices[0]
    const refusal = choice?.message.refusal
    if (typeof refusal === 'string' && refusal !== '') throw malformed(`model refused: ${excerpt(refusal)}`)
    if (choice?.finish_reason === 'length') throw malformed('model output was cut off at its token limit')
    const content = choice?.message.content
    if (typeof content !== 'string') throw malformed('model answered without content')

    const answer = parseJson(content)
    if (answer === undefined) throw malformed(`model output is not JSON: ${excerpt(content)}`)
    if (!output.validate(answer)) {
      throw malformed(
        `model output does not match the schema: ${firstIssues(output.validate.errors, 'output')}`,
      )
    }
    return {
      output: answer,
      usage: {
        model: completion.model ?? options.model,
        inputTokens: completion.usage?.prompt_tokens ?? 0,
        outputTokens: completion.usage?.completion_tokens ?? 0,
      },
    }
  }

  return { complete, malformed }
}
