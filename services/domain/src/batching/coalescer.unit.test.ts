import { describe, expect, it } from 'vitest'
import { createCoalescer } from './coalescer.js'

/** A coalescer whose runs wait until released, recording what each run held. */
function gatedCoalescer(
  maxSize: number,
  sizeOf: (request: string) => number = () => 1,
  mergeSameTurn = false,
) {
  const runs: string[][] = []
  const releases: (() => void)[] = []
  const coalesce = createCoalescer<string, string>({
    maxSize,
    sizeOf,
    mergeSameTurn,
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
  /** Lets the run of what was asked so far start (runs start once the turn that asked is over). */
  const started = async () => {
    for (let round = 0; round < 10 && runs.length === 0; round += 1) await Promise.resolve()
  }
  return { coalesce, runs, releaseNext, started }
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

  it('with mergeSameTurn, merges the requests asked in one turn too', async () => {
    const { coalesce, runs, releaseNext, started } = gatedCoalescer(2, () => 1, true)
    const results = [coalesce('a'), coalesce('b'), coalesce('c')]
    await started()
    results.push(coalesce('d'))
    await releaseNext()
    await releaseNext()
    expect(await Promise.all(results)).toEqual(['A', 'B', 'C', 'D'])
    expect(runs).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
  })

  it('puts an urgent request before every request that is not, after the urgent ones already waiting', async () => {
    const { coalesce, runs, releaseNext, started } = gatedCoalescer(2)
    const results = [coalesce('bulk-1')]
    await started()
    results.push(
      coalesce('bulk-2'),
      coalesce('bulk-3'),
      coalesce('urgent-1', true),
      coalesce('urgent-2', true),
    )
    await releaseNext()
    await releaseNext()
    await releaseNext()
    await releaseNext()
    await Promise.all(results)
    expect(runs).toEqual([['bulk-1'], ['urgent-1', 'urgent-2'], ['bulk-2', 'bulk-3']])
  })

  it('takes turns between owners: one with a backlog does not hold another', async () => {
    const { coalesce, runs, releaseNext, started } = gatedCoalescer(1)
    const results = [coalesce('b-1', true, 'B')]
    await started()
    results.push(
      coalesce('b-2', true, 'B'),
      coalesce('b-3', true, 'B'),
      coalesce('b-4', true, 'B'),
      coalesce('c-1', true, 'C'),
      coalesce('c-2', true, 'C'),
    )
    for (let run = 0; run < 6; run += 1) await releaseNext()
    await Promise.all(results)
    expect(runs).toEqual([['b-1'], ['b-2'], ['c-1'], ['b-3'], ['c-2'], ['b-4']])
  })

  it("serves one owner's short request before another's long one that arrived first", async () => {
    const { coalesce, runs, releaseNext, started } = gatedCoalescer(8, (request) => request.length)
    const results = [coalesce('running', true, 'B')]
    await started()
    results.push(coalesce('compaction', true, 'B'), coalesce('one', true, 'C'), coalesce('bulk', false, 'A'))
    for (let run = 0; run < 4; run += 1) await releaseNext()
    await Promise.all(results)
    // Urgent before bulk whatever the shares; among the urgent, C's 3 before B's 10.
    expect(runs).toEqual([['running'], ['one'], ['compaction'], ['bulk']])
  })
})
