import { describe, expect, it } from 'vitest'
import { RetriesExhausted, withRetry } from './retry.js'

const transient = (error: unknown) => error instanceof Error && error.message.startsWith('transient')

describe('withRetry', () => {
  it('retries transient failures with doubling, jittered delays, then succeeds', async () => {
    const delays: number[] = []
    const result = await withRetry(
      async (attempt) => {
        if (attempt < 3) throw new Error('transient: busy')
        return attempt
      },
      transient,
      { maxAttempts: 5, baseDelayMs: 100, sleep: async (ms) => void delays.push(ms), random: () => 1 },
    )
    expect(result).toBe(3)
    expect(delays).toEqual([100, 200])
  })

  it('gives up after maxAttempts and says how many were made', async () => {
    let calls = 0
    const failing = withRetry(
      async () => {
        calls += 1
        throw new Error('transient: down')
      },
      transient,
      { maxAttempts: 3, baseDelayMs: 1, sleep: async () => undefined },
    )
    await expect(failing).rejects.toBeInstanceOf(RetriesExhausted)
    await expect(failing).rejects.toMatchObject({ attempts: 3 })
    expect(calls).toBe(3)
  })

  it('does not retry a permanent failure', async () => {
    let calls = 0
    await expect(
      withRetry(
        async () => {
          calls += 1
          throw new Error('permanent: malformed')
        },
        transient,
        { maxAttempts: 5, baseDelayMs: 1, sleep: async () => undefined },
      ),
    ).rejects.toThrow('permanent: malformed')
    expect(calls).toBe(1)
  })
})
