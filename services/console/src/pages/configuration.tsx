import { useEffect, useMemo, useState } from 'preact/hooks'
import { diffLines } from 'diff'
import { stringify } from 'yaml'
import type { ConfigHistory, ConfigVersion, ConfigVersionList } from '@memory-service/contracts'
import { ApiError, type Api } from '../api.js'
import type { Route } from '../main.js'
import { Done, ErrorNotice, Field, Table, useLoad } from '../components.js'
import { formatChange, formatMs, formatNumber, problemsByLine } from '../format.js'

const yamlOf = (version: ConfigVersion | undefined) =>
  version ? stringify(version.configuration, { sortMapEntries: true }) : ''

/** Two versions' YAML side by side: removed lines on the left, added on the right, unchanged on both. */
function SideBySide(props: { left: ConfigVersion; right: ConfigVersion }) {
  const rows = useMemo(() => {
    const out: {
      left: string | null
      right: string | null
      kind: 'same' | 'removed' | 'added' | 'changed'
    }[] = []
    const parts = diffLines(yamlOf(props.left), yamlOf(props.right))
    for (let index = 0; index < parts.length; index += 1) {
      const part = parts[index]
      if (!part) continue
      const lines = part.value.replace(/\n$/, '').split('\n')
      const next = parts[index + 1]
      if (part.removed && next?.added) {
        const added = next.value.replace(/\n$/, '').split('\n')
        for (let line = 0; line < Math.max(lines.length, added.length); line += 1)
          out.push({ left: lines[line] ?? null, right: added[line] ?? null, kind: 'changed' })
        index += 1
      } else if (part.removed) lines.forEach((line) => out.push({ left: line, right: null, kind: 'removed' }))
      else if (part.added) lines.forEach((line) => out.push({ left: null, right: line, kind: 'added' }))
      else lines.forEach((line) => out.push({ left: line, right: line, kind: 'same' }))
    }
    return out
  }, [props.left, props.right])
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label="Differences">
      <table class="diff" data-testid="config-diff">
        <caption>
          Version {props.left.version} against version {props.right.version}
        </caption>
        <thead>
          <tr>
            <th scope="col">Version {props.left.version}</th>
            <th scope="col">Version {props.right.version}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr class={row.kind}>
              <td class={row.kind === 'removed' || row.kind === 'changed' ? 'del' : undefined}>
                {row.kind !== 'same' && row.left !== null ? (
                  <span class="visually-hidden">removed: </span>
                ) : null}
                <code>{row.left ?? ''}</code>
              </td>
              <td class={row.kind === 'added' || row.kind === 'changed' ? 'ins' : undefined}>
                {row.kind !== 'same' && row.right !== null ? (
                  <span class="visually-hidden">added: </span>
                ) : null}
                <code>{row.right ?? ''}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The proposal editor: a textarea, and under it the text again with the server's problems on the lines they name. */
function ProposeForm(props: { api: Api; initial: string; onProposed: (version: ConfigVersion) => void }) {
  const [text, setText] = useState(props.initial)
  const [problems, setProblems] = useState<{ field: string; message: string; line?: number }[]>([])
  const [error, setError] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  useEffect(() => setText(props.initial), [props.initial])
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    setProblems([])
    try {
      const version = await props.api.send<ConfigVersion>(
        'POST',
        `/instances/${props.api.key.instance_id}/memory-architecture/versions`,
        text,
        'application/yaml',
      )
      props.onProposed(version)
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'CONFIG_VALIDATION_ERROR') {
        setProblems((failure.details.validation_errors as typeof problems | undefined) ?? [])
      } else setError(failure)
    } finally {
      setBusy(false)
    }
  }
  const { byLine, unplaced } = problemsByLine(problems)
  const lines = text.split('\n')
  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Propose a configuration" class="propose">
      <Field
        label="Configuration (YAML)"
        hint="The defaults fill whatever is left out. A proposal waits for review by another key."
      >
        <textarea
          name="configuration"
          rows={Math.min(24, Math.max(8, lines.length + 1))}
          spellcheck={false}
          class="code"
          value={text}
          aria-invalid={problems.length > 0}
          aria-describedby={problems.length > 0 ? 'config-problems' : undefined}
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </Field>
      <button type="submit" disabled={busy}>
        {busy ? 'Proposing…' : 'Propose'}
      </button>
      <ErrorNotice error={error} />
      {problems.length > 0 ? (
        <div id="config-problems" class="problems" role="alert" data-testid="config-problems">
          <p>
            <strong>CONFIG_VALIDATION_ERROR</strong>: {problems.length} problem
            {problems.length === 1 ? '' : 's'}
          </p>
          <ol class="annotated">
            {lines.map((line, index) => {
              const messages = byLine.get(index + 1)
              return messages ? (
                <li value={index + 1} class="problem-line" data-line={index + 1}>
                  <code>{line || ' '}</code>
                  {messages.map((message) => (
                    <span class="problem">{message}</span>
                  ))}
                </li>
              ) : null
            })}
          </ol>
          {unplaced.length > 0 ? (
            <ul>
              {unplaced.map((message) => (
                <li>{message}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  )
}

function RebuildProgress(props: { version: ConfigVersion }) {
  const rebuild = props.version.rebuild
  if (!rebuild) return <>—</>
  return (
    <span>
      {rebuild.status}
      {rebuild.progress
        .map(
          (entry) =>
            ` · ${entry.projection} ${entry.status} (${formatNumber(entry.events_read)} read, ${formatNumber(entry.behind)} behind)`,
        )
        .join('')}
    </span>
  )
}

export function ConfigurationPage(props: { api: Api; route: Route }) {
  const { api } = props
  const base = `/instances/${api.key.instance_id}/memory-architecture`
  const versions = useLoad(() => api.get<ConfigVersionList>(`${base}/versions`, { page_size: 100 }), [])
  const history = useLoad(
    () => api.get<ConfigHistory>(`/dashboard/configs/${api.key.instance_id}/history`),
    [],
  )
  const [compare, setCompare] = useState<{ left?: string; right?: string }>({})
  const [comment, setComment] = useState('')
  const [action, setAction] = useState<{ error?: unknown; done?: string }>({})

  const items = versions.data?.items ?? []
  const active = items.find((version) => version.status === 'active')
  const running = items.some(
    (version) => version.rebuild?.status === 'running' || version.rebuild?.status === 'pending',
  )
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => versions.reload(), 2000)
    return () => clearInterval(timer)
  }, [running])
  useEffect(() => {
    if (items.length >= 2 && !compare.left)
      setCompare({ left: items[1]?.config_id, right: items[0]?.config_id })
  }, [items.length])

  const act = async (label: string, run: () => Promise<unknown>) => {
    setAction({})
    try {
      await run()
      setAction({ done: label })
      versions.reload()
      history.reload()
    } catch (error) {
      setAction({ error })
    }
  }
  const review = (version: ConfigVersion, decision: 'approve' | 'reject') =>
    act(`Version ${String(version.version)} ${decision === 'approve' ? 'approved' : 'rejected'}.`, () =>
      api.send('POST', `${base}/versions/${version.config_id}/review`, {
        decision,
        comment: comment || `${decision} from the console`,
      }),
    )
  const apply = (version: ConfigVersion) =>
    act(`Version ${String(version.version)} applied.`, () =>
      api.send('POST', `${base}/versions/${version.config_id}/apply`),
    )
  const init = () => act('Initialized with the defaults.', () => api.send('POST', `${base}/init`))

  const left = items.find((version) => version.config_id === compare.left)
  const right = items.find((version) => version.config_id === compare.right)
  return (
    <>
      <h1>Configuration</h1>
      <ErrorNotice error={versions.error} />
      <ErrorNotice error={action.error} />
      <Done message={action.done} />
      {versions.data && items.length === 0 ? (
        <p>
          No configuration yet.{' '}
          {api.can('configs:write') ? (
            <button type="button" onClick={() => void init()}>
              Initialize with the defaults
            </button>
          ) : null}
        </p>
      ) : null}
      <h2>Versions</h2>
      {api.can('configs:review') ? (
        <Field label="Review comment">
          <input
            name="review_comment"
            value={comment}
            onInput={(event) => setComment(event.currentTarget.value)}
          />
        </Field>
      ) : null}
      <Table
        caption="Versions, newest first"
        testId="config-versions"
        rows={items}
        columns={[
          { title: 'Version', cell: (version) => version.version, numeric: true },
          {
            title: 'Status',
            cell: (version) => <span class={`status ${version.status}`}>{version.status}</span>,
          },
          {
            title: 'Proposed',
            cell: (version) => `${new Date(version.proposed_at).toLocaleString()} by ${version.proposed_by}`,
          },
          {
            title: 'Review',
            cell: (version) =>
              version.review
                ? `${version.review.decision} by ${version.review.reviewed_by}: ${version.review.comment}`
                : '—',
          },
          { title: 'Rebuild', cell: (version) => <RebuildProgress version={version} /> },
          {
            title: 'Actions',
            cell: (version) => (
              <span class="actions">
                {version.status === 'pending_review' && api.can('configs:review') ? (
                  <>
                    <button
                      type="button"
                      onClick={() => void review(version, 'approve')}
                      aria-label={`Approve version ${String(version.version)}`}
                    >
                      Approve
                    </button>
                    <button
                      type="button"
                      onClick={() => void review(version, 'reject')}
                      aria-label={`Reject version ${String(version.version)}`}
                    >
                      Reject
                    </button>
                  </>
                ) : null}
                {version.status === 'approved' && api.can('configs:apply') ? (
                  <button
                    type="button"
                    onClick={() => void apply(version)}
                    aria-label={`Apply version ${String(version.version)}`}
                  >
                    Apply
                  </button>
                ) : null}
              </span>
            ),
          },
        ]}
      />
      {items.length >= 2 ? (
        <>
          <h2>Compare</h2>
          <div class="toolbar">
            {(['left', 'right'] as const).map((side) => (
              <Field label={side === 'left' ? 'From version' : 'To version'}>
                <select
                  name={`compare_${side}`}
                  value={compare[side]}
                  onChange={(event) => setCompare({ ...compare, [side]: event.currentTarget.value })}
                >
                  {items.map((version) => (
                    <option value={version.config_id}>
                      {version.version} ({version.status})
                    </option>
                  ))}
                </select>
              </Field>
            ))}
          </div>
          {left && right ? <SideBySide left={left} right={right} /> : null}
        </>
      ) : null}
      {api.can('configs:write') && items.length > 0 ? (
        <>
          <h2>Propose a version</h2>
          <ProposeForm
            api={api}
            initial={yamlOf(active)}
            onProposed={(version) => (
              setAction({ done: `Version ${String(version.version)} proposed: it waits for review.` }),
              versions.reload()
            )}
          />
        </>
      ) : null}
      <h2>History</h2>
      {history.data ? (
        <Table
          caption="Every version that was active, newest first, with its usage and the change against the one before"
          testId="config-history"
          rows={history.data.versions}
          columns={[
            { title: 'Version', cell: (entry) => entry.config.version, numeric: true },
            {
              title: 'Active',
              cell: (entry) =>
                `${new Date(entry.usage.from).toLocaleString()} → ${new Date(entry.usage.to).toLocaleString()}`,
            },
            { title: 'API calls', cell: (entry) => formatNumber(entry.usage.api_calls), numeric: true },
            {
              title: 'Errors',
              cell: (entry) => `${formatNumber(entry.usage.error_rate_pct)} %`,
              numeric: true,
            },
            { title: 'p95', cell: (entry) => formatMs(entry.usage.latency_ms.p95), numeric: true },
            { title: 'Memories', cell: (entry) => formatNumber(entry.usage.memories_stored), numeric: true },
            {
              title: 'p95 change',
              cell: (entry) =>
                entry.compared_to_previous
                  ? formatChange(entry.compared_to_previous.latency_p95_change_pct).text
                  : '—',
            },
            {
              title: 'Calls change',
              cell: (entry) =>
                entry.compared_to_previous
                  ? formatChange(entry.compared_to_previous.api_calls_change_pct).text
                  : '—',
            },
          ]}
        />
      ) : history.error instanceof ApiError && history.error.code === 'CONFIG_NOT_FOUND' ? (
        <p class="empty">No version was active yet.</p>
      ) : (
        <ErrorNotice error={history.error} />
      )}
    </>
  )
}
