import { useState } from 'preact/hooks'
import type {
  AnalyticsLatencyResponse,
  AnalyticsMetricsResponse,
  AnalyticsTokensResponse,
} from '@memory-service/contracts'
import type { Api } from '../api.js'
import type { Route } from '../main.js'
import { TimeChart } from '../charts.js'
import { Done, ErrorNotice, Field, saveBlob, Table, useLoad } from '../components.js'
import {
  bucketFor,
  formatMs,
  formatNumber,
  formatUsd,
  fromLocalInput,
  seriesByGroup,
  toLocalInput,
  withGaps,
  type Bucket,
} from '../format.js'

const metrics = [
  'api_call',
  'context_fetch',
  'context_compact',
  'memories_stored',
  'memory_feedback',
  'vector_queries',
  'graph_queries',
  'llm_input_tokens',
  'llm_output_tokens',
] as const
const metricGroups = ['', 'user_id', 'customer_id', 'document_type', 'mode', 'operation'] as const
const operations = ['context_fetch', 'context_compact', 'ingestion', 'memory_get'] as const
const tokenGroups = ['', 'operation', 'model', 'user_id'] as const
const presets = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
} as const

interface Range {
  start: string
  end: string
  bucket: Bucket
}

function rangeOf(preset: keyof typeof presets): Range {
  const end = Date.now()
  const start = end - presets[preset]
  return {
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    bucket: bucketFor(start, end),
  }
}

export function UsagePage(props: { api: Api; route: Route }) {
  const { api } = props
  const instance_id = api.key.instance_id
  const [range, setRange] = useState<Range>(() => rangeOf('24h'))
  const [draft, setDraft] = useState(() => ({
    start: toLocalInput(range.start),
    end: toLocalInput(range.end),
    bucket: range.bucket,
  }))
  const [metric, setMetric] = useState<(typeof metrics)[number]>('api_call')
  const [groupBy, setGroupBy] = useState<(typeof metricGroups)[number]>('')
  const [operation, setOperation] = useState<(typeof operations)[number]>('context_fetch')
  const [tokenGroup, setTokenGroup] = useState<(typeof tokenGroups)[number]>('')
  const [view, setView] = useState<'charts' | 'table'>('charts')
  const [exportState, setExportState] = useState<{ busy: boolean; error?: unknown; done?: string }>({
    busy: false,
  })

  const query = { instance_id, start: range.start, end: range.end, bucket: range.bucket }
  const metricData = useLoad(
    () =>
      api.get<AnalyticsMetricsResponse>('/v1/analytics/metrics', {
        ...query,
        metric,
        group_by: groupBy || undefined,
      }),
    [range, metric, groupBy],
  )
  const latency = useLoad(
    () => api.get<AnalyticsLatencyResponse>('/v1/analytics/latency', { ...query, operation }),
    [range, operation],
  )
  const tokens = useLoad(
    () =>
      api.get<AnalyticsTokensResponse>('/v1/analytics/tokens', {
        ...query,
        group_by: tokenGroup || undefined,
      }),
    [range, tokenGroup],
  )

  const apply = (event: Event) => {
    event.preventDefault()
    const start = fromLocalInput(draft.start)
    const end = fromLocalInput(draft.end)
    if (start && end) setRange({ start, end, bucket: draft.bucket })
  }
  const choosePreset = (preset: keyof typeof presets) => {
    const next = rangeOf(preset)
    setRange(next)
    setDraft({ start: toLocalInput(next.start), end: toLocalInput(next.end), bucket: next.bucket })
  }
  const exportAs = async (format: 'csv' | 'parquet') => {
    setExportState({ busy: true })
    try {
      const { blob, fileName } = await api.download('/v1/analytics/export', {
        instance_id,
        start: range.start,
        end: range.end,
        format,
      })
      saveBlob(blob, fileName)
      setExportState({ busy: false, done: `${fileName} (${formatNumber(blob.size)} bytes)` })
    } catch (error) {
      setExportState({ busy: false, error })
    }
  }

  const metricSeries = metricData.data
    ? seriesByGroup(metricData.data.data_points, (point) => point.value)
    : undefined
  const latencyPoints = latency.data?.data_points ?? []
  const latencyPresent = latencyPoints.map((point) => point.count > 0)
  const tokenSeries = tokens.data
    ? seriesByGroup(tokens.data.data_points, (point) => point.total_tokens)
    : undefined

  return (
    <>
      <div class="page-head">
        <h1>Usage</h1>
        <div class="segmented" role="group" aria-label="Recent ranges">
          {(Object.keys(presets) as (keyof typeof presets)[]).map((preset) => (
            <button type="button" onClick={() => choosePreset(preset)}>
              {preset}
            </button>
          ))}
        </div>
      </div>
      <form class="toolbar" onSubmit={apply} aria-label="Range">
        <Field label="From">
          <input
            type="datetime-local"
            name="start"
            value={draft.start}
            onInput={(event) => setDraft({ ...draft, start: event.currentTarget.value })}
          />
        </Field>
        <Field label="To">
          <input
            type="datetime-local"
            name="end"
            value={draft.end}
            onInput={(event) => setDraft({ ...draft, end: event.currentTarget.value })}
          />
        </Field>
        <Field label="Bucket">
          <select
            name="bucket"
            value={draft.bucket}
            onChange={(event) => setDraft({ ...draft, bucket: event.currentTarget.value as Bucket })}
          >
            <option value="minute">minute</option>
            <option value="hour">hour</option>
            <option value="day">day</option>
          </select>
        </Field>
        <button type="submit">Show</button>
        <div class="segmented" role="radiogroup" aria-label="View">
          <button
            type="button"
            role="radio"
            aria-checked={view === 'charts'}
            onClick={() => setView('charts')}
          >
            Charts
          </button>
          <button type="button" role="radio" aria-checked={view === 'table'} onClick={() => setView('table')}>
            Table
          </button>
        </div>
        <span class="export">
          <button type="button" disabled={exportState.busy} onClick={() => void exportAs('csv')}>
            Export CSV
          </button>
          <button type="button" disabled={exportState.busy} onClick={() => void exportAs('parquet')}>
            Export Parquet
          </button>
        </span>
      </form>
      <ErrorNotice error={exportState.error} />
      <Done message={exportState.done && `Exported ${exportState.done}`} />

      <section aria-labelledby="metrics-title">
        <div class="section-head">
          <h2 id="metrics-title">Metrics</h2>
          <Field label="Metric">
            <select
              name="metric"
              value={metric}
              onChange={(event) => setMetric(event.currentTarget.value as typeof metric)}
            >
              {metrics.map((name) => (
                <option value={name}>{name}</option>
              ))}
            </select>
          </Field>
          <Field label="Group by">
            <select
              name="group_by"
              value={groupBy}
              onChange={(event) => setGroupBy(event.currentTarget.value as typeof groupBy)}
            >
              {metricGroups.map((name) => (
                <option value={name}>{name || 'nothing'}</option>
              ))}
            </select>
          </Field>
        </div>
        <ErrorNotice error={metricData.error} />
        {metricSeries && metricData.data ? (
          <>
            <p class="sub" data-testid="metric-total">
              total {formatNumber(metricData.data.summary.total)} · max{' '}
              {formatNumber(metricData.data.summary.max)} per {range.bucket}
            </p>
            {view === 'charts' ? (
              <TimeChart
                title={`${metric} per ${range.bucket}`}
                timestamps={metricSeries.timestamps}
                series={metricSeries.series.map((series) => ({
                  name: series.name,
                  values: withGaps(
                    series.values,
                    series.values.map((value) => value > 0),
                  ),
                }))}
              />
            ) : (
              <Table
                caption={`${metric} per ${range.bucket}`}
                rows={metricData.data.data_points.filter((point) => point.value > 0)}
                empty="No data in this range."
                columns={[
                  { title: 'Bucket', cell: (point) => new Date(point.timestamp).toLocaleString() },
                  { title: 'Group', cell: (point) => point.group ?? '—' },
                  { title: 'Value', cell: (point) => formatNumber(point.value), numeric: true },
                ]}
              />
            )}
          </>
        ) : null}
      </section>

      <section aria-labelledby="latency-title">
        <div class="section-head">
          <h2 id="latency-title">Latency</h2>
          <Field label="Operation">
            <select
              name="operation"
              value={operation}
              onChange={(event) => setOperation(event.currentTarget.value as typeof operation)}
            >
              {operations.map((name) => (
                <option value={name}>{name}</option>
              ))}
            </select>
          </Field>
        </div>
        <ErrorNotice error={latency.error} />
        {latency.data ? (
          view === 'charts' ? (
            <TimeChart
              title={`${operation} latency per ${range.bucket}`}
              unit="ms"
              timestamps={latencyPoints.map((point) => Date.parse(point.timestamp))}
              series={(['p50', 'p95', 'p99'] as const).map((name) => ({
                name,
                values: withGaps(
                  latencyPoints.map((point) => point[name]),
                  latencyPresent,
                ),
              }))}
            />
          ) : (
            <Table
              caption={`${operation} latency per ${range.bucket}`}
              testId="latency-table"
              rows={latencyPoints.filter((point) => point.count > 0)}
              empty="No calls in this range."
              columns={[
                { title: 'Bucket', cell: (point) => new Date(point.timestamp).toLocaleString() },
                { title: 'Calls', cell: (point) => formatNumber(point.count), numeric: true },
                { title: 'p50', cell: (point) => formatMs(point.p50), numeric: true },
                { title: 'p95', cell: (point) => formatMs(point.p95), numeric: true },
                { title: 'p99', cell: (point) => formatMs(point.p99), numeric: true },
              ]}
            />
          )
        ) : null}
      </section>

      <section aria-labelledby="tokens-title">
        <div class="section-head">
          <h2 id="tokens-title">Tokens and cost</h2>
          <Field label="Group by">
            <select
              name="token_group_by"
              value={tokenGroup}
              onChange={(event) => setTokenGroup(event.currentTarget.value as typeof tokenGroup)}
            >
              {tokenGroups.map((name) => (
                <option value={name}>{name || 'nothing'}</option>
              ))}
            </select>
          </Field>
        </div>
        <ErrorNotice error={tokens.error} />
        {tokens.data && tokenSeries ? (
          <>
            <p class="sub">
              {formatNumber(tokens.data.summary.total_tokens)} tokens · estimated{' '}
              {formatUsd(tokens.data.summary.total_estimated_cost_usd)}
            </p>
            {view === 'charts' ? (
              <TimeChart
                title={`Tokens per ${range.bucket}`}
                timestamps={tokenSeries.timestamps}
                series={tokenSeries.series.map((series) => ({
                  name: series.name,
                  values: withGaps(
                    series.values,
                    series.values.map((value) => value > 0),
                  ),
                }))}
              />
            ) : (
              <Table
                caption={`Tokens per ${range.bucket}`}
                rows={tokens.data.data_points.filter((point) => point.total_tokens > 0)}
                empty="No tokens in this range."
                columns={[
                  { title: 'Bucket', cell: (point) => new Date(point.timestamp).toLocaleString() },
                  { title: 'Group', cell: (point) => point.group ?? '—' },
                  { title: 'Input', cell: (point) => formatNumber(point.input_tokens), numeric: true },
                  { title: 'Output', cell: (point) => formatNumber(point.output_tokens), numeric: true },
                  { title: 'Cost', cell: (point) => formatUsd(point.estimated_cost_usd), numeric: true },
                ]}
              />
            )}
          </>
        ) : null}
      </section>
    </>
  )
}
