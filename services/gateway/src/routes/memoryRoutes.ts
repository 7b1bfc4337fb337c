import { randomUUID } from 'node:crypto'
import { channel } from 'node:diagnostics_channel'
import type { FastifyInstance } from 'fastify'
import { principalOf } from '../http/frontDoor.js'
import { errorResponse } from '../http/openApiResponses.js'
import { checkPageDepth, pageDepthDescription } from '../http/limits.js'
import { filterJsonOf, filterOf } from './memoryFilters.js'
import { expiryFields, memoryIdParams } from './memoryRouteParts.js'
import { registerMemoryBulkRoutes } from './memoryBulkRoutes.js'
import { registerMemoryFeedbackRoutes } from './memoryFeedbackRoutes.js'
import { registerMemoryImportRoutes } from './memoryImportRoutes.js'
import { registerMemoryExportRoutes } from './memoryExportRoutes.js'
import {
  AppError,
  invalidInput,
  validateDocument,
  requirePermission,
  usageEvent,
  type Principal,
  isMemoryId,
  metadataProblem,
  publicMemoryOf,
  isValidAt,
  validityOf,
  isExpired,
} from '@memory-service/domain'
import {
  type Document,
  type DocumentBatchRequest,
  type DocumentBatchResponse,
  type IngestionJobListQuery,
  type Memory,
  type MemoryGetQuery,
  type MemoryHistory as MemoryHistoryResponse,
  type MemoryList,
  type MemoryListQuery,
  type MemoryUpdateRequest,
  type MemorySearchRequest,
  type MemorySearchResponse,
} from '@memory-service/contracts'
import { type DocumentIngestor, type MemoryEditor } from '@memory-service/commands'
import {
  type IngestionJobs,
  historyChangesOf,
  type MemoryExports,
  type MemoryHistory,
  type MemoryStore,
  type MemorySearch,
  type SearchStages,
  type StoredMemory,
} from '@memory-service/read-models'
import { type OutgoingEvent } from '@memory-service/domain'

export interface MemoryRouteDependencies {
  documents: DocumentIngestor
  /**
   * The documents of the pipeline's bulk lane not formed yet (http/bulkBacklog.ts), or null when unknown: the batch
   * route's `bulk_queued`.
   */
  bulkBacklog: () => Promise<number | null>
  jobs: IngestionJobs
  memories: {
    store: MemoryStore
    editor: MemoryEditor
    history: MemoryHistory
    exports: MemoryExports
    /** The moment requests are answered at (expiry); the system clock by default. */
    now?: () => Date
  }
  search: {
    memories: MemorySearch
    /** The instance's retrieval settings (its active configuration): defaults and whether the graph is asked. */
    settingsOf: (instanceId: string) => { mode: 'accurate' | 'fast'; limit: number; graph: boolean }
    /** Appends usage events without holding the answer back (usage is measured, not part of the result). */
    recordUsage: (events: OutgoingEvent[]) => void
  }
}

/**
 * Each search's own time (`took_ms`) and mode, for a benchmark or an evaluation running beside the gateway in the same
 * process (`npm run eval:locomo` prints their percentiles next to the client's). Publishing costs nothing without a
 * subscriber.
 */
export const searchTimings = channel('memory-service:search-timings')
export interface SearchTiming {
  mode: 'accurate' | 'fast'
  tookMs: number
  stages: SearchStages
}

function scopeOf(principal: Principal) {
  return { instanceId: principal.instance.instance_id, clientId: principal.instance.client_id }
}

/** Documents, ingestion jobs and memories, always within the key's own instance. */
export function registerMemoryRoutes(app: FastifyInstance, deps: MemoryRouteDependencies): void {
  const { documents, jobs } = deps
  const now = deps.memories.now ?? (() => new Date())

  app.post<{ Body: Document }>(
    '/v1/memories',
    {
      config: { permission: 'memories:write' },
      bodyLimit: 3 * 1024 * 1024,
      schema: {
        tags: ['memories'],
        summary: 'Queue a document for ingestion (201 means queued in Kafka, not extracted)',
        body: { $ref: 'Document.schema.json#' },
        response: {
          201: { $ref: 'IngestionAccepted.schema.json#' },
          409: errorResponse('DOCUMENT_ALREADY_INGESTED: this document_id was queued before'),
        },
      },
    },
    async (request, reply) => {
      const problem = request.body.metadata ? metadataProblem(request.body.metadata) : null
      if (problem) throw invalidInput({ metadata: problem })
      const expiry = expiryFields([['expires_at', request.body.expires_at]], now())
      if (Object.keys(expiry).length > 0) throw invalidInput(expiry)
      const [outcome] = await documents.ingest(
        scopeOf(principalOf(request)),
        [request.body],
        request.id,
        'interactive',
      )
      if (!outcome) throw new AppError('INTERNAL_ERROR', 'no ingestion outcome')
      if ('error' in outcome) throw outcome.error
      return reply.status(201).send({ ingestion_id: outcome.ingestionId, status: 'queued' })
    },
  )

  app.post<{ Body: DocumentBatchRequest }>(
    '/v1/memories/batch',
    {
      config: { permission: 'memories:write' },
      bodyLimit: 50 * 1024 * 1024,
      schema: {
        tags: ['memories'],
        summary:
          'Queue up to 100 documents; invalid ones are reported, or with fail_fast reject the whole batch',
        body: { $ref: 'DocumentBatchRequest.schema.json#' },
        response: { 200: { $ref: 'DocumentBatchResponse.schema.json#' } },
      },
    },
    async (request): Promise<DocumentBatchResponse> => {
      const acceptedAt = now()
      const checked = request.body.documents.map((raw) => {
        const result = validateDocument(raw)
        if (!('document' in result)) return result
        const expiry = expiryFields([['expires_at', result.document.expires_at]], acceptedAt)
        return Object.keys(expiry).length > 0 ? { fields: expiry } : result
      })
      const errors: DocumentBatchResponse['errors'] = []
      const valid: { index: number; document: Document }[] = []
      checked.forEach((result, index) => {
        if ('document' in result) valid.push({ index, document: result.document })
        else
          errors.push({
            index,
            code: 'INVALID_INPUT',
            message: 'Document validation failed',
            details: { fields: result.fields },
          })
      })
      if (request.body.fail_fast && errors.length > 0) {
        const fields: Record<string, string> = {}
        for (const error of errors) {
          for (const [field, message] of Object.entries(error.details.fields as Record<string, string>)) {
            fields[`documents[${error.index}].${field}`] = message
          }
        }
        throw invalidInput(fields, 'A document is invalid and fail_fast is set: nothing was queued')
      }
      // Read before the batch joins the backlog: what this batch waits behind.
      const bulkQueued = await deps.bulkBacklog().catch(() => null)
      const outcomes = await documents.ingest(
        scopeOf(principalOf(request)),
        valid.map(({ document }) => document),
        request.id,
        'bulk',
      )
      const results: DocumentBatchResponse['results'] = []
      outcomes.forEach((outcome, position) => {
        const index = valid[position]?.index ?? -1
        if ('error' in outcome) {
          errors.push({
            index,
            code: outcome.error.code as DocumentBatchResponse['errors'][number]['code'],
            message: outcome.error.message,
            details: outcome.error.details,
          })
        } else results.push({ index, ingestion_id: outcome.ingestionId, status: 'queued' })
      })
      return {
        results,
        errors: errors.sort((a, b) => a.index - b.index),
        ...(bulkQueued === null ? {} : { bulk_queued: bulkQueued }),
      }
    },
  )

  app.get<{ Params: { ingestion_id: string } }>(
    '/v1/memories/:ingestion_id/status',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary: 'Status of an ingestion job of this instance',
        params: {
          type: 'object',
          additionalProperties: false,
          required: ['ingestion_id'],
          properties: { ingestion_id: { type: 'string', maxLength: 64 } },
        },
        response: { 200: { $ref: 'IngestionStatus.schema.json#' } },
      },
    },
    async (request) => {
      const principal = principalOf(request)
      const job = /^ing_[0-9a-f]{32}$/.test(request.params.ingestion_id)
        ? await jobs.get(request.params.ingestion_id)
        : null
      // Another instance's job is answered like a missing one.
      if (job?.instance_id !== principal.instance.instance_id) {
        throw new AppError('NOT_FOUND', 'Ingestion job not found', {
          ingestion_id: request.params.ingestion_id,
        })
      }
      const { instance_id, updated_at, memory_ids, ...status } = job
      // The memories a job produced are listed once it has finished.
      return status.status === 'queued' || status.status === 'processing' ? status : { ...status, memory_ids }
    },
  )

  app.get<{ Querystring: IngestionJobListQuery & { page: number; page_size: number } }>(
    '/v1/ingestions',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary: "This instance's ingestion jobs, the most recently changed first",
        querystring: { $ref: 'IngestionJobListQuery.schema.json#' },
        response: { 200: { $ref: 'IngestionJobList.schema.json#' } },
      },
    },
    async (request) => jobs.recent(principalOf(request).instance.instance_id, request.query),
  )

  registerMemorySearchRoute(app, deps.search)
  registerMemoryResourceRoutes(app, { ...deps.memories, now })
  registerMemoryBulkRoutes(app, { ...deps.memories, now })
  registerMemoryFeedbackRoutes(app, {
    editor: deps.memories.editor,
    recordUsage: deps.search.recordUsage,
    now,
  })
  registerMemoryImportRoutes(app, { documents })
  registerMemoryExportRoutes(app, deps.memories)
}

function registerMemorySearchRoute(
  app: FastifyInstance,
  { memories, settingsOf, recordUsage }: MemoryRouteDependencies['search'],
): void {
  app.post<{ Body: MemorySearchRequest }>(
    '/v1/memories/search',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary:
          "Search memories: a user's own and those shared at its customer; without user_id the key also needs instances:read",
        description:
          'filters.created_before must be later than filters.created_after when both are given (otherwise 400 INVALID_INPUT naming filters.created_before).',
        body: { $ref: 'MemorySearchRequest.schema.json#' },
        response: { 200: { $ref: 'MemorySearchResponse.schema.json#' } },
      },
    },
    async (request): Promise<MemorySearchResponse> => {
      const started = performance.now()
      const principal = principalOf(request)
      // Searching across users is an instance-level read, not an agent's.
      if (request.body.user_id === undefined) requirePermission(principal, 'instances:read')
      const { created_after, created_before } = request.body.filters ?? {}
      if (created_after !== undefined && created_before !== undefined && created_after >= created_before) {
        throw invalidInput({ 'filters.created_before': 'must be later than filters.created_after' })
      }
      const { filters, ...asked } = request.body
      const filter = filterOf(filters)
      const instanceId = principal.instance.instance_id
      const settings = settingsOf(instanceId)
      const mode = request.body.mode ?? settings.mode
      const outcome = await memories.search(instanceId, {
        ...asked,
        filter,
        mode,
        limit: request.body.limit ?? settings.limit,
        graph: settings.graph,
      })
      const tookMs = Number((performance.now() - started).toFixed(2))
      if (searchTimings.hasSubscribers)
        searchTimings.publish({ mode, tookMs, stages: outcome.stages } satisfies SearchTiming)
      const occurredAt = new Date().toISOString()
      const dimensions = {
        mode,
        operation: 'retrieval',
        ...(request.body.user_id !== undefined ? { user_id: request.body.user_id } : {}),
        ...(request.body.customer_id !== undefined ? { customer_id: request.body.customer_id } : {}),
      }
      recordUsage(
        (
          [
            ['vector_queries', outcome.vectorQueries],
            ['graph_queries', outcome.graphQueries],
          ] as const
        )
          .filter(([, value]) => value > 0)
          .map(([metric, value]) =>
            usageEvent(
              {
                instanceId,
                metric,
                value,
                // Each search is measured once; nothing redoes it, so a random id is as stable as it needs to be.
                measuredBy: `search:${randomUUID()}`,
                occurredAt,
                latencyMs: tookMs,
                dimensions,
              },
              request.id,
            ),
          ),
      )
      return {
        results: outcome.hits.map(({ memory, score }) => ({ ...publicMemoryOf(memory), score })),
        mode,
        took_ms: tookMs,
      }
    },
  )
}

/** Single memories: read, list, update, delete, always within the key's own instance. */
function registerMemoryResourceRoutes(
  app: FastifyInstance,
  { store, editor, history, now }: MemoryRouteDependencies['memories'] & { now: () => Date },
): void {
  const notFound = (memoryId: string) =>
    new AppError('NOT_FOUND', 'Memory not found', { memory_id: memoryId })
  const ownMemory = async (instanceId: string, memoryId: string): Promise<StoredMemory> => {
    const stored = isMemoryId(memoryId) ? await store.get(memoryId) : null
    if (stored?.instance_id !== instanceId) throw notFound(memoryId)
    return stored
  }

  app.get<{ Querystring: MemoryListQuery & { page: number; page_size: number } }>(
    '/v1/memories',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary:
          'List memories of this instance, newest first, filtered by user, customer, type or ingestion job',
        description: `${pageDepthDescription}: narrow the filters to reach older memories.`,
        querystring: { $ref: 'MemoryListQuery.schema.json#' },
        response: { 200: { $ref: 'MemoryList.schema.json#' } },
      },
    },
    async (request): Promise<MemoryList> => {
      const { page, page_size, filters, ...query } = request.query
      checkPageDepth(page, page_size)
      const filter = filters === undefined ? null : filterOf(filterJsonOf(filters))
      const { items, total } = await store.list(principalOf(request).instance.instance_id, {
        ...query,
        page,
        page_size,
        filter,
      })
      return {
        items: items.map((item) => publicMemoryOf(item)),
        page,
        page_size,
        total,
        has_more: page * page_size < total,
      }
    },
  )

  app.get<{ Params: { memory_id: string }; Querystring: MemoryGetQuery }>(
    '/v1/memories/:memory_id',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary: 'One memory of this instance; with as_of, only if it was valid at that moment',
        params: memoryIdParams,
        querystring: { $ref: 'MemoryGetQuery.schema.json#' },
        response: { 200: { $ref: 'Memory.schema.json#' } },
      },
    },
    async (request): Promise<Memory> => {
      const memory = await ownMemory(principalOf(request).instance.instance_id, request.params.memory_id)
      // Gone for every reader from its expiry on; the sweep's deletion follows.
      if (isExpired(memory, now().getTime())) {
        throw new AppError('NOT_FOUND', 'Memory expired', {
          memory_id: request.params.memory_id,
          reason: 'expired',
          expired_at: memory.expires_at,
        })
      }
      const asOf = request.query.as_of
      if (asOf !== undefined && !isValidAt(validityOf(memory), asOf)) {
        throw new AppError('NOT_FOUND', 'Memory not valid at as_of', {
          memory_id: request.params.memory_id,
          as_of: asOf,
          reason: 'not_valid_at',
        })
      }
      return publicMemoryOf(memory)
    },
  )

  app.get<{ Params: { memory_id: string } }>(
    '/v1/memories/:memory_id/history',
    {
      config: { permission: 'memories:read' },
      schema: {
        tags: ['memories'],
        summary:
          'Every change of a memory, oldest first (created, updated, superseded, reinstated, deleted), with its cause and correlation id',
        params: memoryIdParams,
        response: { 200: { $ref: 'MemoryHistory.schema.json#' } },
      },
    },
    async (request): Promise<MemoryHistoryResponse> => {
      const instanceId = principalOf(request).instance.instance_id
      const memoryId = request.params.memory_id
      const entries = isMemoryId(memoryId) ? await history.of(instanceId, memoryId) : []
      if (entries.length === 0) {
        // A memory projected before histories were kept still exists: its history starts at what it is now.
        const stored = isMemoryId(memoryId) ? await store.get(memoryId) : null
        if (stored?.instance_id !== instanceId) throw notFound(memoryId)
        return { memory_id: memoryId, changes: [] }
      }
      return {
        memory_id: memoryId,
        changes: historyChangesOf(entries),
      }
    },
  )

  app.patch<{ Params: { memory_id: string }; Body: MemoryUpdateRequest }>(
    '/v1/memories/:memory_id',
    {
      config: { permission: 'memories:write' },
      schema: {
        tags: ['memories'],
        summary:
          'Update a memory (content with a merge strategy, confidence, metadata merged); answers the new state',
        params: memoryIdParams,
        body: { $ref: 'MemoryUpdateRequest.schema.json#' },
        response: { 200: { $ref: 'Memory.schema.json#' } },
      },
    },
    async (request): Promise<Memory> => {
      const instanceId = principalOf(request).instance.instance_id
      if (!isMemoryId(request.params.memory_id)) throw notFound(request.params.memory_id)
      const problem = request.body.metadata ? metadataProblem(request.body.metadata) : null
      if (problem) throw invalidInput({ metadata: problem })
      const expiry = expiryFields([['expires_at', request.body.expires_at]], now())
      if (Object.keys(expiry).length > 0) throw invalidInput(expiry)
      return publicMemoryOf(
        await editor.update(instanceId, request.params.memory_id, request.body, request.id),
      )
    },
  )

  app.delete<{ Params: { memory_id: string } }>(
    '/v1/memories/:memory_id',
    {
      config: { permission: 'memories:write' },
      schema: {
        tags: ['memories'],
        summary: 'Delete a memory permanently (vector and graph stores); its entities stay',
        params: memoryIdParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      const instanceId = principalOf(request).instance.instance_id
      if (!isMemoryId(request.params.memory_id)) throw notFound(request.params.memory_id)
      await editor.remove(instanceId, request.params.memory_id, request.id)
      return reply.status(204).send()
    },
  )
}
