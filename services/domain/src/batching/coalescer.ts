/**
 * Merges concurrent requests into one call. While a call runs, the requests that arrive wait; then they go
 * together, up to `maxSize` (measured by `sizeOf`). If a merged call fails, each of its requests is run alone, so a
 * request that cannot succeed fails only its own caller.
 */
export function createCoalescer<Request, Result>(options: {
  run(requests: Request[]): Promise<Result[]>
  sizeOf(request: Request): number
  maxSize: number
}): (request: Request, urgent?: boolean) => Promise<Result> {
  const queue: {
    request: Request
    urgent: boolean
    resolve(result: Result): void
    reject(error: unknown): void
  }[] = []
  let running = false

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

  // An urgent request waits only behind the run under way and the urgent ones before it.
  return (request, urgent = false) =>
    new Promise<Result>((resolve, reject) => {
      const entry = { request, urgent, resolve, reject }
      const firstNotUrgent = urgent ? queue.findIndex((waiting) => !waiting.urgent) : -1
      if (firstNotUrgent < 0) queue.push(entry)
      else queue.splice(firstNotUrgent, 0, entry)
      if (!running) void drain()
    })
}
