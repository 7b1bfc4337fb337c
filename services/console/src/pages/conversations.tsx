import { useState } from 'preact/hooks'
import type { Compaction, ConversationContext } from '@memory-service/contracts'
import type { Api } from '../api.js'
import type { Route } from '../main.js'
import { ErrorNotice, Field, Table, useSubmit } from '../components.js'
import { formatNumber } from '../format.js'

export function ConversationsPage(props: { api: Api; route: Route }) {
  const { api } = props
  const [form, setForm] = useState({
    conversation_id: props.route.rest[0] ?? '',
    user_id: '',
    query: '',
    max_tokens: 2000,
  })
  const answer = useSubmit<{ context: ConversationContext; compaction?: Compaction }>()
  const path = `/v1/conversations/${encodeURIComponent(form.conversation_id)}`
  const contextOf = (query?: string) =>
    api.get<ConversationContext>(`${path}/context`, {
      user_id: form.user_id,
      query: query || undefined,
      max_tokens: form.max_tokens,
    })
  const load = (event: Event) => {
    event.preventDefault()
    void answer.run(async () => ({ context: await contextOf(form.query) }))
  }
  const compact = () =>
    answer.run(async () => {
      const compaction = await api.send<Compaction>('POST', `${path}/compact`, { user_id: form.user_id })
      return { compaction, context: await contextOf() }
    })
  const context = answer.data?.context
  return (
    <>
      <h1>Conversations</h1>
      <form class="toolbar" onSubmit={load} aria-label="Look up a conversation">
        <Field label="Conversation id">
          <input
            name="conversation_id"
            required
            value={form.conversation_id}
            onInput={(event) => setForm({ ...form, conversation_id: event.currentTarget.value })}
          />
        </Field>
        <Field label="User id">
          <input
            name="user_id"
            required
            value={form.user_id}
            onInput={(event) => setForm({ ...form, user_id: event.currentTarget.value })}
          />
        </Field>
        <Field label="Query (optional)">
          <input
            name="query"
            value={form.query}
            onInput={(event) => setForm({ ...form, query: event.currentTarget.value })}
          />
        </Field>
        <Field label="Token budget">
          <input
            type="number"
            name="max_tokens"
            min={1}
            value={form.max_tokens}
            onInput={(event) => setForm({ ...form, max_tokens: Number(event.currentTarget.value) })}
          />
        </Field>
        <button type="submit" disabled={answer.busy}>
          Preview context
        </button>
        {api.can('events:write') ? (
          <button
            type="button"
            disabled={answer.busy || !form.conversation_id || !form.user_id}
            onClick={() => void compact()}
          >
            Compact now
          </button>
        ) : null}
      </form>
      <ErrorNotice error={answer.error} />
      {answer.data?.compaction ? (
        <p class="notice" role="status">
          Compaction: {answer.data.compaction.status}, {answer.data.compaction.compacted_turns} turns folded
          {answer.data.compaction.compression_ratio !== null
            ? `, ratio ${formatNumber(answer.data.compaction.compression_ratio)}`
            : ''}
        </p>
      ) : null}
      {context ? (
        <div data-testid="context">
          <p class="sub" role="status">
            {formatNumber(context.tokens_used)} of {formatNumber(context.token_budget)} tokens ·{' '}
            {context.recent_turns.length} recent turns · {context.omitted_turns} left out ·{' '}
            {context.memories.length} memories · {formatNumber(context.took_ms)} ms
          </p>
          <h2>Summary</h2>
          {context.summary ? (
            <>
              <p class="summary">{context.summary.text}</p>
              <p class="sub">
                {context.summary.compacted_turns} turns compacted · ratio{' '}
                {formatNumber(context.summary.compression_ratio)} · validation{' '}
                {formatNumber(context.summary.validation_score)} ·{' '}
                {new Date(context.summary.compacted_at).toLocaleString()}
              </p>
            </>
          ) : (
            <p class="empty">Not compacted yet.</p>
          )}
          <h2>Recent turns</h2>
          <ol class="turns">
            {context.recent_turns.map((turn) => (
              <li class={`turn ${turn.role}`}>
                <span class="role">{turn.role}</span>{' '}
                <time>{new Date(turn.occurred_at).toLocaleString()}</time>
                <p>{turn.content}</p>
              </li>
            ))}
          </ol>
          <h2>Memories in the context</h2>
          <Table
            caption="Long-term memories fitted into the budget"
            rows={context.memories}
            empty="None fitted or none relevant."
            columns={[
              { title: 'Score', cell: (memory) => memory.score.toFixed(3), numeric: true },
              {
                title: 'Memory',
                cell: (memory) => (
                  <a href={`#/memories/${encodeURIComponent(memory.id)}`}>{memory.content}</a>
                ),
              },
            ]}
          />
        </div>
      ) : null}
    </>
  )
}
