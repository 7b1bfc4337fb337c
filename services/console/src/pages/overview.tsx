import { useState } from 'preact/hooks'
import type { AnalyticsMetricsResponse, AnalyticsSummaryResponse, Readiness } from '@memory-service/contracts'
import type { Api } from '../api.js'
import type { Route } from '../main.js'
import { Sparkline } from '../charts.js'
import { Card, ErrorNotice, Table, useLoad } from '../components.js'
import { formatChange, formatMs, formatNumber, formatUsd, recentRange, withGaps } from '../format.js'

const periods = {
  '24h': { bucket: 'hour', count: 24 },
  '7d': { bucket: 'hour', count: 168 },
  '30d': { bucket: 'day', count: 30 },
  '90d': { bucket: 'day', count: 90 },
} as const
type Period = keyof typeof periods

function Change(props: { pct: number | null }) {
  const change = formatChange(props.pct)
  return <span class={`change ${change.direction}`}>{change.text}</span>
}

function Trend(props: { api: Api; metric: string; period: Period; label: string }) {
  const { bucket, count } = periods[props.period]
  const range = recentRange(Date.now(), bucket, count)
  const trend = useLoad(
    () =>
      props.api.get<AnalyticsMetricsResponse>('/v1/analytics/metrics', {
        instance_id: props.api.key.instance_id,
        metric: props.metric,
        bucket,
        ...range,
      }),
    [props.metric, props.period],
  )
  if (!trend.data) return null
  const values = trend.data.data_points.map((point) => point.value)
  return (
    <Sparkline
      values={withGaps(
        values,
        values.map((value) => value > 0),
      )}
      label={`${props.label}, per ${bucket}, last ${props.period}`}
    />
  )
}

export function OverviewPage(props: { api: Api; route: Route }) {
  const { api } = props
  const [period, setPeriod] = useState<Period>('24h')
  const summary = useLoad(
    () =>
      api.get<AnalyticsSummaryResponse>('/v1/analytics/summary', {
        instance_id: api.key.instance_id,
        period,
      }),
    [period],
  )
  const readiness = useLoad(async () => {
    const response = await fetch('/readyz', { cache: 'no-store' })
    return (await response.json()) as Readiness
  }, [])
  const data = summary.data
  return (
    <>
      <div class="page-head">
        <h1>Overview</h1>
        <div role="radiogroup" aria-label="Period" class="segmented">
          {(Object.keys(periods) as Period[]).map((name) => (
            <button type="button" role="radio" aria-checked={period === name} onClick={() => setPeriod(name)}>
              {name}
            </button>
          ))}
        </div>
      </div>
      <ErrorNotice error={summary.error} />
      {data ? (
        <div class="cards" data-testid="summary">
          <Card title="API calls" testId="api-calls">
            <p class="figure" data-value={data.api_calls.total}>
              {formatNumber(data.api_calls.total)}
            </p>
            <Change pct={data.api_calls.change_pct} />
            <Trend api={api} metric="api_call" period={period} label="API calls" />
          </Card>
          <Card title="Memories" testId="memories">
            <p class="figure" data-value={data.memories.total_stored}>
              {formatNumber(data.memories.total_stored)}
            </p>
            <p class="sub">{formatNumber(data.memories.created_in_period)} created in the period</p>
            <Change pct={data.memories.change_pct} />
            <Trend api={api} metric="memories_stored" period={period} label="Memories stored" />
          </Card>
          <Card title="Context fetches" testId="context-fetches">
            <p class="figure" data-value={data.context_fetches.total}>
              {formatNumber(data.context_fetches.total)}
            </p>
            <p class="sub">
              avg {formatMs(data.context_fetches.avg_latency_ms)} · p95{' '}
              {formatMs(data.context_fetches.p95_latency_ms)}
            </p>
            <Change pct={data.context_fetches.change_pct} />
            <Trend api={api} metric="context_fetch" period={period} label="Context fetches" />
          </Card>
          <Card title="Tokens" testId="tokens">
            <p class="figure" data-value={data.tokens.total_input + data.tokens.total_output}>
              {formatNumber(data.tokens.total_input + data.tokens.total_output)}
            </p>
            <p class="sub">
              {formatNumber(data.tokens.total_input)} in · {formatNumber(data.tokens.total_output)} out ·{' '}
              {formatUsd(data.tokens.estimated_cost_usd)}
            </p>
            <Change pct={data.tokens.change_pct} />
          </Card>
          <Card title="Compactions" testId="compactions">
            <p class="figure" data-value={data.compactions.total}>
              {formatNumber(data.compactions.total)}
            </p>
            <p class="sub">
              ratio {formatNumber(data.compactions.avg_compression_ratio)} · validation{' '}
              {formatNumber(data.compactions.avg_validation_score)}
            </p>
          </Card>
          <Card title="Health" testId="health">
            <p class={`figure status ${data.health.status}`}>{data.health.status}</p>
            <p class="sub">
              {formatNumber(data.health.error_rate_pct)} % errors · avg {formatMs(data.health.avg_latency_ms)}
            </p>
          </Card>
        </div>
      ) : summary.loading ? (
        <p class="empty">Loading the summary…</p>
      ) : null}
      <h2>Engines and projections</h2>
      {readiness.data ? (
        <div class="two-columns">
          <Table
            caption={`Readiness: ${readiness.data.status}`}
            testId="readiness"
            rows={readiness.data.checks}
            columns={[
              { title: 'Engine', cell: (check) => check.name },
              {
                title: 'Status',
                cell: (check) => <span class={`status ${check.status}`}>{check.status}</span>,
              },
              { title: 'Version', cell: (check) => check.version ?? '—' },
              { title: 'Latency', cell: (check) => formatMs(check.latency_ms), numeric: true },
            ]}
          />
          <Table
            caption="Consumer lag (records not processed yet)"
            testId="consumer-lag"
            rows={readiness.data.consumers ?? []}
            empty="This gateway does not measure consumer lag."
            columns={[
              { title: 'Consumer group', cell: (consumer) => consumer.group },
              { title: 'Lag', cell: (consumer) => formatNumber(consumer.lag), numeric: true },
            ]}
          />
        </div>
      ) : (
        <ErrorNotice error={readiness.error} />
      )}
    </>
  )
}
