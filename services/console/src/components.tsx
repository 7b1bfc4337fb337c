import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from './api.js'

/** Loads on mount and whenever `deps` change; keeps the last answer while reloading so screens do not flicker. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { data: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let current = true
    setState((previous) => ({ ...previous, loading: true }))
    load().then(
      (data) => current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => current && setState((previous) => ({ data: previous.data, error, loading: false })),
    )
    return () => {
      current = false
    }
  }, [...deps, tick])
  return { ...state, reload: () => setTick((value) => value + 1) }
}

/**
 * A request a form sends when submitted: its last answer, the error of the last attempt, and whether one is under
 * way. The last answer stays on screen while the next is fetched and when it fails.
 */
export function useSubmit<T>(): {
  data: T | undefined
  error: unknown
  busy: boolean
  run: (send: () => Promise<T>) => Promise<void>
} {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; busy: boolean }>({
    data: undefined,
    error: undefined,
    busy: false,
  })
  const run = async (send: () => Promise<T>) => {
    setState((previous) => ({ ...previous, error: undefined, busy: true }))
    try {
      const data = await send()
      setState({ data, error: undefined, busy: false })
    } catch (error) {
      setState((previous) => ({ ...previous, error, busy: false }))
    }
  }
  return { ...state, run }
}

/** An API error as the spec reports it: its code first (what a reader can search the docs for), then the message. */
/** The fields a 400 names (`details.fields`), which say what to change. */
function fieldsOf(error: ApiError): [string, string][] {
  const fields = error.details.fields
  return typeof fields === 'object' && fields !== null
    ? Object.entries(fields).map(([field, problem]) => [field, String(problem)])
    : []
}

export function ErrorNotice(props: { error: unknown }) {
  if (props.error === undefined || props.error === null) return null
  const error = props.error
  return (
    <div class="notice error" role="alert">
      {error instanceof ApiError ? (
        <>
          <strong>{error.code}</strong> ({error.status}) {error.message}
          {fieldsOf(error).map(([field, problem]) => (
            <>
              <br />
              <code>{field}</code> {problem}
            </>
          ))}
        </>
      ) : (
        <>{error instanceof Error ? error.message : JSON.stringify(error)}</>
      )}
    </div>
  )
}

/** Hands a downloaded file to the browser, as a link the user clicked would. */
export function saveBlob(blob: Blob, fileName: string): void {
  const link = document.createElement('a')
  link.href = URL.createObjectURL(blob)
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
}

/** What an action did, announced to screen readers (a polite live region). */
export function Done(props: { message: string | undefined }) {
  if (!props.message) return null
  return (
    <p class="notice" role="status">
      {props.message}
    </p>
  )
}

export function Field(props: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    <label class="field">
      <span class="field-label">{props.label}</span>
      {props.children}
      {props.hint ? <span class="field-hint">{props.hint}</span> : null}
    </label>
  )
}

export function Card(props: { title: string; children: ComponentChildren; testId?: string }) {
  return (
    <section class="card" aria-label={props.title} data-testid={props.testId}>
      <h3>{props.title}</h3>
      {props.children}
    </section>
  )
}

export function Progress(props: { label: string; value: number }) {
  const percent = Math.round(props.value * 100)
  return (
    <div class="progress">
      <span class="progress-label">{props.label}</span>
      <progress max={100} value={percent} aria-label={`${props.label} ${String(percent)} %`} />
      <span class="progress-value">{percent} %</span>
    </div>
  )
}

/** A modal confirmation (the native dialog: focus trapped, Escape cancels). */
export function Confirm(props: {
  open: boolean
  title: string
  children: ComponentChildren
  confirmLabel: string
  onConfirm: () => void
  onCancel: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (props.open && !element.open) element.showModal()
    if (!props.open && element.open) element.close()
  }, [props.open])
  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-title"
      onCancel={(event) => (event.preventDefault(), props.onCancel())}
    >
      <h3 id="confirm-title">{props.title}</h3>
      <div>{props.children}</div>
      <div class="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  )
}

export function Table<Row>(props: {
  caption: string
  columns: { title: string; cell: (row: Row) => ComponentChildren; numeric?: boolean }[]
  rows: Row[]
  empty?: string
  testId?: string
}) {
  if (props.rows.length === 0) return <p class="empty">{props.empty ?? 'Nothing to show.'}</p>
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={props.caption}>
      <table data-testid={props.testId}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col" class={column.numeric ? 'numeric' : undefined}>
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr>
              {props.columns.map((column) => (
                <td class={column.numeric ? 'numeric' : undefined}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
