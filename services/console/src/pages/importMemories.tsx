import { useState } from 'preact/hooks'
import type { MemoryImportResponse } from '@memory-service/contracts'
import type { Api } from '../api.js'
import { Done, ErrorNotice, Field, Table } from '../components.js'

const formats = ['memory-service', 'mem0', 'zep'] as const

/** What one import did, in a sentence a screen reader announces. */
function summaryOf(response: MemoryImportResponse): string {
  const count = (status: string) => response.results.filter((result) => result.status === status).length
  return `Imported ${String(count('queued'))}, already imported ${String(count('duplicate'))}, skipped ${String(
    response.skipped.length,
  )}, refused ${String(response.errors.length)}.`
}

/**
 * Import a file of memories (docs/api/import.md): JSON Lines, or JSON as the source returned it. The file is read in
 * the browser and sent as it is; the answer is summarised and its refused records listed with the key at fault.
 */
export function ImportMemories(props: { api: Api }) {
  const [format, setFormat] = useState<(typeof formats)[number]>('memory-service')
  const [userId, setUserId] = useState('')
  const [file, setFile] = useState<File | undefined>(undefined)
  const [state, setState] = useState<{ response?: MemoryImportResponse; error?: unknown; busy: boolean }>({
    busy: false,
  })
  if (!props.api.can('memories:write')) return null

  async function submit(event: Event) {
    event.preventDefault()
    if (!file) return
    setState({ busy: true })
    try {
      const text = await file.text()
      const query = new URLSearchParams({ format, ...(userId ? { user_id: userId } : {}) })
      const lines = /\.(jsonl|ndjson)$/i.test(file.name)
      const response = await props.api.send<MemoryImportResponse>(
        'POST',
        `/v1/memories/import?${query.toString()}`,
        text,
        lines ? 'application/x-ndjson' : 'application/json',
      )
      setState({ response, busy: false })
    } catch (error) {
      setState({ error, busy: false })
    }
  }

  const refused = state.response?.errors ?? []
  return (
    <section class="card" aria-labelledby="import-title" data-testid="import-memories">
      <h2 id="import-title">Import memories</h2>
      <p class="field-hint">
        Up to 1 000 records, stored as given: JSON Lines (<code>.jsonl</code>) or JSON, in our format or as
        mem0 or Zep return theirs. A record imported before is not imported again.
      </p>
      <form class="toolbar" onSubmit={(event) => void submit(event)}>
        <Field label="File">
          <input
            type="file"
            name="file"
            accept=".json,.jsonl,.ndjson,application/json"
            onChange={(event) => setFile(event.currentTarget.files?.[0])}
          />
        </Field>
        <Field label="Format">
          <select
            name="format"
            value={format}
            onChange={(event) => setFormat(event.currentTarget.value as (typeof formats)[number])}
          >
            {formats.map((name) => (
              <option value={name}>{name}</option>
            ))}
          </select>
        </Field>
        <Field label="User id" hint="for records that name none">
          <input name="user_id" value={userId} onInput={(event) => setUserId(event.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={!file || state.busy}>
          {state.busy ? 'Importing…' : 'Import'}
        </button>
      </form>
      <ErrorNotice error={state.error} />
      <Done message={state.response ? summaryOf(state.response) : undefined} />
      {refused.length > 0 ? (
        <Table
          caption="Refused records"
          testId="import-errors"
          rows={refused}
          columns={[
            { title: 'Record', cell: (error) => String(error.index), numeric: true },
            { title: 'Code', cell: (error) => <code>{error.code}</code> },
            {
              title: 'Problem',
              cell: (error) =>
                Object.entries((error.details.fields ?? {}) as Record<string, string>).map(
                  ([field, problem]) => (
                    <>
                      <code>{field}</code> {problem}{' '}
                    </>
                  ),
                ),
            },
          ]}
        />
      ) : null}
    </section>
  )
}
