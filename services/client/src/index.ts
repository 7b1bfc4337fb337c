import type { ErrorBody, Liveness, Readiness } from '@memory-service/shared'

/** Thrown when the service answers with an error body; `code` is the stable value to match on. */
export class MemoryServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorBody['code'] | 'UNEXPECTED_RESPONSE',
    readonly details: Record<string, unknown>,
    readonly correlationId: string | null,
    message: string,
  ) {
    super(message)
    this.name = 'MemoryServiceError'
  }
}

export interface MemoryClientOptions {
  baseUrl: string
  apiKey?: string
  fetch?: typeof fetch
}

/** The TypeScript client library. It grows with the API; today it speaks the health routes. */
export function createMemoryClient(options: MemoryClientOptions) {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl.replace(/\/$/, '')

  async function request<T>(path: string, accept: number[] = [200]): Promise<T> {
    const response = await doFetch(`${base}${path}`, {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    })
    const body: unknown = await response.json().catch(() => null)
    if (accept.includes(response.status)) return body as T
    const error = body as Partial<ErrorBody> | null
    throw new MemoryServiceError(
      response.status,
      error?.code ?? 'UNEXPECTED_RESPONSE',
      error?.details ?? {},
      response.headers.get('x-correlation-id'),
      error?.error ?? `HTTP ${response.status}`,
    )
  }

  return {
    liveness: () => request<Liveness>('/healthz'),
    /** Resolves with the report whether or not every engine is up (503 is a valid answer here). */
    readiness: () => request<Readiness>('/readyz', [200, 503]),
  }
}

export type MemoryClient = ReturnType<typeof createMemoryClient>

export * from './errors.js'
export {
  createEventStream,
  type EventStream,
  type EventStreamOptions,
  type StreamEvent,
} from './eventStream.js'
