import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, fieldsOfIssues, invalidInput, toErrorBody } from '@memory-service/domain'

/** Turns any error into the spec's body. 4xx raised by fastify itself (bad JSON, wrong content type, body too large) become INVALID_INPUT. */
export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error
  const fastifyError = error as FastifyError
  if (fastifyError.validation)
    return invalidInput(fieldsOfIssues(fastifyError.validation, fastifyError.validationContext ?? 'body'))
  const status = fastifyError.statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    const fields: Record<string, string> = {}
    if (
      fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
      fastifyError.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'
    ) {
      fields['content-type'] = 'must be application/json'
    } else if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      fields.body = 'exceeds the maximum request size'
    } else {
      fields.body = fastifyError.message
    }
    return invalidInput(fields, 'The request could not be read')
  }
  return new AppError('INTERNAL_ERROR', error.message, {}, { cause: error })
}

export async function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error)
  if (appError.code === 'SERVICE_UNAVAILABLE' && typeof appError.details.retry_after_seconds === 'number') {
    void reply.header('Retry-After', appError.details.retry_after_seconds)
  }
  if (appError.httpStatus >= 500) request.log.error({ err: error }, 'request failed')
  else request.log.info({ code: appError.code }, 'request rejected')
  return reply.status(appError.httpStatus).send(toErrorBody(appError, request.id))
}
