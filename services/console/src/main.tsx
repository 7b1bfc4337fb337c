import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import './styles.css'
import { signIn, type Api } from './api.js'
import { ErrorNotice, Field } from './components.js'
import { OverviewPage } from './pages/overview.js'
import { UsagePage } from './pages/usage.js'
import { MemoriesPage } from './pages/memories.js'
import { IngestionPage } from './pages/ingestion.js'
import { ConversationsPage } from './pages/conversations.js'
import { UsersPage } from './pages/users.js'
import { ConfigurationPage } from './pages/configuration.js'

/** The key stays in this tab's sessionStorage: never in a URL, a cookie or localStorage, gone when the tab closes. */
const keyStorage = 'memory-service.console.key'

const pages = [
  { path: 'overview', title: 'Overview', permission: 'analytics:read', Page: OverviewPage },
  { path: 'usage', title: 'Usage', permission: 'analytics:read', Page: UsagePage },
  { path: 'memories', title: 'Memories', permission: 'memories:read', Page: MemoriesPage },
  { path: 'ingestion', title: 'Ingestion', permission: 'memories:read', Page: IngestionPage },
  { path: 'conversations', title: 'Conversations', permission: 'memories:read', Page: ConversationsPage },
  { path: 'users', title: 'Users', permission: 'memories:read', Page: UsersPage },
  { path: 'configuration', title: 'Configuration', permission: 'configs:read', Page: ConfigurationPage },
] as const

export interface Route {
  page: string
  rest: string[]
}

function routeOf(hash: string): Route {
  const [page = 'overview', ...rest] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent)
  return { page: page || 'overview', rest }
}

function SignIn(props: { onSignedIn: (api: Api) => void }) {
  const [key, setKey] = useState('')
  const [error, setError] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const api = await signIn(key.trim())
      sessionStorage.setItem(keyStorage, key.trim())
      props.onSignedIn(api)
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in" id="main">
      <h1>Memory Service console</h1>
      <form onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <Field
          label="API key"
          hint="Kept in this tab only (sessionStorage); every call is made with it, as any client's."
        >
          <input
            type="password"
            name="api-key"
            autoComplete="off"
            required
            value={key}
            onInput={(event) => setKey(event.currentTarget.value)}
          />
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <ErrorNotice error={error} />
    </main>
  )
}

function App() {
  const [api, setApi] = useState<Api | null>(null)
  const [restoring, setRestoring] = useState(() => sessionStorage.getItem(keyStorage) !== null)
  const [route, setRoute] = useState(() => routeOf(location.hash))

  useEffect(() => {
    const onHash = () => setRoute(routeOf(location.hash))
    addEventListener('hashchange', onHash)
    const stored = sessionStorage.getItem(keyStorage)
    if (stored) {
      signIn(stored)
        .then(setApi, () => sessionStorage.removeItem(keyStorage))
        .finally(() => setRestoring(false))
    }
    return () => removeEventListener('hashchange', onHash)
  }, [])

  useEffect(() => {
    const page = pages.find((candidate) => candidate.path === route.page)
    document.title = `${page?.title ?? 'Console'} · Memory Service`
  }, [route.page])

  if (restoring) return <p class="empty">Signing in…</p>
  if (!api) return <SignIn onSignedIn={setApi} />

  const visible = pages.filter((page) => api.can(page.permission))
  const current = visible.find((page) => page.path === route.page) ?? visible[0]
  const signOut = () => {
    sessionStorage.removeItem(keyStorage)
    setApi(null)
  }
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Memory Service</span>
        <nav aria-label="Console pages">
          <ul>
            {visible.map((page) => (
              <li>
                <a href={`#/${page.path}`} aria-current={page === current ? 'page' : undefined}>
                  {page.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who" title={api.key.permissions.join(', ')}>
          {api.key.instance_id} · {api.key.key_prefix}
        </span>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {current ? (
          <current.Page api={api} route={route} />
        ) : (
          <p class="empty">This key may not read any console page.</p>
        )}
      </main>
    </>
  )
}

const root = document.getElementById('app')
if (root) render(<App />, root)
