import type { FastifyInstance } from 'fastify'
import type { MemoryImportQuery, MemoryImportRequest, MemoryImportResponse } from '@memory-service/contracts'
import type { DocumentIngestor } from '@memory-service/commands'
import {
  AppError,
  importedRecordOf,
  importLimits,
  invalidInput,
  memoryIdFor,
  recordsOf,
  type ImportDocument,
} from '@memory-service/domain'
import { principalOf } from '../http/frontDoor.js'
import { errorResponse } from '../http/openApiResponses.js'

const jsonLinesTypes = ['application/x-ndjson', 'application/jsonl', 'application/json-lines']

/** JSON Lines: one record per line; blank lines are skipped, a line that is not JSON is named by its record index. */
function parseJsonLines(text: string): unknown[] {
  const records: unknown[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      records.push(JSON.parse(line))
    } catch {
      throw invalidInput({ [`records.${String(records.length)}`]: 'is not a line of JSON' })
    }
  }
  return records
}

/**
 * Import (docs/api/import.md): memories someone already has, in our format or as mem0 and Zep return theirs, stored
 * as given (no extraction) through the log like every write, each under its source id so that importing it again
 * is a no-op.
 */
export function registerMemoryImportRoutes(
  app: FastifyInstance,
  deps: { documents: DocumentIngestor },
): void {
  void app.register(async (imports) => {
    imports.addContentTypeParser(jsonLinesTypes, { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseJsonLines(typeof body === 'string' ? body : body.toString('utf8')))
      } catch (error) {
        done(error as AppError, undefined)
      }
    })
    imports.post<{ Body: MemoryImportRequest; Querystring: MemoryImportQuery }>(
      '/v1/memories/import',
      {
        config: { permission: 'memories:write' },
        bodyLimit: 50 * 1024 * 1024,
        schema: {
          tags: ['memories'],
          summary:
            'Import up to 1 000 memories as given (JSON, or JSON Lines as application/x-ndjson), in our format or as mem0 or Zep return theirs; idempotent by each record’s source id',
          querystring: { $ref: 'MemoryImportQuery.schema.json#' },
          body: { $ref: 'MemoryImportRequest.schema.json#' },
          response: {
            200: { $ref: 'MemoryImportResponse.schema.json#' },
            400: errorResponse(
              'INVALID_INPUT: the body holds no records, more than 1 000, or a line that is not JSON; a record that does not fit is reported in `errors` instead',
            ),
          },
        },
      },
      async (request): Promise<MemoryImportResponse> => {
        const taken = recordsOf(request.body)
        if ('fields' in taken) throw invalidInput(taken.fields)
        if (taken.records.length === 0) throw invalidInput({ records: 'must hold at least one record' })
        if (taken.records.length > importLimits.records)
          throw invalidInput({
            records: `must hold at most ${String(importLimits.records)} records per request (${String(taken.records.length)} sent)`,
          })
        const format = request.query.format ?? 'memory-service'
        const defaults = {
          ...(request.query.user_id !== undefined ? { userId: request.query.user_id } : {}),
          ...(request.query.customer_id !== undefined ? { customerId: request.query.customer_id } : {}),
        }
        const response: MemoryImportResponse = { results: [], skipped: [], errors: [] }
        const queued: { index: number; externalId: string; document: ImportDocument }[] = []
        // A source id twice in one request is one memory: the later records answer as duplicates of the first.
        const firstOf = new Map<string, number>()
        const repeats: { index: number; externalId: string; first: string }[] = []
        taken.records.forEach((record, index) => {
          const outcome = importedRecordOf(format, record, index, defaults)
          if ('fields' in outcome)
            response.errors.push({
              index,
              code: 'INVALID_INPUT',
              message: 'Record validation failed',
              details: { fields: outcome.fields },
            })
          else if ('skipped' in outcome)
            response.skipped.push({ index, external_id: outcome.externalId, reason: outcome.skipped })
          else if (firstOf.has(outcome.document.document_id))
            repeats.push({ index, externalId: outcome.externalId, first: outcome.document.document_id })
          else {
            firstOf.set(outcome.document.document_id, queued.length)
            queued.push({ index, externalId: outcome.externalId, document: outcome.document })
          }
        })
        const principal = principalOf(request)
        const outcomes = await deps.documents.ingest(
          { instanceId: principal.instance.instance_id, clientId: principal.instance.client_id },
          queued.map(({ document }) => document),
          request.id,
          'bulk',
        )
        const ingestionOf: (string | undefined)[] = []
        outcomes.forEach((outcome, position) => {
          const { index, externalId } = queued[position] ?? { index: -1, externalId: '' }
          const imported = (ingestionId: string, status: 'queued' | 'duplicate') => {
            ingestionOf[position] = ingestionId
            response.results.push({
              index,
              external_id: externalId,
              ingestion_id: ingestionId,
              memory_id: memoryIdFor(ingestionId, 0),
              status,
            })
          }
          if (!('error' in outcome)) imported(outcome.ingestionId, 'queued')
          else if (outcome.error.code === 'DOCUMENT_ALREADY_INGESTED')
            imported(
              typeof outcome.error.details.ingestion_id === 'string'
                ? outcome.error.details.ingestion_id
                : '',
              'duplicate',
            )
          else
            response.errors.push({
              index,
              code: outcome.error.code === 'SERVICE_UNAVAILABLE' ? 'SERVICE_UNAVAILABLE' : 'INVALID_INPUT',
              message: outcome.error.message,
              details: outcome.error.details,
            })
        })
        for (const { index, externalId, first } of repeats) {
          const ingestionId = ingestionOf[firstOf.get(first) ?? -1]
          if (ingestionId)
            response.results.push({
              index,
              external_id: externalId,
              ingestion_id: ingestionId,
              memory_id: memoryIdFor(ingestionId, 0),
              status: 'duplicate',
            })
          else
            response.errors.push({
              index,
              code: 'SERVICE_UNAVAILABLE',
              message: 'The same source id earlier in this request was not imported; retry',
              details: { retry_after_seconds: 5 },
            })
        }
        for (const list of [response.results, response.skipped, response.errors])
          list.sort((a, b) => a.index - b.index)
        return response
      },
    )
  })
}
