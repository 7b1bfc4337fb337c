import { useState } from 'preact/hooks'
import type { UserProfile } from '@memory-service/contracts'
import type { Api } from '../api.js'
import type { Route } from '../main.js'
import { ErrorNotice, Field, Table, useSubmit } from '../components.js'

type Fact = UserProfile['subjects'][number]['attributes'][number]

/** A user's profile: each changing attribute's current value (or as of a moment), since when, what it replaced. */
export function UsersPage(props: { api: Api; route: Route }) {
  const { api } = props
  const [form, setForm] = useState({ user_id: props.route.rest[0] ?? '', as_of: '' })
  const answer = useSubmit<UserProfile>()
  const load = (event: Event) => {
    event.preventDefault()
    void answer.run(() =>
      api.get<UserProfile>(`/v1/users/${encodeURIComponent(form.user_id)}/profile`, {
        as_of: form.as_of ? new Date(form.as_of).toISOString() : undefined,
      }),
    )
  }
  const profile = answer.data
  return (
    <>
      <h1>Users</h1>
      <form class="toolbar" onSubmit={load} aria-label="Look up a user's profile">
        <Field label="User id">
          <input
            name="user_id"
            required
            value={form.user_id}
            onInput={(event) => setForm({ ...form, user_id: event.currentTarget.value })}
          />
        </Field>
        <Field label="As of (optional)">
          <input
            type="datetime-local"
            name="as_of"
            value={form.as_of}
            onInput={(event) => setForm({ ...form, as_of: event.currentTarget.value })}
          />
        </Field>
        <button type="submit" disabled={answer.busy}>
          Show profile
        </button>
      </form>
      <ErrorNotice error={answer.error} />
      {profile ? (
        <div data-testid="profile">
          {profile.subjects.length === 0 ? <p class="empty">No fact known of this user.</p> : null}
          {profile.subjects.map(({ subject, attributes }) => (
            <>
              <h2>{subject}</h2>
              <Table<Fact>
                caption={`What holds of ${subject}`}
                rows={attributes}
                columns={[
                  { title: 'Attribute', cell: (fact) => fact.attribute.replace(/_/g, ' ') },
                  { title: 'Value', cell: (fact) => fact.value },
                  { title: 'Since', cell: (fact) => new Date(fact.since).toLocaleDateString() },
                  {
                    title: 'Replaced',
                    cell: (fact) => fact.replaced.map((replaced) => replaced.value).join(', ') || '—',
                  },
                  {
                    title: 'Stated in',
                    cell: (fact) => (
                      <a href={`#/memories/${encodeURIComponent(fact.memory_id)}`}>{fact.content}</a>
                    ),
                  },
                ]}
              />
            </>
          ))}
        </div>
      ) : null}
    </>
  )
}
