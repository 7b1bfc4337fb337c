/**
 * Merges concurrent requests into one call. While a call runs, the requests that arrive wait; then they go
 * together, up to `maxSize` (measured by `sizeOf`). With `mergeSameTurn`, the requests made in the same turn of the
 * event loop go together too (a search that embeds two questions at once pays one model call); without it the first
 * request of an idle coalescer runs at once (a produce request waits for nothing). If a merged call fails, each of its requests is run alone, so a
 * request that cannot succeed fails only its own caller.
 *
 * What waits is served urgent first, then in fair shares between owners: each request ranks by the size its owner
 * has queued up to and including it (weighted fair queuing with every owner's weight equal), arrival breaking ties.
 * An owner with one short request is served before another's long backlog, and owners with backlogs alternate.
 */
export function createCoalescer<Request, Result>(options: {
  run(requests: Request[]): Promise<Result[]>
  sizeOf(request: Request): number
  maxSize: number
  mergeSameTurn?: boolean
}): (request: Request, urgent?: boolean, owner?: string) => Promise<Result> {
  let queue: {
    request: Request
    urgent: boolean
    owner: string | undefined
    resolve(result: Result): void
    reject(error: unknown): void
  }[] = []
  let running = false

  /** The queue in serving order: urgent first, then by each owner's queued size up to the request, then arrival. */
  function inServingOrder(): void {
    const queuedBy = new Map<string | undefined, number>()
    const ranked = queue.map((entry, arrival) => {
      const share = (queuedBy.get(entry.owner) ?? 0) + options.sizeOf(entry.request)
      queuedBy.set(entry.owner, share)
      return { entry, arrival, share }
    })
    ranked.sort(
      (a, b) => Number(b.entry.urgent) - Number(a.entry.urgent) || a.share - b.share || a.arrival - b.arrival,
    )
    queue = ranked.map(({ entry }) => entry)
  }

  async function runAlone(entry: (typeof queue)[number]): Promise<void> {
    try {
      const [result] = await options.run([entry.request])
      entry.resolve(result as Result)
    } catch (error) {
      entry.reject(error)
    }
  }

  async function drain(): Promise<void> {
    running = true
    while (queue.length > 0) {
      inServingOrder()
      const batch: typeof queue = []
      let size = 0
      while (queue.length > 0) {
        const next = queue[0] as (typeof queue)[number]
        if (batch.length > 0 && size + options.sizeOf(next.request) > options.maxSize) break
        batch.push(next)
        queue.shift()
        size += options.sizeOf(next.request)
      }
      if (batch.length === 1) {
        await runAlone(batch[0] as (typeof queue)[number])
        continue
      }
      try {
        const results = await options.run(batch.map((entry) => entry.request))
        batch.forEach((entry, position) => entry.resolve(results[position] as Result))
      } catch {
        for (const entry of batch) await runAlone(entry)
      }
    }
    running = false
  }

  // An urgent request waits only behind the run under way and the urgent ones ranked before it.
  return (request, urgent = false, owner) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ request, urgent, owner, resolve, reject })
      if (running) return
      running = true
      if (options.mergeSameTurn) queueMicrotask(() => void drain())
      else void drain()
    })
}
