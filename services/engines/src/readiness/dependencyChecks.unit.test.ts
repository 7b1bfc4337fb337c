import { describe, expect, it } from 'vitest'
import { waitForDependencies, type DependencyProbe } from './dependencyChecks.js'

/** A clock that moves only when the wait sleeps, and a probe down for its first `failures` calls. */
function setting(failures: number) {
  let clock = 0
  let calls = 0
  const probe: DependencyProbe = () => {
    calls += 1
    return calls <= failures ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve('9.5.4')
  }
  return {
    probe,
    calls: () => calls,
    options: {
      now: () => clock,
      sleep: (ms: number) => {
        clock += ms
        return Promise.resolve()
      },
    },
  }
}

describe('waiting for dependencies at start', () => {
  it('answers ready at once when every dependency answers', async () => {
    const { probe, calls, options } = setting(0)
    const readiness = await waitForDependencies({ elasticsearch: probe, kafka: probe }, options)
    expect(readiness.status).toBe('ready')
    expect(calls()).toBe(2)
  })

  it('probes again after a pause while one is down, and says so each round', async () => {
    const { probe, options } = setting(3)
    const rounds: number[] = []
    const readiness = await waitForDependencies(
      { elasticsearch: probe },
      { ...options, pauseMs: 2_000, onNotReady: (_, round) => rounds.push(round) },
    )
    expect(readiness.status).toBe('ready')
    expect(rounds).toEqual([1, 2, 3])
  })

  it('gives up with the last round once the window has passed', async () => {
    const { probe, calls, options } = setting(Number.POSITIVE_INFINITY)
    const readiness = await waitForDependencies(
      { kafka: probe },
      { ...options, withinMs: 10_000, pauseMs: 3_000 },
    )
    expect(readiness.status).toBe('not_ready')
    expect(readiness.checks[0]).toMatchObject({
      name: 'kafka',
      status: 'down',
      error: 'connect ECONNREFUSED',
    })
    // Probed at 0, 3, 6 and 9 s, then once more at 10 s, the end of the window: never after it.
    expect(calls()).toBe(5)
    expect(options.now()).toBe(10_000)
  })
})
