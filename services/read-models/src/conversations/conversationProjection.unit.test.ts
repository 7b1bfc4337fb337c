import { describe, expect, it } from 'vitest'
import { createAutomaticCompaction, type GrownConversation } from './conversationProjection.js'

const grown = (conversationId: string, tokens = 1000): GrownConversation => ({
  instanceId: 'inst_0123456789abcdef',
  clientId: 'cli_0123456789abcdef',
  conversationId,
  userId: 'u',
  tokens,
})

function harness(maxConcurrent = 2) {
  const timers: (() => void)[] = []
  const running: { conversationId: string; finish(): void }[] = []
  const automatic = createAutomaticCompaction({
    budgetOf: () => 2000,
    maxConcurrent,
    schedule: (look) => timers.push(look),
    warn: () => undefined,
    compactIfOverBudget: (_scope, conversationId) =>
      new Promise<boolean>((resolve) => running.push({ conversationId, finish: () => resolve(true) })),
  })
  const settle = () => {
    for (const look of timers.splice(0)) look()
  }
  return {
    onGrown: (conversations: GrownConversation[]) => automatic.grown(conversations),
    automatic,
    running,
    settle,
  }
}

describe('automatic compaction', () => {
  it('looks at a conversation once a quarter of its budget was added since the last look', () => {
    const { onGrown, running, settle } = harness()
    onGrown([grown('c1', 300)])
    settle()
    expect(running).toHaveLength(0)
    onGrown([grown('c1', 300)])
    settle()
    expect(running.map((entry) => entry.conversationId)).toEqual(['c1'])
  })

  it('compacts at most maxConcurrent conversations at once and the others in turn', async () => {
    const { onGrown, running, settle } = harness(2)
    onGrown(['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => grown(id)))
    settle()
    expect(running.map((entry) => entry.conversationId)).toEqual(['c1', 'c2'])
    running.shift()?.finish()
    await new Promise((resolve) => setImmediate(resolve))
    expect(running.map((entry) => entry.conversationId)).toEqual(['c2', 'c3'])
  })

  it('does not queue a conversation twice while it is being looked at', () => {
    const { onGrown, running, settle } = harness(1)
    onGrown([grown('c1'), grown('c2')])
    onGrown([grown('c2')])
    settle()
    expect(running.map((entry) => entry.conversationId)).toEqual(['c1'])
  })

  it('starts nothing once stopped, and stop waits for the compaction running', async () => {
    const { onGrown, automatic, running, settle } = harness(1)
    onGrown([grown('c1'), grown('c2')])
    settle()
    let stopped = false
    const stopping = automatic.stop().then(() => (stopped = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(stopped).toBe(false)
    running.shift()?.finish()
    await stopping
    expect(running).toHaveLength(0)
    onGrown([grown('c3')])
    settle()
    expect(running).toHaveLength(0)
  })
})
