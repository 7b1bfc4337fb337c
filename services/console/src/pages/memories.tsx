import { useState } from 'preact/hooks'
import type {
  Memory,
  MemoryBulkResponse,
  MemoryExport,
  MemoryFilter,
  MemoryHistory,
  MemorySearchRequest,
  MemorySearchResponse,
} from '@memory-service/contracts'
import type { Api } from '../api.js'
import type { Route } from '../main.js'
import { Confirm, Done, ErrorNotice, Field, saveBlob, Table, useLoad } from '../components.js'
import { formatNumber } from '../format.js'

const memoryTypes = ['fact', 'preference', 'episode', 'emotion', 'temporal_event'] as const
type MemoryType = (typeof memoryTypes)[number]

function Entities(props: { memory: Pick<Memory, 'entities'> }) {
  if (props.memory.entities.length === 0) return <>—</>
  return (
    <ul class="tags">
      {props.memory.entities.map((entity) => (
        <li title={entity.entity_id}>
          {entity.canonical_name} <span class="muted">{entity.type}</span>
        </li>
      ))}
    </ul>
  )
}

function SearchPlayground(props: { api: Api }) {
  const { api } = props
  const [form, setForm] = useState({
    query: '',
    user_id: '',
    customer_id: '',
    mode: 'accurate' as 'accurate' | 'fast',
    limit: 10,
    types: [] as MemoryType[],
    filter: '',
    include_superseded: false,
  })
  const [answer, setAnswer] = useState<{ response?: MemorySearchResponse; error?: unknown; busy: boolean }>({
    busy: false,
  })
  const [bulk, setBulk] = useState<{ matched?: number; done?: string; error?: unknown; busy: boolean }>({
    busy: false,
  })
  /** The filter box and the type boxes as one filter; an Error when the box does not hold JSON. */
  const filtersOfForm = (): MemoryFilter | undefined | Error => {
    let written: MemoryFilter | undefined
    try {
      written = form.filter.trim() === '' ? undefined : (JSON.parse(form.filter) as MemoryFilter)
    } catch (error) {
      return new Error(`The filter is not JSON: ${(error as Error).message}`)
    }
    const types =
      form.types.length > 0 ? { types: form.types as NonNullable<MemoryFilter['types']> } : undefined
    return written && types ? { and: [written, types] as [MemoryFilter, MemoryFilter] } : (written ?? types)
  }
  const scopeOfForm = () => ({
    ...(form.user_id ? { user_id: form.user_id } : {}),
    ...(form.customer_id ? { customer_id: form.customer_id } : {}),
  })
  /** Deleting what the filter matches: a dry run counts, the dialog shows the count, the deletion confirms it. */
  const countForDeletion = async () => {
    const filters = filtersOfForm()
    if (filters instanceof Error || filters === undefined) {
      setBulk({
        busy: false,
        error: filters ?? new Error('Write a filter first: a deletion by filter needs one.'),
      })
      return
    }
    setBulk({ busy: true })
    try {
      const counted = await api.send<MemoryBulkResponse>('POST', '/v1/memories/bulk-delete', {
        ...scopeOfForm(),
        filters,
        dry_run: true,
      })
      setBulk(
        counted.matched === 0
          ? { busy: false, done: 'No memory matches the filter: nothing to delete.' }
          : { busy: false, matched: counted.matched },
      )
    } catch (error) {
      setBulk({ busy: false, error })
    }
  }
  const deleteMatching = async (confirmCount: number) => {
    const filters = filtersOfForm()
    if (filters instanceof Error || filters === undefined) return
    setBulk({ busy: true })
    try {
      const done = await api.send<MemoryBulkResponse>('POST', '/v1/memories/bulk-delete', {
        ...scopeOfForm(),
        filters,
        confirm_count: confirmCount,
      })
      setBulk({
        busy: false,
        done: `Deleted ${String(done.summary.deleted)} of ${String(done.matched)} (${String(done.summary.failed)} failed).`,
      })
    } catch (error) {
      setBulk({ busy: false, error })
    }
  }
  /**
   * An export of what the scope and the filter take (the query does not apply), downloaded as JSON Lines or as
   * Parquet (its first file: up to 10 000 memories).
   */
  const exportMatching = async (format: 'jsonl' | 'parquet') => {
    const filters = filtersOfForm()
    if (filters instanceof Error) {
      setBulk({ busy: false, error: filters })
      return
    }
    setBulk({ busy: true })
    try {
      const made = await api.send<MemoryExport>('POST', '/v1/memories/exports', {
        ...scopeOfForm(),
        ...(filters ? { filters } : {}),
        format,
      })
      const { blob, fileName, headers } = await api.download(made.download)
      saveBlob(blob, fileName)
      const more = headers.get('x-next-after')
      setBulk({
        busy: false,
        done: more
          ? `Exported the first 10 000 of ${String(made.matched)} memories: ${fileName} (${formatNumber(blob.size)} bytes); the API gives the next files (after=${more}).`
          : `Exported ${String(made.matched)} memories: ${fileName} (${formatNumber(blob.size)} bytes).`,
      })
    } catch (error) {
      setBulk({ busy: false, error })
    }
  }
  const search = async (event: Event) => {
    event.preventDefault()
    const filters = filtersOfForm()
    if (filters instanceof Error) {
      setAnswer({ busy: false, error: filters })
      return
    }
    setAnswer({ busy: true })
    const request: MemorySearchRequest = {
      query: form.query,
      mode: form.mode,
      limit: form.limit,
      ...scopeOfForm(),
      ...(form.include_superseded ? { include_superseded: true } : {}),
      ...(filters ? { filters } : {}),
    }
    try {
      setAnswer({
        busy: false,
        response: await api.send<MemorySearchResponse>('POST', '/v1/memories/search', request),
      })
    } catch (error) {
      setAnswer({ busy: false, error })
    }
  }
  const toggleType = (type: MemoryType) =>
    setForm({
      ...form,
      types: form.types.includes(type) ? form.types.filter((known) => known !== type) : [...form.types, type],
    })
  return (
    <>
      <form class="search-form" onSubmit={(event) => void search(event)} aria-label="Search memories">
        <Field label="Query">
          <input
            type="search"
            name="query"
            required
            value={form.query}
            onInput={(event) => setForm({ ...form, query: event.currentTarget.value })}
          />
        </Field>
        <Field label="User id">
          <input
            name="user_id"
            value={form.user_id}
            onInput={(event) => setForm({ ...form, user_id: event.currentTarget.value })}
          />
        </Field>
        <Field label="Customer id">
          <input
            name="customer_id"
            value={form.customer_id}
            onInput={(event) => setForm({ ...form, customer_id: event.currentTarget.value })}
          />
        </Field>
        <Field label="Mode">
          <select
            name="mode"
            value={form.mode}
            onChange={(event) => setForm({ ...form, mode: event.currentTarget.value as 'accurate' | 'fast' })}
          >
            <option value="accurate">accurate</option>
            <option value="fast">fast</option>
          </select>
        </Field>
        <Field label="Results">
          <input
            type="number"
            name="limit"
            min={1}
            max={100}
            value={form.limit}
            onInput={(event) => setForm({ ...form, limit: Number(event.currentTarget.value) })}
          />
        </Field>
        <Field label="Filter (JSON)">
          <textarea
            name="filters"
            rows={2}
            spellcheck={false}
            placeholder='{"metadata.channel": "web", "created_at": {"gte": "2026-01-01"}}'
            value={form.filter}
            onInput={(event) => setForm({ ...form, filter: event.currentTarget.value })}
          />
        </Field>
        <fieldset class="types">
          <legend>Types</legend>
          {memoryTypes.map((type) => (
            <label>
              <input type="checkbox" checked={form.types.includes(type)} onChange={() => toggleType(type)} />{' '}
              {type}
            </label>
          ))}
          <label>
            <input
              type="checkbox"
              checked={form.include_superseded}
              onChange={(event) => setForm({ ...form, include_superseded: event.currentTarget.checked })}
            />{' '}
            superseded too
          </label>
        </fieldset>
        <button type="submit" disabled={answer.busy}>
          {answer.busy ? 'Searching…' : 'Search'}
        </button>
        <button type="button" disabled={bulk.busy} onClick={() => void exportMatching('jsonl')}>
          Export matching
        </button>
        <button type="button" disabled={bulk.busy} onClick={() => void exportMatching('parquet')}>
          Export as Parquet
        </button>
        {api.can('memories:write') ? (
          <button type="button" disabled={bulk.busy} onClick={() => void countForDeletion()}>
            Delete matching…
          </button>
        ) : null}
      </form>
      <ErrorNotice error={answer.error} />
      <ErrorNotice error={bulk.error} />
      <Done message={bulk.done} />
      <Confirm
        open={bulk.matched !== undefined}
        title={`Delete ${String(bulk.matched ?? 0)} memories?`}
        confirmLabel={`Delete ${String(bulk.matched ?? 0)}`}
        onConfirm={() => void deleteMatching(bulk.matched ?? 0)}
        onCancel={() => setBulk({ busy: false })}
      >
        The filter matches {bulk.matched} stored memories
        {form.user_id ? ` of ${form.user_id}` : ' across users'}, superseded ones included (the query and the
        superseded box do not apply). Each deletion is an event in the log; if the count has changed by then,
        nothing is deleted.
      </Confirm>
      {answer.response ? (
        <>
          <p class="sub" role="status">
            {answer.response.results.length} results · {answer.response.mode} ·{' '}
            {formatNumber(answer.response.took_ms)} ms in the service
          </p>
          <Table
            caption="Search results, best first"
            testId="search-results"
            rows={answer.response.results}
            empty="No memory matches."
            columns={[
              { title: 'Score', cell: (result) => result.score.toFixed(3), numeric: true },
              { title: 'Type', cell: (result) => result.type },
              {
                title: 'Memory',
                cell: (result) => (
                  <a
                    href={`#/memories/${encodeURIComponent(result.id)}`}
                    class={result.superseded_by ? 'superseded' : undefined}
                  >
                    {result.content}
                  </a>
                ),
              },
              { title: 'Entities', cell: (result) => <Entities memory={result} /> },
              {
                title: 'Source',
                cell: (result) => (
                  <a href={`#/ingestion/${encodeURIComponent(result.source.ingestion_id)}`}>
                    {result.source.ingestion_id}
                  </a>
                ),
              },
            ]}
          />
        </>
      ) : null}
    </>
  )
}

function MemoryDetail(props: { api: Api; memoryId: string }) {
  const { api, memoryId } = props
  const memory = useLoad(() => api.get<Memory>(`/v1/memories/${encodeURIComponent(memoryId)}`), [memoryId])
  const history = useLoad(
    () => api.get<MemoryHistory>(`/v1/memories/${encodeURIComponent(memoryId)}/history`),
    [memoryId],
  )
  const [edit, setEdit] = useState<{
    content: string
    merge_strategy: 'replace' | 'append' | 'smart-merge'
  } | null>(null)
  const [action, setAction] = useState<{ error?: unknown; done?: string; busy: boolean }>({ busy: false })
  const [confirming, setConfirming] = useState(false)
  const [reason, setReason] = useState('')
  const [expiry, setExpiry] = useState<string | null>(null)
  const writable = api.can('memories:write')

  /** Sends a change and shows the memory and its history again once it is projected. */
  const applyChange = async (send: () => Promise<unknown>, done: string) => {
    setAction({ busy: true })
    try {
      await send()
      setAction({ busy: false, done })
      setTimeout(() => {
        memory.reload()
        history.reload()
      }, 800)
    } catch (error) {
      setAction({ busy: false, error })
    }
  }
  const giveFeedback = (rating: 'positive' | 'negative' | 'very_negative' | null) =>
    applyChange(
      () =>
        api.send('POST', `/v1/memories/${encodeURIComponent(memoryId)}/feedback`, {
          rating,
          ...(rating !== null && reason.trim() ? { reason: reason.trim() } : {}),
        }),
      rating === null ? 'Feedback withdrawn.' : `Feedback recorded: ${rating.replace('_', ' ')}.`,
    )
  const saveExpiry = (event: Event) => {
    event.preventDefault()
    if (expiry === null) return
    // The field holds a UTC date and time (minutes), as its label says, whatever the browser's time zone.
    const expiresAt = expiry ? new Date(`${expiry}Z`).toISOString() : null
    setExpiry(null)
    void applyChange(
      () => api.send('PATCH', `/v1/memories/${encodeURIComponent(memoryId)}`, { expires_at: expiresAt }),
      expiresAt ? `Expires at ${expiresAt}.` : 'Never expires.',
    )
  }

  const save = async (event: Event) => {
    event.preventDefault()
    if (!edit) return
    await applyChange(async () => {
      await api.send('PATCH', `/v1/memories/${encodeURIComponent(memoryId)}`, edit)
      setEdit(null)
    }, 'Saved: the change is an event; the memory shows it once projected.')
  }
  const remove = async () => {
    setConfirming(false)
    setAction({ busy: true })
    try {
      await api.send('DELETE', `/v1/memories/${encodeURIComponent(memoryId)}`)
      setAction({ busy: false, done: 'Deleted.' })
    } catch (error) {
      setAction({ busy: false, error })
    }
  }

  const data = memory.data
  return (
    <>
      <p>
        <a href="#/memories">← Search</a>
      </p>
      <h1>Memory {memoryId}</h1>
      <ErrorNotice error={memory.error} />
      {data ? (
        <article class="memory" data-testid="memory-detail">
          <p class="memory-content">{data.content}</p>
          <dl class="facts">
            <dt>Type</dt>
            <dd>{data.type}</dd>
            <dt>Confidence</dt>
            <dd>{data.confidence.toFixed(2)}</dd>
            <dt>Scope</dt>
            <dd>
              user {data.scope.user_id ?? '—'} · customer {data.scope.customer_id ?? '—'}
            </dd>
            <dt>Source</dt>
            <dd>
              <a href={`#/ingestion/${encodeURIComponent(data.source.ingestion_id)}`}>
                {data.source.ingestion_id}
              </a>{' '}
              ({data.source.document_type}, {data.source.document_created_at})
            </dd>
            <dt>Valid</dt>
            <dd>
              from {data.valid_from} {data.valid_to ? `to ${data.valid_to}` : '(current)'}
              {data.superseded_by ? (
                <>
                  {' '}
                  · superseded by{' '}
                  <a href={`#/memories/${encodeURIComponent(data.superseded_by)}`}>{data.superseded_by}</a>
                </>
              ) : null}
            </dd>
            <dt>Expires</dt>
            <dd data-testid="memory-expires">{data.expires_at ?? 'never'}</dd>
            <dt>Feedback</dt>
            <dd data-testid="memory-feedback">
              {data.feedback
                ? `${data.feedback.rating.replace('_', ' ')}${data.feedback.reason ? ` — ${data.feedback.reason}` : ''} (${data.feedback.given_at})`
                : 'none'}
            </dd>
            <dt>Entities</dt>
            <dd>
              <Entities memory={data} />
            </dd>
          </dl>
          {writable ? (
            edit ? (
              <form onSubmit={(event) => void save(event)} aria-label="Edit memory" class="edit">
                <Field label="Content">
                  <textarea
                    name="content"
                    rows={3}
                    required
                    value={edit.content}
                    onInput={(event) => setEdit({ ...edit, content: event.currentTarget.value })}
                  />
                </Field>
                <Field
                  label="Merge strategy"
                  hint="replace: the new text; append: added to the old; smart-merge: the old with the new statements merged in."
                >
                  <select
                    name="merge_strategy"
                    value={edit.merge_strategy}
                    onChange={(event) =>
                      setEdit({ ...edit, merge_strategy: event.currentTarget.value as 'replace' })
                    }
                  >
                    <option value="replace">replace</option>
                    <option value="append">append</option>
                    <option value="smart-merge">smart-merge</option>
                  </select>
                </Field>
                <div class="actions">
                  <button type="button" onClick={() => setEdit(null)}>
                    Cancel
                  </button>
                  <button type="submit" disabled={action.busy}>
                    Save
                  </button>
                </div>
              </form>
            ) : (
              <div class="actions">
                <button
                  type="button"
                  onClick={() => setEdit({ content: data.content, merge_strategy: 'replace' })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  onClick={() => setExpiry(data.expires_at ? data.expires_at.slice(0, 16) : '')}
                >
                  Set expiry
                </button>
                <button type="button" class="danger" onClick={() => setConfirming(true)}>
                  Delete
                </button>
              </div>
            )
          ) : null}
          {writable && expiry !== null ? (
            <form onSubmit={saveExpiry} aria-label="Memory expiry" class="edit">
              <Field
                label="Expires at (UTC)"
                hint="From this instant the memory leaves search, lists and context, and its deletion is appended to the log. Empty: it never expires."
              >
                <input
                  type="datetime-local"
                  name="expires_at"
                  value={expiry}
                  onInput={(event) => setExpiry(event.currentTarget.value)}
                />
              </Field>
              <div class="actions">
                <button type="button" onClick={() => setExpiry(null)}>
                  Cancel
                </button>
                <button type="submit" disabled={action.busy}>
                  Save expiry
                </button>
              </div>
            </form>
          ) : null}
          {writable ? (
            <form
              aria-label="Feedback"
              class="feedback"
              onSubmit={(event) => {
                event.preventDefault()
              }}
            >
              <Field
                label="Reason"
                hint="Optional. Negative feedback ranks the memory lower in search; nothing is deleted."
              >
                <input
                  type="text"
                  name="reason"
                  maxLength={1000}
                  value={reason}
                  onInput={(event) => setReason(event.currentTarget.value)}
                />
              </Field>
              <div class="actions">
                <button type="button" disabled={action.busy} onClick={() => void giveFeedback('positive')}>
                  Useful
                </button>
                <button type="button" disabled={action.busy} onClick={() => void giveFeedback('negative')}>
                  Not useful
                </button>
                <button
                  type="button"
                  disabled={action.busy}
                  onClick={() => void giveFeedback('very_negative')}
                >
                  Wrong
                </button>
                {data.feedback ? (
                  <button type="button" disabled={action.busy} onClick={() => void giveFeedback(null)}>
                    Withdraw feedback
                  </button>
                ) : null}
              </div>
            </form>
          ) : null}
          <ErrorNotice error={action.error} />
          <Done message={action.done} />
        </article>
      ) : null}
      <h2>History</h2>
      <ErrorNotice error={history.error} />
      {history.data ? (
        <Table
          caption="Every change of this memory, oldest first"
          testId="memory-history"
          rows={history.data.changes}
          columns={[
            { title: 'Version', cell: (change) => change.version, numeric: true },
            { title: 'Change', cell: (change) => change.change },
            { title: 'When', cell: (change) => new Date(change.changed_at).toLocaleString() },
            {
              title: 'Cause',
              cell: (change) =>
                change.cause
                  ? [
                      change.cause.kind,
                      change.cause.ingestion_id ?? change.cause.operation ?? change.cause.memory_id,
                    ]
                      .filter(Boolean)
                      .join(' · ')
                  : '—',
            },
            { title: 'Content', cell: (change) => change.content ?? '—' },
            {
              title: 'Feedback',
              cell: (change) => (change.feedback ? change.feedback.rating.replace('_', ' ') : '—'),
            },
          ]}
        />
      ) : null}
      <Confirm
        open={confirming}
        title="Delete this memory?"
        confirmLabel="Delete"
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          The deletion is an event in the log: the memory leaves search and lists, and its history keeps the
          change.
        </p>
      </Confirm>
    </>
  )
}

export function MemoriesPage(props: { api: Api; route: Route }) {
  const memoryId = props.route.rest[0]
  if (memoryId) return <MemoryDetail api={props.api} memoryId={memoryId} />
  return (
    <>
      <h1>Memories</h1>
      <SearchPlayground api={props.api} />
    </>
  )
}
