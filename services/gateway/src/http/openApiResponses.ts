import type { RouteOptions } from 'fastify'
import { CORRELATION_ID_RESPONSE_HEADER } from './correlationId.js'

/** A response header as the OpenAPI document states it (@fastify/swagger turns `headers` into response headers). */
interface HeaderDoc {
  type: 'string' | 'integer'
  description: string
}

type ResponseDoc = Record<string, unknown> & { headers?: Record<string, HeaderDoc> }

const correlationIdHeader: Record<string, HeaderDoc> = {
  [CORRELATION_ID_RESPONSE_HEADER]: {
    type: 'string',
    description:
      "This request's id in the service's logs and in the Kafka messages it causes: the caller's own X-Correlation-Id when it is 8 to 128 characters of A-Z a-z 0-9 . _ : -, otherwise a new UUID.",
  },
}

const rateLimitHeaders: Record<string, HeaderDoc> = {
  'X-RateLimit-Limit': {
    type: 'integer',
    description: "Requests per minute the API key may make (its instance's rate limit).",
  },
  'X-RateLimit-Remaining': {
    type: 'integer',
    description: 'Requests the key may still make right now (what is left of its burst).',
  },
  'X-RateLimit-Reset': {
    type: 'integer',
    description: "Unix time in seconds at which the key's burst is whole again.",
  },
}

const allowHeader: Record<string, HeaderDoc> = {
  Allow: { type: 'string', description: 'The methods the path has, e.g. `GET, HEAD, PATCH, DELETE`.' },
}

const retryAfterHeader: Record<string, HeaderDoc> = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again.' },
}

const errorBody = { $ref: 'ErrorBody.schema.json#' }

/** An error response of the spec's body `{error, code, details}`; the description names the codes. */
export function errorResponse(description: string): ResponseDoc {
  return { ...errorBody, description }
}

/** What the router answers for any path, before a route (and its front door) runs. */
function routerErrors(hasPathParams: boolean): Record<string, ResponseDoc> {
  return {
    405: {
      ...errorResponse(
        'METHOD_NOT_ALLOWED: the path asked with a method it does not have (`details.allowed`, like Allow, lists those it has)',
      ),
      headers: allowHeader,
    },
    ...(hasPathParams
      ? {
          414: errorResponse(
            'URI_TOO_LONG: a path parameter is longer than `details.max_length` (400) UTF-16 code units; identifiers are at most 200 characters',
          ),
        }
      : {}),
  }
}

/** Every protected route can answer with these; a route adds its own (409s) in its schema. */
function protectedRouteErrors(): Record<string, ResponseDoc> {
  return {
    400: errorResponse('INVALID_INPUT: `details.fields` names each bad field (body, query or path)'),
    401: errorResponse(
      'UNAUTHORIZED (no, malformed or unknown API key) or CREDENTIAL_INVALID (rotated or revoked key); without X-RateLimit-* headers, since no key is known',
    ),
    403: errorResponse('FORBIDDEN: the key lacks the permission'),
    404: errorResponse('INSTANCE_NOT_FOUND and other missing resources'),
    429: errorResponse('RATE_LIMITED: wait Retry-After seconds'),
    500: errorResponse('INTERNAL_ERROR: `details.correlation_id` finds the logged error'),
    503: errorResponse(
      'SERVICE_UNAVAILABLE: a dependency is down; `details.reason` says which, Retry-After when it is known',
    ),
  }
}

/** Answered before the rate limit is taken, so without X-RateLimit-* headers. */
const answeredBeforeRateLimit = new Set(['401', '405', '414'])

/**
 * Completes a route's documented responses (an `onRoute` hook, so it sees every route): every response has
 * X-Correlation-Id; every path can be asked with a method it does not have (405) and one with parameters can be too
 * long (414); a protected route (one with a permission) can also answer every front-door and server error. The
 * X-RateLimit-* headers are on every answer of a protected route past the front door's key check (not 401, 405, 414),
 * Retry-After on its 429 and 503.
 */
export function documentResponses(route: RouteOptions): void {
  const schema = route.schema
  if (!schema || schema.hide === true) return
  const isProtected = route.config?.permission !== undefined
  const declared = (schema.response ?? {}) as Record<string, ResponseDoc>
  const responses: Record<string, ResponseDoc> = {
    ...routerErrors(route.url.includes(':')),
    ...(isProtected ? protectedRouteErrors() : {}),
    ...declared,
  }
  schema.response = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      // A copy: routes share response schemas (a version answers 200 and 201).
      {
        ...response,
        headers: {
          ...correlationIdHeader,
          ...(isProtected && !answeredBeforeRateLimit.has(status) ? rateLimitHeaders : {}),
          ...(isProtected && (status === '429' || status === '503') ? retryAfterHeader : {}),
          ...response.headers,
        },
      },
    ]),
  )
}
