import type {
  UserErasureReceipt,
  UserProfile,
  UserProfileQuery,
  DocumentBatchRequest,
  AnalyticsLatencyQuery,
  AnalyticsLatencyResponse,
  AnalyticsMetricsQuery,
  AnalyticsMetricsResponse,
  AnalyticsSummaryQuery,
  AnalyticsSummaryResponse,
  AnalyticsTokensQuery,
  AnalyticsTokensResponse,
  Compaction,
  CompactionRequest,
  ConfigHistory,
  ConfigReviewRequest,
  ConfigVersion,
  ConfigVersionList,
  ConfigVersionsQuery,
  ConversationContext,
  ConversationContextQuery,
  ConversationEvent,
  CreatedInstance,
  CreateInstanceRequest,
  CurrentConfig,
  Document,
  DocumentBatchResponse,
  EventBatchResponse,
  IngestionAccepted,
  IngestionStatus,
  Instance,
  InstanceList,
  Liveness,
  MemoryArchitectureConfig,
  Memory,
  MemoryGetQuery,
  MemoryHistory,
  MemoryList,
  MemoryBulkDeleteRequest,
  MemoryFeedbackRequest,
  MemoryExport,
  MemoryExportDownloadQuery,
  MemoryExportRequest,
  MemoryImportQuery,
  MemoryImportRecord,
  MemoryImportResponse,
  MemoryBulkResponse,
  MemoryBulkUpdateRequest,
  MemoryFilter,
  MemoryListQuery,
  MemorySearchRequest,
  MemorySearchResponse,
  MemoryUpdateRequest,
  PageQuery,
  Readiness,
  TranscriptAccepted,
  TranscriptRequest,
  CreatedWebhook,
  Webhook,
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookUpdateRequest,
} from '@memory-service/contracts'
import { errorForStatus, MemoryServiceClientError } from './errors.js'
import {
  defaultRetryPolicy,
  isRetryableStatus,
  parseRetryAfter,
  retryDelayMs,
  type RetryPolicy,
} from './retry.js'

/** The environment variable the API key is read from when none is given. */
export const API_KEY_VARIABLE = 'MEMORY_SERVICE_API_KEY'
/** The environment variable the service address is read from when none is given. */
export const BASE_URL_VARIABLE = 'MEMORY_SERVICE_URL'

export interface MemoryClientOptions {
  /** Default: MEMORY_SERVICE_URL, else http://127.0.0.1:8080. */
  baseUrl?: string
  /** Default: MEMORY_SERVICE_API_KEY. */
  apiKey?: string
  retry?: Partial<RetryPolicy>
  /** Replaces the global fetch (a proxy, a test's fault injection). */
  fetch?: typeof fetch
  /** Waits between attempts (tests make time pass faster). */
  sleep?: (ms: number) => Promise<void>
  /** Called before each retry, with what failed and how long the library will wait. */
  onRetry?: (info: { attempt: number; status: number | null; delayMs: number; path: string }) => void
  /**
   * How long one attempt may take, answer included (default 30 000 ms). An attempt that runs out fails like a lost
   * connection (`TIMEOUT`): retried when repeating the request is safe.
   */
  timeoutMs?: number
  /** Cancels every request of this client, waits between retries included (`ABORTED`, never retried). */
  signal?: AbortSignal
}

type Query = Record<string, string | number | boolean | string[] | undefined>

interface RequestOptions {
  query?: Query
  body?: unknown
  /** Raw text body with its content type (a YAML configuration). */
  text?: { body: string; contentType: string }
  /** Whether repeating the request after a connection failure is safe. */
  idempotent?: boolean
  accept?: number[]
  /** The answer's text as it came (JSON Lines, say), not parsed. */
  raw?: boolean
  /** The answer's bytes and headers (a Parquet file), not read as text. */
  bytes?: boolean
}

/** A binary answer: its bytes and the headers that say what follows (a Parquet export's next file). */
export interface BinaryAnswer {
  bytes: Uint8Array
  headers: Headers
}

const encodeQuery = (query: Query | undefined): string => {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) params.append(key, item)
    else params.append(key, String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

const segment = (value: string) => encodeURIComponent(value)

/**
 * The TypeScript client library: a typed method for every public route (types generated from `schemas/`), the
 * spec's retry policy and error mapping (401/403 AuthenticationError, 404 NotFoundError, 429 RateLimitError with
 * `retryAfterSeconds`, 503 ServiceUnavailableError, 400 InvalidInputError, 409 ConflictError), and the API key from
 * MEMORY_SERVICE_API_KEY by default. No other runtime is needed.
 */
export function createMemoryClient(options: MemoryClientOptions = {}) {
  const doFetch = options.fetch ?? fetch
  const base = (options.baseUrl ?? process.env[BASE_URL_VARIABLE] ?? 'http://127.0.0.1:8080').replace(
    /\/$/,
    '',
  )
  const apiKey = options.apiKey ?? process.env[API_KEY_VARIABLE]
  const policy = { ...defaultRetryPolicy, ...options.retry }
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const timeoutMs = options.timeoutMs ?? 30_000
  const aborted = (method: string, path: string) =>
    new MemoryServiceClientError(`${method} ${path}: aborted`, 'ABORTED')
  /** Waits between attempts, unless the client's signal cancels first. */
  const pause = (ms: number, method: string, path: string): Promise<void> => {
    const signal = options.signal
    if (!signal) return sleep(ms)
    if (signal.aborted) return Promise.reject(aborted(method, path))
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(aborted(method, path))
      signal.addEventListener('abort', onAbort, { once: true })
      sleep(ms).then(
        () => {
          signal.removeEventListener('abort', onAbort)
          resolve()
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort)
          reject(error instanceof Error ? error : new Error(String(error)))
        },
      )
    })
  }

  async function request<T>(method: string, path: string, request: RequestOptions = {}): Promise<T> {
    const url = `${base}${path}${encodeQuery(request.query)}`
    const headers: Record<string, string> = {}
    if (apiKey) headers.authorization = `Bearer ${apiKey}`
    let body: string | undefined
    if (request.text) {
      headers['content-type'] = request.text.contentType
      body = request.text.body
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(request.body)
    }
    const idempotent = request.idempotent ?? method === 'GET'
    for (let attempt = 1; ; attempt += 1) {
      if (options.signal?.aborted) throw aborted(method, path)
      const attemptTimeout = AbortSignal.timeout(timeoutMs)
      const signal = options.signal ? AbortSignal.any([options.signal, attemptTimeout]) : attemptTimeout
      let response: Response
      let text: string
      let bytes: Uint8Array | undefined
      try {
        response = await doFetch(url, { method, headers, signal, ...(body === undefined ? {} : { body }) })
        // Errors are the service's JSON whatever was asked for; only an accepted answer is read as bytes.
        if (request.bytes && response.ok) {
          bytes = new Uint8Array(await response.arrayBuffer())
          text = ''
        } else text = await response.text()
      } catch (cause) {
        if (options.signal?.aborted) throw aborted(method, path)
        const timedOut = attemptTimeout.aborted
        if (!idempotent || attempt >= policy.maxAttempts) {
          throw new MemoryServiceClientError(
            timedOut
              ? `${method} ${path}: no answer within ${String(timeoutMs)} ms`
              : `${method} ${path}: ${(cause as Error).message}`,
            timedOut ? 'TIMEOUT' : 'CONNECTION_FAILED',
          )
        }
        const delayMs = retryDelayMs(attempt, undefined, policy)
        options.onRetry?.({ attempt, status: null, delayMs, path })
        await pause(delayMs, method, path)
        continue
      }
      let parsed: unknown = null
      try {
        parsed = text ? JSON.parse(text) : null
      } catch {
        // Not the service's JSON (a proxy's error page): the status alone says what happened.
      }
      if ((request.accept ?? [200, 201]).includes(response.status)) {
        if (bytes) return { bytes, headers: response.headers } satisfies BinaryAnswer as T
        return (request.raw ? text : parsed) as T
      }
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'))
      if (isRetryableStatus(response.status) && attempt < policy.maxAttempts) {
        const delayMs = retryDelayMs(attempt, retryAfter, policy)
        options.onRetry?.({ attempt, status: response.status, delayMs, path })
        await pause(delayMs, method, path)
        continue
      }
      throw errorForStatus(
        response.status,
        parsed as { error?: string; code?: string; details?: Record<string, unknown> } | null,
        retryAfter,
        response.headers.get('x-correlation-id'),
      )
    }
  }

  const get = <T>(path: string, query?: Query) => request<T>('GET', path, query ? { query } : {})
  const post = <T>(path: string, body?: unknown, extra: RequestOptions = {}) =>
    request<T>('POST', path, { ...(body === undefined ? {} : { body }), ...extra })
  const versions = (instanceId: string) => `/instances/${segment(instanceId)}/memory-architecture/versions`

  return {
    /** The same client with some options changed: a request's own signal or timeout, say. */
    withOptions: (changed: Pick<MemoryClientOptions, 'signal' | 'timeoutMs' | 'retry'>) =>
      createMemoryClient({ ...options, ...changed }),
    liveness: () => get<Liveness>('/healthz'),
    /** Resolves with the report whether or not every engine is up (503 is a valid answer here). */
    readiness: () => request<Readiness>('GET', '/readyz', { accept: [200, 503] }),

    instances: {
      list: (query: PageQuery = {}) => get<InstanceList>('/dashboard/instances', { ...query }),
      get: (instanceId: string) => get<Instance>(`/dashboard/instances/${segment(instanceId)}`),
      create: (body: CreateInstanceRequest) => post<CreatedInstance>('/dashboard/instances', body),
    },

    memories: {
      /** Queues a document; idempotent (and so retried after a lost connection) when it has a document_id. */
      ingest: (document: Document) =>
        post<IngestionAccepted>('/v1/memories', document, { idempotent: document.document_id !== undefined }),
      /** With `fail_fast`, one invalid document rejects the whole batch and nothing is queued. */
      ingestBatch: (documents: Document[], options: Pick<DocumentBatchRequest, 'fail_fast'> = {}) =>
        post<DocumentBatchResponse>(
          '/v1/memories/batch',
          { documents, ...(options.fail_fast === undefined ? {} : { fail_fast: options.fail_fast }) },
          {
            idempotent: documents.every((document) => document.document_id !== undefined),
          },
        ),
      status: (ingestionId: string) => get<IngestionStatus>(`/v1/memories/${segment(ingestionId)}/status`),
      /** `filters` is the filter object of search (docs/filters.md); it travels as JSON text in the query string. */
      list: ({ filters, ...query }: Omit<MemoryListQuery, 'filters'> & { filters?: MemoryFilter } = {}) =>
        get<MemoryList>('/v1/memories', {
          ...query,
          ...(filters === undefined ? {} : { filters: JSON.stringify(filters) }),
        }),
      /** With `as_of`, the memory only if it was valid at that moment (otherwise NOT_FOUND). */
      get: (memoryId: string, query: MemoryGetQuery = {}) =>
        get<Memory>(`/v1/memories/${segment(memoryId)}`, { ...query }),
      /** Every change of the memory, oldest first, with its cause and correlation id. */
      history: (memoryId: string) => get<MemoryHistory>(`/v1/memories/${segment(memoryId)}/history`),
      update: (memoryId: string, body: MemoryUpdateRequest) =>
        request<Memory>('PATCH', `/v1/memories/${segment(memoryId)}`, { body }),
      delete: (memoryId: string) =>
        request<undefined>('DELETE', `/v1/memories/${segment(memoryId)}`, {
          accept: [204],
          idempotent: true,
        }),
      /**
       * Feedback on a memory (docs/api/feedback.md): `positive`, `negative` or `very_negative` with an optional reason,
       * `null` to withdraw it; search ranks by it. Safe to retry: the memory holds the last feedback given.
       */
      feedback: (memoryId: string, body: MemoryFeedbackRequest) =>
        post<Memory>(`/v1/memories/${segment(memoryId)}/feedback`, body, { idempotent: true }),
      search: (body: MemorySearchRequest) =>
        post<MemorySearchResponse>('/v1/memories/search', body, { idempotent: true }),
      /** Up to 1 000 updates by id, or `set` on what a filter matches (dry_run, then confirm_count); safe to retry. */
      bulkUpdate: (body: MemoryBulkUpdateRequest) =>
        post<MemoryBulkResponse>('/v1/memories/bulk-update', body, { idempotent: true }),
      /** Up to 1 000 deletions by id, or what a filter matches (dry_run, then confirm_count); safe to retry. */
      bulkDelete: (body: MemoryBulkDeleteRequest) =>
        post<MemoryBulkResponse>('/v1/memories/bulk-delete', body, { idempotent: true }),
      /**
       * Up to 1 000 memories stored as given (docs/api/import.md): records in our format or as mem0 or Zep return
       * theirs (a list, or their envelope). Safe to retry: each record is imported once, by its source id.
       */
      import: (records: MemoryImportRecord[] | Record<string, unknown>, query: MemoryImportQuery = {}) =>
        post<MemoryImportResponse>('/v1/memories/import', records, { query: { ...query }, idempotent: true }),
      /** Exports (docs/api/export.md): what an export takes is fixed when it is created; its lines are read as downloaded. */
      exports: {
        create: (body: MemoryExportRequest = {}) => post<MemoryExport>('/v1/memories/exports', body),
        get: (exportId: string) => get<MemoryExport>(`/v1/memories/exports/${segment(exportId)}`),
        /**
         * The export's JSON Lines, one memory per line in id order; after a cut download, pass the last complete line's
         * id as `after` for the rest. Each line imports back as it is (`import(lines, {format: 'memory-service'})`).
         */
        download: (exportId: string, query: MemoryExportDownloadQuery = {}) =>
          request<string>('GET', `/v1/memories/exports/${segment(exportId)}/download`, {
            query: { ...query },
            raw: true,
          }),
        /**
         * One Parquet file of an export made with `format: 'parquet'` (up to 10 000 memories); `nextAfter` is the
         * `after` of the next file, null after the last.
         */
        downloadParquet: async (exportId: string, query: MemoryExportDownloadQuery = {}) => {
          const answer = await request<BinaryAnswer>(
            'GET',
            `/v1/memories/exports/${segment(exportId)}/download`,
            { query: { ...query }, bytes: true },
          )
          return { file: answer.bytes, nextAfter: answer.headers.get('x-next-after') }
        },
      },
    },

    events: {
      /** Conversation events over HTTP; events with an event_id are idempotent, so a lost answer is retried. */
      send: (events: ConversationEvent[]) =>
        post<EventBatchResponse>(
          '/v1/events/batch',
          { events },
          {
            idempotent: events.every((event) => event.event_id !== undefined),
          },
        ),
    },

    conversations: {
      /** A whole conversation at once: `accepted` the first time, `duplicate` for the identical transcript. */
      ingestTranscript: (conversationId: string, body: TranscriptRequest) =>
        post<TranscriptAccepted>(`/v1/conversations/${segment(conversationId)}/transcript`, body, {
          idempotent: true,
        }),
      context: (conversationId: string, query: ConversationContextQuery) =>
        get<ConversationContext>(`/v1/conversations/${segment(conversationId)}/context`, { ...query }),
      /** @throws ConflictError (COMPACTION_IN_PROGRESS) while another compaction runs: permanent, not retried */
      compact: (conversationId: string, body: CompactionRequest) =>
        post<Compaction>(`/v1/conversations/${segment(conversationId)}/compact`, body),
    },

    users: {
      /** Each changing attribute's value for the user (now, or as_of a moment), since when, and what it replaced. */
      profile: (userId: string, query: UserProfileQuery = {}) =>
        get<UserProfile>(`/v1/users/${segment(userId)}/profile`, { ...query }),
      /**
       * Erases everything stored about the user in this instance (memories, entities, turns): their key at once, the
       * rest as a job. Answers the receipt `running`; read it with `erasure` until it is `completed`.
       */
      erase: (userId: string) =>
        request<UserErasureReceipt>('DELETE', `/v1/users/${segment(userId)}`, { accept: [202] }),
      /** An erasure's receipt: `running`, then `completed` with what each store removed. */
      erasure: (userId: string, receiptId: string) =>
        get<UserErasureReceipt>(`/v1/users/${segment(userId)}/erasures/${segment(receiptId)}`),
    },

    analytics: {
      metrics: (query: AnalyticsMetricsQuery) =>
        get<AnalyticsMetricsResponse>('/v1/analytics/metrics', { ...query }),
      latency: (query: AnalyticsLatencyQuery) =>
        get<AnalyticsLatencyResponse>('/v1/analytics/latency', { ...query }),
      tokens: (query: AnalyticsTokensQuery) =>
        get<AnalyticsTokensResponse>('/v1/analytics/tokens', { ...query }),
      summary: (query: AnalyticsSummaryQuery) =>
        get<AnalyticsSummaryResponse>('/v1/analytics/summary', { ...query }),
    },

    configs: {
      init: (instanceId: string) =>
        post<ConfigVersion>(`/instances/${segment(instanceId)}/memory-architecture/init`, undefined, {
          idempotent: true,
        }),
      /** A configuration as an object (sent as JSON) or as YAML text. */
      propose: (instanceId: string, configuration: MemoryArchitectureConfig | string) =>
        post<ConfigVersion>(versions(instanceId), undefined, {
          text:
            typeof configuration === 'string'
              ? { body: configuration, contentType: 'application/yaml' }
              : { body: JSON.stringify(configuration), contentType: 'application/json' },
        }),
      list: (instanceId: string, query: ConfigVersionsQuery = {}) =>
        get<ConfigVersionList>(versions(instanceId), { ...query }),
      get: (instanceId: string, configId: string) =>
        get<ConfigVersion>(`${versions(instanceId)}/${segment(configId)}`),
      review: (instanceId: string, configId: string, body: ConfigReviewRequest) =>
        post<ConfigVersion>(`${versions(instanceId)}/${segment(configId)}/review`, body),
      apply: (instanceId: string, configId: string) =>
        post<ConfigVersion>(`${versions(instanceId)}/${segment(configId)}/apply`),
      current: (instanceId: string) => get<CurrentConfig>(`/dashboard/configs/${segment(instanceId)}`),
      history: (instanceId: string) =>
        get<ConfigHistory>(`/dashboard/configs/${segment(instanceId)}/history`),
    },

    webhooks: {
      /** Registers a webhook; the answer's `secret` (whsec_…) is shown this once: keep it to verify deliveries. */
      create: (body: WebhookCreateRequest) => post<CreatedWebhook>('/v1/webhooks', body),
      list: (query: PageQuery = {}) => get<WebhookList>('/v1/webhooks', { ...query }),
      get: (webhookId: string) => get<Webhook>(`/v1/webhooks/${segment(webhookId)}`),
      update: (webhookId: string, body: WebhookUpdateRequest) =>
        request<Webhook>('PATCH', `/v1/webhooks/${segment(webhookId)}`, { body, idempotent: true }),
      delete: (webhookId: string) =>
        request<undefined>('DELETE', `/v1/webhooks/${segment(webhookId)}`, {
          accept: [204],
          idempotent: true,
        }),
      /** Newest first, with each delivery's status, attempts, last status code and error, and next attempt. */
      deliveries: (webhookId: string, query: PageQuery = {}) =>
        get<WebhookDeliveryList>(`/v1/webhooks/${segment(webhookId)}/deliveries`, { ...query }),
      /** Sends a delivery again now (same webhook-id); ConflictError (WEBHOOK_DISABLED) while the webhook is disabled. */
      redeliver: (webhookId: string, deliveryId: string) =>
        post<WebhookDelivery>(
          `/v1/webhooks/${segment(webhookId)}/deliveries/${segment(deliveryId)}/redeliver`,
          undefined,
          { accept: [202], idempotent: true },
        ),
    },
  }
}

export type MemoryClient = ReturnType<typeof createMemoryClient>
