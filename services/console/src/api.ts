/**
 * The console's only way out: the public REST API of the origin that served it, authenticated with the pasted key.
 * Errors come back as ApiError with the spec's `code`, which the screens match on (never on the message).
 */
import type { CurrentKey, ErrorBody } from '@memory-service/contracts'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message)
  }
}

export type Query = Record<string, string | number | boolean | undefined>

export interface Api {
  readonly key: CurrentKey
  get<T>(path: string, query?: Query): Promise<T>
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, contentType?: string): Promise<T>
  /** A binary answer (an export) as a Blob, with the file name the server gave. */
  download(path: string, query?: Query): Promise<{ blob: Blob; fileName: string; headers: Headers }>
  can(permission: CurrentKey['permissions'][number]): boolean
}

const urlOf = (path: string, query: Query = {}) => {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.set(name, String(value))
  const text = search.toString()
  return text ? `${path}?${text}` : path
}

async function failureOf(response: Response): Promise<ApiError> {
  const text = await response.text()
  try {
    const body = JSON.parse(text) as ErrorBody
    return new ApiError(response.status, body.code, body.error, body.details)
  } catch {
    return new ApiError(
      response.status,
      'HTTP_' + String(response.status),
      text.slice(0, 200) || response.statusText,
      {},
    )
  }
}

async function call(
  key: string,
  method: string,
  path: string,
  body?: unknown,
  contentType?: string,
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` }
  let payload: string | undefined
  if (body !== undefined) {
    headers['content-type'] = contentType ?? 'application/json'
    payload = typeof body === 'string' ? body : JSON.stringify(body)
  }
  const response = await fetch(path, { method, headers, body: payload ?? null, cache: 'no-store' })
  if (!response.ok) throw await failureOf(response)
  return response
}

/** Checks the key against the API and answers a client bound to it. */
export async function signIn(key: string): Promise<Api> {
  const current = (await (await call(key, 'GET', '/v1/keys/current')).json()) as CurrentKey
  return {
    key: current,
    async get<T>(path: string, query?: Query) {
      return (await (await call(key, 'GET', urlOf(path, query))).json()) as T
    },
    async send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, contentType?: string) {
      const response = await call(key, method, path, body, contentType)
      return (response.status === 204 ? undefined : await response.json()) as T
    },
    async download(path, query) {
      const response = await call(key, 'GET', urlOf(path, query))
      const disposition = response.headers.get('content-disposition') ?? ''
      const fileName = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? 'export'
      return { blob: await response.blob(), fileName, headers: response.headers }
    },
    can: (permission) => current.permissions.includes(permission),
  }
}
