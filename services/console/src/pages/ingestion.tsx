import { useEffect, useState } from 'preact/hooks'
import type { IngestionJobList, IngestionStatus } from '@memory-service/contracts'
import type { Api } from '../api.js'
import type { Route } from '../main.js'
import { ErrorNotice, Field, Progress, Table, useLoad } from '../components.js'
import { ImportMemories } from './importMemories.js'

const statuses = ['', 'queued', 'processing', 'completed', 'failed', 'partial_success'] as const
const stages = ['extraction', 'categorization', 'entity_resolution', 'storage'] as const

function JobDetail(props: { api: Api; ingestionId: string }) {
  const job = useLoad(
    () => props.api.get<IngestionStatus>(`/v1/memories/${encodeURIComponent(props.ingestionId)}/status`),
    [props.ingestionId],
  )
  const data = job.data
  return (
    <>
      <p>
        <a href="#/ingestion">← Jobs</a>
      </p>
      <h1>Ingestion {props.ingestionId}</h1>
      <ErrorNotice error={job.error} />
      {data ? (
        <article data-testid="job-detail">
          <p>
            <span class={`status ${data.status}`}>{data.status}</span>
            {data.reason ? ` · ${data.reason.code}: ${data.reason.message}` : null}
          </p>
          {stages.map((stage) => (
            <Progress label={stage} value={data.progress[stage]} />
          ))}
          {data.errors.length > 0 ? (
            <Table
              caption="Errors"
              rows={data.errors}
              columns={[
                { title: 'Stage', cell: (error) => error.stage },
                { title: 'Code', cell: (error) => <code>{error.code}</code> },
                { title: 'Message', cell: (error) => error.message },
              ]}
            />
          ) : null}
          {data.memory_ids ? (
            <>
              <h2>Memories it produced</h2>
              {data.memory_ids.length === 0 ? (
                <p class="empty">None.</p>
              ) : (
                <ul>
                  {data.memory_ids.map((id) => (
                    <li>
                      <a href={`#/memories/${encodeURIComponent(id)}`}>{id}</a>
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : null}
        </article>
      ) : null}
    </>
  )
}

interface ListState {
  status: (typeof statuses)[number]
  page: number
  live: boolean
}

/** The route: one job's detail, or the list. The list's filter lives here, so it is kept while a job is open. */
export function IngestionPage(props: { api: Api; route: Route }) {
  const [state, setState] = useState<ListState>({ status: '', page: 1, live: true })
  const ingestionId = props.route.rest[0]
  if (ingestionId) return <JobDetail api={props.api} ingestionId={ingestionId} />
  return <JobList api={props.api} state={state} onChange={setState} />
}

function JobList(props: { api: Api; state: ListState; onChange: (state: ListState) => void }) {
  const { api } = props
  const { status, page, live } = props.state
  const setStatus = (next: ListState['status']) => props.onChange({ ...props.state, status: next, page: 1 })
  const setPage = (next: number) => props.onChange({ ...props.state, page: next })
  const setLive = (next: boolean) => props.onChange({ ...props.state, live: next })
  const jobs = useLoad(
    () => api.get<IngestionJobList>('/v1/ingestions', { status: status || undefined, page, page_size: 20 }),
    [status, page],
  )
  useEffect(() => {
    if (!live) return
    const timer = setInterval(() => jobs.reload(), 3000)
    return () => clearInterval(timer)
  }, [live, status, page])

  const data = jobs.data
  return (
    <>
      <div class="page-head">
        <h1>Ingestion</h1>
        <div class="toolbar">
          <Field label="Status">
            <select
              name="status"
              value={status}
              onChange={(event) => setStatus(event.currentTarget.value as typeof status)}
            >
              {statuses.map((name) => (
                <option value={name}>{name || 'any'}</option>
              ))}
            </select>
          </Field>
          <label class="inline">
            <input
              type="checkbox"
              checked={live}
              onChange={(event) => setLive(event.currentTarget.checked)}
            />{' '}
            Live refresh (3 s)
          </label>
        </div>
      </div>
      <ErrorNotice error={jobs.error} />
      {data ? (
        <>
          <Table
            caption={`${String(data.total)} jobs, the most recently changed first`}
            testId="jobs"
            rows={data.items}
            empty="No ingestion job yet."
            columns={[
              {
                title: 'Job',
                cell: (job) => (
                  <a href={`#/ingestion/${encodeURIComponent(job.ingestion_id)}`}>{job.ingestion_id}</a>
                ),
              },
              { title: 'Status', cell: (job) => <span class={`status ${job.status}`}>{job.status}</span> },
              {
                title: 'Stages',
                cell: (job) => (
                  <span
                    class="stages"
                    aria-label={stages
                      .map((stage) => `${stage} ${String(Math.round(job.progress[stage] * 100))} %`)
                      .join(', ')}
                  >
                    {stages.map((stage) => (
                      <span
                        class="stage"
                        title={`${stage} ${String(Math.round(job.progress[stage] * 100))} %`}
                        style={{ '--done': String(job.progress[stage]) }}
                      />
                    ))}
                  </span>
                ),
              },
              {
                title: 'Errors',
                cell: (job) =>
                  job.errors.length > 0 ? job.errors.map((error) => <code>{error.code}</code>) : '—',
              },
              {
                title: 'Memories',
                cell: (job) => (job.memory_ids ? job.memory_ids.length : '…'),
                numeric: true,
              },
              { title: 'Changed', cell: (job) => new Date(job.updated_at).toLocaleString() },
            ]}
          />
          <div class="pager">
            <button type="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
              Newer
            </button>
            <span>Page {page}</span>
            <button type="button" disabled={!data.has_more} onClick={() => setPage(page + 1)}>
              Older
            </button>
          </div>
        </>
      ) : null}
      <ImportMemories api={api} />
    </>
  )
}
