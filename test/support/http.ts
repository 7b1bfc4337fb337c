/**
 * How e2e tests talk to a gateway. The typed client library is the way to call the API: `createTestClient` builds
 * one that never retries (a test sees the first answer the service gave) and can record every response, for the
 * few facts the library does not return — the exact success status (201 against 200, 204), a response header, an
 * empty body. `refusal`, `refusalOf` and `statusOf` read what a refused call threw: the spec's status, code and details, never
 * the message text. `request` is for what the library would refuse to send: malformed bodies, unknown fields,
 * other content types, options it has no parameter for.
 */
import { createMemoryClient, MemoryServiceClientError, type MemoryClient } from '@memory-service/client'

/** One response the client received, as it came off the wire. */
export interface Exchange {
  method: string
  /** Path and query string. */
  path: string
  status: number
  headers: Headers
  /** The body as text ('' when there was none). */
  text: string
}

export interface TestClientOptions {
  baseUrl: string
  apiKey: string
  /** Headers added to every request (an x-correlation-id). */
  headers?: Record<string, string>
  /** Every response is appended here, in the order they arrived. */
  exchanges?: Exchange[]
}

/** The client library against a test gateway: no retries, optional extra headers, responses recorded. */
export function createTestClient(options: TestClientOptions): MemoryClient {
  const { exchanges, headers } = options
  const observed: typeof fetch = async (input, init) => {
    const response = await fetch(
      input,
      headers ? { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } } : init,
    )
    if (exchanges) {
      const url = new URL(input instanceof Request ? input.url : input.toString())
      exchanges.push({
        method: init?.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        status: response.status,
        headers: response.headers,
        text: await response.clone().text(),
      })
    }
    return response
  }
  return createMemoryClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: observed,
    retry: { maxAttempts: 1 },
  })
}

/** What the service said when it refused a call: the HTTP status and the spec's error code and details. */
export interface Refusal {
  status: number
  code: string
  details: Record<string, unknown>
}

/** What a refused call threw, read as a Refusal; anything but an error of the client library is thrown again. */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof MemoryServiceClientError) {
    return { status: error.status, code: error.code, details: error.details }
  }
  throw error
}

/** The status of an error the client library threw (0 when the request never reached the service). */
export function statusOf(error: unknown): number {
  return refusalOf(error).status
}

/** Awaits a call that the service must refuse; fails when it succeeds or fails in another way. */
export async function refusal(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call
  } catch (error) {
    return refusalOf(error)
  }
  throw new Error('the service accepted a call it was expected to refuse')
}

export interface RawRequest {
  apiKey?: string
  /** A value sent as JSON (application/json). */
  json?: unknown
  /** A body sent as it is, with `contentType`. */
  body?: string
  /** Default: application/json. */
  contentType?: string
  headers?: Record<string, string>
}

export interface RawResponse<T> {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON; null when it was empty or not JSON. */
  body: T | null
}

/** One HTTP request with nothing of the client library's: for requests the library would refuse to send. */
export async function request<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: RawRequest = {},
): Promise<RawResponse<T>> {
  const body = options.json === undefined ? options.body : JSON.stringify(options.json)
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
      ...(body === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  let parsed: T | null = null
  try {
    parsed = text ? (JSON.parse(text) as T) : null
  } catch {
    // Not JSON: the status and the text say what happened.
  }
  return { status: response.status, headers: response.headers, text, body: parsed }
}
