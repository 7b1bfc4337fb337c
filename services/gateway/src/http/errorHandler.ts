import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, fieldsOfIssues, invalidInput, toErrorBody } from '@memory-service/domain'
import { CORRELATION_ID_RESPONSE_HEADER } from './correlationId.js'
import { maxPathParamLength } from './limits.js'
import { missingRouteError } from './notFound.js'

/** What was wrong with a request fastify could not read, by fastify's error code (field → message). */
function unreadableRequestFields(error: FastifyError): Record<string, string> {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { 'content-type': 'must be application/json' }
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { body: 'does not match its Content-Length' }
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { body: 'exceeds the maximum request size' }
    case 'FST_ERR_BAD_URL':
      return { path: 'is not a valid URL (bad percent-encoding)' }
    default:
      return { body: error.message }
  }
}

/** Turns any error into the spec's body. 4xx raised by fastify itself (bad JSON, wrong content type, body too large) become INVALID_INPUT; anything else not an AppError is INTERNAL_ERROR. */
export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error
  const fastifyError = error as FastifyError
  if (fastifyError.validation)
    return invalidInput(fieldsOfIssues(fastifyError.validation, fastifyError.validationContext ?? 'body'))
  if (fastifyError.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new AppError(
      'URI_TOO_LONG',
      `A path parameter is longer than ${String(maxPathParamLength)} UTF-16 code units`,
      { max_length: maxPathParamLength },
    )
  }
  // An engine's 4xx (Elasticsearch refusing a query we built: its errors carry the response as `meta`) is ours, not
  // the request's, and its message names our internals.
  const status = fastifyError.statusCode
  const fromEngine = 'meta' in error
  if (!fromEngine && status !== undefined && status >= 400 && status < 500) {
    return invalidInput(unreadableRequestFields(fastifyError), 'The request could not be read')
  }
  return new AppError('INTERNAL_ERROR', error.message, {}, { cause: error })
}

export async function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  // fastify reads the body of a request no route took before its not-found handler runs (a QUERY without a
  // Content-Type, a body in a type it cannot read): what the request is refused for is its route.
  const appError =
    request.is404 && !(error instanceof AppError) ? missingRouteError(request, reply) : toAppError(error)
  return sendError(appError, error, request, reply)
}

function sendError(appError: AppError, error: Error, request: FastifyRequest, reply: FastifyReply) {
  if (appError.code === 'SERVICE_UNAVAILABLE' && typeof appError.details.retry_after_seconds === 'number') {
    void reply.header('Retry-After', appError.details.retry_after_seconds)
  }
  if (appError.httpStatus >= 500) request.log.error({ err: error }, 'request failed')
  else request.log.info({ code: appError.code }, 'request rejected')
  return reply.status(appError.httpStatus).send(toErrorBody(appError, request.id))
}

/**
 * fastify's `frameworkErrors`: what the router rejects before any route or hook runs (a URL that does not decode, a
 * path parameter over the length limit). No hook ran, so the correlation id is set here.
 */
export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.header(CORRELATION_ID_RESPONSE_HEADER, request.id)
  void sendError(toAppError(error), error, request, reply)
}

/**
 * fastify's `clientErrorHandler`: a request Node's HTTP parser rejected (not HTTP, headers over its 16 KB limit, not
 * received within its request timeout) never becomes a request, so the answer is written to the socket here, in the
 * spec's body: 400 INVALID_INPUT for all three (HTTP allows 400 for each; the catalog has no 408 or 431).
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const fields: Record<string, string> =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? { headers: 'exceed the maximum header size' }
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? { request: 'was not received in time' }
        : { request: 'is not valid HTTP/1.1' }
  const appError = invalidInput(fields, 'The request could not be read')
  const correlationId = randomUUID()
  const body = JSON.stringify(toErrorBody(appError, correlationId))
  if (socket.writable) {
    socket.write(
      [
        `HTTP/1.1 ${String(appError.httpStatus)} ${STATUS_CODES[appError.httpStatus] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${String(Buffer.byteLength(body))}`,
        `${CORRELATION_ID_RESPONSE_HEADER}: ${correlationId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    )
  }
  socket.destroy(error)
}
