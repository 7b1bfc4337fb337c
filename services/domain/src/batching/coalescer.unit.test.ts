import { describe, expect, it } from 'vitest'
import { createCoalescer } from './coalescer.js'

/** A coalescer whose runs wait until released, recording what each run held. */
function gatedCoalescer(maxSize: number) {
  const runs: string[][] = []
  const releases: (() => void)[] = []
  const coalesce = createCoalescer<string, string>({
    maxSize,
    sizeOf: () => 1,
    run: async (requests) => {
      runs.push(requests)
      await new Promise<void>((resolve) => releases.push(resolve))
      return requests.map((request) => request.toUpperCase())
    },
  })
  const releaseNext = async () => {
    for (let round = 0; round < 10 && releases.length === 0; round += 1) await Promise.resolve()
    releases.shift()?.()
  }
  return { coalesce, runs, releaseNext }
}

describe('the coalescer', () => {
  it('merges the requests that arrive while a run is under way, up to its size', async () => {
    const { coalesce, runs, releaseNext } = gatedCoalescer(2)
    const results = [coalesce('a'), coalesce('b'), coalesce('c'), coalesce('d')]
    await releaseNext()
    await releaseNext()
    await releaseNext()
    expect(await Promise.all(results)).toEqual(['A', 'B', 'C', 'D'])
    expect(runs).toEqual([['a'], ['b', 'c'], ['d']])
  })

  it('puts an urgent request before every request that is not, after the urgent ones already waiting', async () => {
    const { coalesce, runs, releaseNext } = gatedCoalescer(2)
    const results = [
      coalesce('bulk-1'),
      coalesce('bulk-2'),
      coalesce('bulk-3'),
      coalesce('urgent-1', true),
      coalesce('urgent-2', true),
    ]
    await releaseNext()
    await releaseNext()
    await releaseNext()
    await releaseNext()
    await Promise.all(results)
    expect(runs).toEqual([['bulk-1'], ['urgent-1', 'urgent-2'], ['bulk-2', 'bulk-3']])
  })
})
