import type { FastifyInstance, FastifyRequest } from 'fastify'
import type {
  MemoryBulkDeleteRequest,
  MemoryBulkResponse,
  MemoryBulkUpdateRequest,
} from '@memory-service/contracts'
import {
  createMemoryBulkEditor,
  summaryOf,
  type BulkItemResult,
  type MemoryEditor,
} from '@memory-service/commands'
import { AppError, invalidInput, metadataProblem, requirePermission } from '@memory-service/domain'
import type { MemoryHistory, MemoryStore } from '@memory-service/read-models'
import { principalOf } from '../http/frontDoor.js'
import { errorResponse } from '../http/openApiResponses.js'
import { filterOf } from './memoryFilters.js'
import { expiryFields } from './memoryRouteParts.js'

/** The most memories one bulk request changes, by ids or by filter. */
export const bulkLimit = 1000

type ByFilter = Pick<
  MemoryBulkDeleteRequest,
  'filters' | 'user_id' | 'customer_id' | 'dry_run' | 'confirm_count'
>

const answer = (dryRun: boolean, matched: number, results: BulkItemResult[]): MemoryBulkResponse => ({
  dry_run: dryRun,
  matched,
  results,
  summary: summaryOf(results),
})

/**
 * Bulk update and delete (docs/api/bulk-edits.md): up to 1 000 memories named by id, or the memories a filter
 * matches, counted first by a dry run and changed only when the caller confirms that count.
 */
export function registerMemoryBulkRoutes(
  app: FastifyInstance,
  deps: { store: MemoryStore; editor: MemoryEditor; history: MemoryHistory; now: () => Date },
): void {
  const bulk = createMemoryBulkEditor(deps)

  /**
   * The memories a filter names, once its count is confirmed; null for a dry run (answered with the count alone).
   * Checks the body's combination first: exactly one of ids and filters, and with filters a dry run or a count.
   */
  async function matchedBy(
    request: FastifyRequest,
    body: ByFilter,
    named: string[] | undefined,
    idsField: 'memory_ids' | 'updates',
  ): Promise<{ ids: string[]; total: number } | null> {
    if (named !== undefined) {
      for (const field of ['filters', 'dry_run', 'confirm_count', 'user_id', 'customer_id'] as const) {
        if (body[field] !== undefined)
          throw invalidInput({ [field]: `goes with filters, not with ${idsField}` })
      }
      return { ids: named, total: named.length }
    }
    if (body.filters === undefined) throw invalidInput({ [idsField]: `${idsField} or filters is required` })
    const principal = principalOf(request)
    // Across users, as a search without user_id is: the key must read the whole instance.
    if (body.user_id === undefined) requirePermission(principal, 'instances:read')
    const filter = filterOf(body.filters)
    if (body.dry_run !== true && body.confirm_count === undefined) {
      throw invalidInput({
        confirm_count: 'is required with filters: send dry_run first and confirm its count',
      })
    }
    const matched = await deps.store.matching(
      principal.instance.instance_id,
      {
        ...(body.user_id !== undefined ? { user_id: body.user_id } : {}),
        ...(body.customer_id !== undefined ? { customer_id: body.customer_id } : {}),
        filter,
      },
      bulkLimit,
    )
    if (body.dry_run === true) return { ids: [], total: matched.total }
    if (matched.total > bulkLimit) {
      throw invalidInput({
        filters: `matches ${String(matched.total)} memories; at most ${String(bulkLimit)} per request`,
      })
    }
    if (matched.total !== body.confirm_count) {
      throw new AppError(
        'BULK_COUNT_MISMATCH',
        'The filter matches another number of memories than confirmed',
        {
          matched: matched.total,
          confirm_count: body.confirm_count,
        },
      )
    }
    return matched
  }

  const conflict = {
    409: errorResponse(
      'BULK_COUNT_MISMATCH: by filter, confirm_count is not the number of memories the filter matches now (`details.matched`)',
    ),
  }

  app.post<{ Body: MemoryBulkDeleteRequest }>(
    '/v1/memories/bulk-delete',
    {
      config: { permission: 'memories:write' },
      schema: {
        tags: ['memories'],
        summary:
          'Delete up to 1 000 memories by id, or those a filter matches (dry run first, then confirm its count); per-memory results',
        body: { $ref: 'MemoryBulkDeleteRequest.schema.json#' },
        response: { 200: { $ref: 'MemoryBulkResponse.schema.json#' }, ...conflict },
      },
    },
    async (request): Promise<MemoryBulkResponse> => {
      const instanceId = principalOf(request).instance.instance_id
      const matched = await matchedBy(request, request.body, request.body.memory_ids, 'memory_ids')
      if (request.body.dry_run === true) return answer(true, matched?.total ?? 0, [])
      const ids = matched?.ids ?? []
      return answer(false, ids.length, await bulk.remove(instanceId, ids, request.id))
    },
  )

  app.post<{ Body: MemoryBulkUpdateRequest }>(
    '/v1/memories/bulk-update',
    {
      config: { permission: 'memories:write' },
      schema: {
        tags: ['memories'],
        summary:
          'Update up to 1 000 memories by id (content replaced, metadata merged), or set confidence or metadata on those a filter matches (dry run, then confirm its count); per-memory results',
        body: { $ref: 'MemoryBulkUpdateRequest.schema.json#' },
        response: { 200: { $ref: 'MemoryBulkResponse.schema.json#' }, ...conflict },
      },
    },
    async (request): Promise<MemoryBulkResponse> => {
      const instanceId = principalOf(request).instance.instance_id
      const { updates, set } = request.body
      if (updates !== undefined && set !== undefined)
        throw invalidInput({ set: 'goes with filters, not with updates' })
      if (
        updates === undefined &&
        request.body.filters !== undefined &&
        set === undefined &&
        !request.body.dry_run
      ) {
        throw invalidInput({ set: 'is required with filters: what every matched memory gets' })
      }
      const problems = Object.fromEntries(
        [
          ...(updates ?? []).map(
            (update, index) => [`updates.${String(index)}.metadata`, update.metadata] as const,
          ),
          ['set.metadata', set?.metadata] as const,
        ].flatMap(([field, metadata]) => {
          const problem = metadata ? metadataProblem(metadata) : null
          return problem ? [[field, problem]] : []
        }),
      )
      const expiry = expiryFields(
        [
          ...(updates ?? []).map(
            (update, index) => [`updates.${String(index)}.expires_at`, update.expires_at] as const,
          ),
          ['set.expires_at', set?.expires_at] as const,
        ],
        deps.now(),
      )
      if (Object.keys({ ...problems, ...expiry }).length > 0) throw invalidInput({ ...problems, ...expiry })
      const ids = updates?.map((update) => update.memory_id)
      if (ids && new Set(ids).size !== ids.length)
        throw invalidInput({ updates: 'names a memory more than once' })
      const matched = await matchedBy(request, request.body, ids, 'updates')
      if (request.body.dry_run === true) return answer(true, matched?.total ?? 0, [])
      const changes = updates ?? (matched?.ids ?? []).map((memory_id) => ({ memory_id, ...set }))
      return answer(false, changes.length, await bulk.update(instanceId, changes, request.id))
    },
  )
}
