import { describe, expect, it } from 'vitest'
import { createMemoryPresence } from './memoryPresence.js'

function harness(answers: boolean[]) {
  let clock = 0
  const asked: string[] = []
  const hasMemories = createMemoryPresence<string>({
    keyOf: (user) => user,
    count: async (user) => {
      asked.push(user)
      return answers.shift() ?? false
    },
    presentForMs: 60_000,
    absentForMs: 5000,
    now: () => clock,
  })
  return { hasMemories, asked, advance: (ms: number) => (clock += ms) }
}

describe('memory presence', () => {
  it('asks once for concurrent questions about the same user', async () => {
    const { hasMemories, asked } = harness([true])
    expect(await Promise.all([hasMemories('u'), hasMemories('u'), hasMemories('u')])).toEqual([
      true,
      true,
      true,
    ])
    expect(asked).toEqual(['u'])
  })

  it('remembers a no for absentForMs and a yes for presentForMs', async () => {
    const { hasMemories, asked, advance } = harness([false, true, true])
    expect(await hasMemories('u')).toBe(false)
    advance(4999)
    expect(await hasMemories('u')).toBe(false)
    advance(2)
    expect(await hasMemories('u')).toBe(true)
    advance(59_999)
    expect(await hasMemories('u')).toBe(true)
    expect(asked).toEqual(['u', 'u'])
    advance(2)
    await hasMemories('u')
    expect(asked).toEqual(['u', 'u', 'u'])
  })
})
