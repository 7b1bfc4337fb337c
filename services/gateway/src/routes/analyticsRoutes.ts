import type { FastifyInstance } from 'fastify'
import { principalOf } from '../http/frontDoor.js'
import {
  bucketRetentionDays,
  maxDataPoints,
  rawRetentionDays,
  requireOwnInstance,
} from '@memory-service/domain'
import {
  type AnalyticsExportQuery,
  type AnalyticsLatencyQuery,
  type AnalyticsMetricsQuery,
  type AnalyticsSummaryQuery,
  type AnalyticsTokensQuery,
} from '@memory-service/contracts'
import { type AnalyticsReports } from '@memory-service/read-models'

/** The rules of a time range that its schema cannot state (each is answered 400 INVALID_INPUT naming the field). */
const ANALYTICS_RANGE_RULES = `end must be later than start (field end). Minute buckets reach back ${String(bucketRetentionDays.minute)} days and hour buckets ${String(bucketRetentionDays.hour)} days (field start); day buckets have no limit. At most ${maxDataPoints.toLocaleString('en-US')} buckets per request (field bucket).`

/** Usage analytics of the key's own instance, read from the ClickHouse roll-ups (spec: Endpoints → Analytics). */
export function registerAnalyticsRoutes(app: FastifyInstance, reports: AnalyticsReports): void {
  const config = { permission: 'analytics:read' as const }

  app.get<{ Querystring: AnalyticsMetricsQuery }>(
    '/v1/analytics/metrics',
    {
      config,
      schema: {
        tags: ['analytics'],
        summary: 'A usage metric per minute, hour or day bucket, optionally per group, with a summary',
        description: ANALYTICS_RANGE_RULES,
        querystring: { $ref: 'AnalyticsMetricsQuery.schema.json#' },
        response: { 200: { $ref: 'AnalyticsMetricsResponse.schema.json#' } },
      },
    },
    async (request) => {
      const { instance_id, ...query } = request.query
      requireOwnInstance(principalOf(request), instance_id)
      return reports.metrics(instance_id, query)
    },
  )

  app.get<{ Querystring: AnalyticsLatencyQuery }>(
    '/v1/analytics/latency',
    {
      config,
      schema: {
        tags: ['analytics'],
        summary: 'Latency (avg, p50, p95, p99, count; milliseconds) of an operation per bucket',
        description: ANALYTICS_RANGE_RULES,
        querystring: { $ref: 'AnalyticsLatencyQuery.schema.json#' },
        response: { 200: { $ref: 'AnalyticsLatencyResponse.schema.json#' } },
      },
    },
    async (request) => {
      const { instance_id, ...query } = request.query
      requireOwnInstance(principalOf(request), instance_id)
      return reports.latency(instance_id, query)
    },
  )

  app.get<{ Querystring: AnalyticsTokensQuery }>(
    '/v1/analytics/tokens',
    {
      config,
      schema: {
        tags: ['analytics'],
        summary: 'LLM tokens and estimated cost per bucket, optionally per operation, model or user',
        description: ANALYTICS_RANGE_RULES,
        querystring: { $ref: 'AnalyticsTokensQuery.schema.json#' },
        response: { 200: { $ref: 'AnalyticsTokensResponse.schema.json#' } },
      },
    },
    async (request) => {
      const { instance_id, ...query } = request.query
      requireOwnInstance(principalOf(request), instance_id)
      return reports.tokens(instance_id, query)
    },
  )

  app.get<{ Querystring: AnalyticsSummaryQuery & { period: '24h' | '7d' | '30d' | '90d' } }>(
    '/v1/analytics/summary',
    {
      config,
      schema: {
        tags: ['analytics'],
        summary: 'Totals of a period with the change against the previous one, and health',
        querystring: { $ref: 'AnalyticsSummaryQuery.schema.json#' },
        response: { 200: { $ref: 'AnalyticsSummaryResponse.schema.json#' } },
      },
    },
    async (request) => {
      requireOwnInstance(principalOf(request), request.query.instance_id)
      return reports.summary(request.query.instance_id, request.query.period)
    },
  )

  app.get<{ Querystring: AnalyticsExportQuery }>(
    '/v1/analytics/export',
    {
      config,
      schema: {
        tags: ['analytics'],
        summary:
          "The instance's usage rows over a range as CSV or Parquet, streamed as ClickHouse writes them",
        description: `One row per usage event, oldest first: occurred_at, metric, value, latency_ms, user_id (the user's keyed pseudonym, psn_…, never the id), customer_id, document_type, mode, operation, model, stage, status_code, compression_ratio, validation_score, event_id. csv is ClickHouse's CSVWithNames (a header row), parquet its Parquet. end must be later than start (field end); start at most ${String(rawRetentionDays)} days back (field start).`,
        querystring: { $ref: 'AnalyticsExportQuery.schema.json#' },
        response: {
          200: {
            description: 'The rows, with Content-Disposition naming a file',
            content: {
              'text/csv': { schema: { type: 'string' } },
              'application/vnd.apache.parquet': { schema: { type: 'string', format: 'binary' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { instance_id, start, end } = request.query
      requireOwnInstance(principalOf(request), instance_id)
      const format = request.query.format ?? 'csv'
      const rows = await reports.exportUsage(instance_id, { start, end, format })
      const stamp = (iso: string) => new Date(iso).toISOString().replace(/[-:]|\.\d{3}/g, '')
      return reply
        .header(
          'content-type',
          format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.apache.parquet',
        )
        .header(
          'content-disposition',
          `attachment; filename="usage-${instance_id}-${stamp(start)}-${stamp(end)}.${format}"`,
        )
        .send(rows)
    },
  )
}
