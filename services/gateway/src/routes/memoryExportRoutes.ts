import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { MemoryExport, MemoryExportDownloadQuery, MemoryExportRequest } from '@memory-service/contracts'
import { AppError, isMemoryId, requirePermission } from '@memory-service/domain'
import type { MemoryExportRecord, MemoryExports, MemoryStore } from '@memory-service/read-models'
import { principalOf } from '../http/frontDoor.js'
import { errorResponse } from '../http/openApiResponses.js'
import { filterOf } from './memoryFilters.js'

const exportParams = {
  type: 'object',
  additionalProperties: false,
  required: ['export_id'],
  properties: { export_id: { type: 'string', maxLength: 64 } },
} as const

const exportNotFound = errorResponse('NOT_FOUND: no export with this id in the key’s instance')

function answerOf(record: MemoryExportRecord): MemoryExport {
  return {
    export_id: record.export_id,
    format: record.format,
    status: 'ready',
    ...(record.user_id !== undefined ? { user_id: record.user_id } : {}),
    ...(record.customer_id !== undefined ? { customer_id: record.customer_id } : {}),
    ...(record.filters !== undefined ? { filters: record.filters as MemoryExport['filters'] } : {}),
    include_history: record.include_history,
    as_of: record.as_of,
    created_at: record.created_at,
    matched: record.matched,
    download: `/v1/memories/exports/${record.export_id}/download`,
  }
}

/**
 * Export (docs/api/export.md): an export names the memories it takes (scope and filter) and the moment it was taken;
 * its JSON Lines are read from the memories as they are downloaded, in id order, so a cut download resumes after
 * the last line received. The lines import back as they are (format memory-service).
 */
export function registerMemoryExportRoutes(
  app: FastifyInstance,
  deps: { store: MemoryStore; exports: MemoryExports; now?: () => Date },
): void {
  const now = deps.now ?? (() => new Date())

  async function ownExport(instanceId: string, exportId: string): Promise<MemoryExportRecord> {
    const record = /^exp_[0-9a-f]{24}$/.test(exportId) ? await deps.exports.get(instanceId, exportId) : null
    if (!record) throw new AppError('NOT_FOUND', 'Export not found', { export_id: exportId })
    return record
  }

  app.post<{ Body: MemoryExportRequest }>(
    '/v1/memories/exports',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary:
          'Create an export of the memories of a user, a customer or a filter (without user_id the key also needs instances:read); download it as JSON Lines',
        body: { $ref: 'MemoryExportRequest.schema.json#' },
        response: {
          201: { $ref: 'MemoryExport.schema.json#' },
          400: errorResponse('INVALID_INPUT: a filter that does not parse, named by its key'),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request)
      const body = request.body
      // Across users, as a search without user_id is: the key must read the whole instance.
      if (body.user_id === undefined) requirePermission(principal, 'instances:read')
      const filter = filterOf(body.filters)
      const instanceId = principal.instance.instance_id
      const takenAt = now().toISOString()
      const { total } = await deps.store.matching(
        instanceId,
        {
          ...(body.user_id !== undefined ? { user_id: body.user_id } : {}),
          ...(body.customer_id !== undefined ? { customer_id: body.customer_id } : {}),
          filter,
        },
        0,
      )
      const record: MemoryExportRecord = {
        export_id: `exp_${randomBytes(12).toString('hex')}`,
        instance_id: instanceId,
        ...(body.user_id !== undefined ? { user_id: body.user_id } : {}),
        ...(body.customer_id !== undefined ? { customer_id: body.customer_id } : {}),
        ...(body.filters !== undefined ? { filters: body.filters } : {}),
        include_history: body.include_history ?? true,
        format: body.format ?? 'jsonl',
        as_of: takenAt,
        created_at: takenAt,
        matched: total,
      }
      await deps.exports.save(record)
      return reply.status(201).send(answerOf(record))
    },
  )

  app.get<{ Params: { export_id: string } }>(
    '/v1/memories/exports/:export_id',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary: 'One export: what it takes, when it was taken, how many memories matched then',
        params: exportParams,
        response: { 200: { $ref: 'MemoryExport.schema.json#' }, 404: exportNotFound },
      },
    },
    async (request) =>
      answerOf(await ownExport(principalOf(request).instance.instance_id, request.params.export_id)),
  )

  app.get<{ Params: { export_id: string }; Querystring: MemoryExportDownloadQuery }>(
    '/v1/memories/exports/:export_id/download',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary:
          'The export in its format, in id order (each memory with its entities, validity, metadata and, unless left out, history): JSON Lines streamed, resume with after=<the last line’s id>; Parquet files of up to 10 000 memories, the next after=X-Next-After',
        params: exportParams,
        querystring: { $ref: 'MemoryExportDownloadQuery.schema.json#' },
        response: {
          200: {
            description:
              'jsonl: the lines; parquet: one file, and X-Next-After when more memories follow. Content-Disposition names the file.',
            headers: {
              'X-Next-After': {
                description:
                  'parquet only, when the export holds more memories than this file: the after of the next file',
                schema: { type: 'string' },
              },
            },
            content: {
              'application/x-ndjson': { schema: { type: 'string' } },
              'application/vnd.apache.parquet': { schema: { type: 'string', format: 'binary' } },
            },
          },
          404: exportNotFound,
        },
      },
    },
    async (request, reply) => {
      const record = await ownExport(principalOf(request).instance.instance_id, request.params.export_id)
      if (record.format === 'parquet') {
        // A Parquet file is whole or nothing (its footer comes last): a file per 10 000 memories, the next named.
        const { file, nextAfter } = await deps.exports.parquetFile(
          record,
          filterOf(record.filters),
          request.query.after,
        )
        if (nextAfter) reply.header('x-next-after', nextAfter)
        // Named after the memory it follows when that is a memory id: `after` is the caller's text, not a file name.
        const after = request.query.after
        const part = after !== undefined && isMemoryId(after) ? `-after-${after}` : ''
        return reply
          .header('content-type', 'application/vnd.apache.parquet')
          .header('content-disposition', `attachment; filename="memories-${record.export_id}${part}.parquet"`)
          .send(Buffer.from(file))
      }
      const lines = deps.exports.lines(record, filterOf(record.filters), request.query.after)
      // The first page is read before the answer starts: an engine down now is an error body, not an empty file.
      const first = await lines.next()
      async function* all(): AsyncGenerator<string> {
        if (first.done !== true) yield first.value
        yield* lines
      }
      return reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="memories-${record.export_id}.jsonl"`)
        .send(Readable.from(all()))
    },
  )
}
