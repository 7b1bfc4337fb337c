import { openAiCompatibleEndpoint } from './openAiCompatible.js'
import type { ChatModelOptions } from './structuredCompletion.js'
import { estimateTokens, transcriptOf, type Turn } from '@memory-service/domain'
import type { ServiceConfig } from '@memory-service/contracts'

export interface SummaryRequest {
  previousSummary: string | null
  turns: Pick<Turn, 'role' | 'content' | 'occurred_at'>[]
  maxTokens: number
}

export interface LlmSummary {
  summary: string
  model: string
  inputTokens: number
  outputTokens: number
}

/** Summarizes the older part of a conversation with a language model; throws when the model service fails. */
export type Summarizer = (request: SummaryRequest, signal?: AbortSignal) => Promise<LlmSummary>

const instructions = `You compact the older part of a conversation between a user and an assistant so that the assistant can go on without it.
Write the facts it established as a bullet list, one self-contained statement per line starting with "- ": who, what, when (absolute dates), preferences, decisions, open questions the user still expects an answer to.
Keep every name, number and date. Leave out greetings, thanks and small talk. Keep the lines of the previous summary that are still true, updated where the new turns changed them.
Answer with the bullet list only.`

/**
 * The configured OpenAI-compatible chat model as a summarizer (`EXTRACTION_PROVIDER=llm` with LLM_BASE_URL and
 * LLM_MODEL). The answer is cut to the token limit line by line, the newest lines kept.
 */
export function createLlmSummarizer(options: ChatModelOptions): Summarizer {
  const { url, headers, redact, excerpt } = openAiCompatibleEndpoint({ ...options, path: 'chat/completions' })
  const doFetch = options.fetch ?? fetch
  return async (request, signal) => {
    const timeout = AbortSignal.timeout(options.timeoutMs)
    const body = JSON.stringify({
      model: options.model,
      temperature: 0,
      max_tokens: request.maxTokens,
      messages: [
        { role: 'system', content: instructions },
        {
          role: 'user',
          content: `Previous summary:\n${request.previousSummary ?? '(none)'}\n\nTurns to compact:\n${transcriptOf(request.turns)}`,
        },
      ],
    })
    let response: Response
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
    } catch (error) {
      throw new Error(`LLM summary request failed: ${redact((error as Error).message)}`, { cause: error })
    }
    const text = await response.text()
    if (!response.ok)
      throw new Error(`LLM summary request answered ${String(response.status)}: ${excerpt(text)}`)
    const parsed = JSON.parse(text) as {
      model?: string
      choices?: { message?: { content?: string | null } }[]
      usage?: { prompt_tokens?: number; completion_tokens?: number }
    }
    const content = parsed.choices?.[0]?.message?.content?.trim()
    if (!content) throw new Error('LLM summary answer had no content')
    const lines = content
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
    while (lines.length > 1 && estimateTokens(lines.join('\n')) > request.maxTokens) lines.shift()
    return {
      summary: lines.join('\n'),
      model: parsed.model ?? options.model,
      inputTokens: parsed.usage?.prompt_tokens ?? estimateTokens(body),
      outputTokens: parsed.usage?.completion_tokens ?? estimateTokens(content),
    }
  }
}

/** Compaction writes its summaries with the configured language model, when there is one. */
export function summarizerOf(config: ServiceConfig): { summarizer?: Summarizer } {
  if (config.extraction.provider !== 'llm' || !config.llm.baseUrl || !config.llm.model) return {}
  return {
    summarizer: createLlmSummarizer({
      baseUrl: config.llm.baseUrl,
      model: config.llm.model,
      timeoutMs: config.llm.timeoutMs,
      ...(config.llm.apiKey ? { apiKey: config.llm.apiKey } : {}),
    }),
  }
}
