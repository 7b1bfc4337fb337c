/**
 * The bulk lane's backlog as the batch route reports it (`bulk_queued`): the documents of the bulk lane accepted and
 * not formed yet, read from the bulk consumer group's lag. One read every `maxAgeMs` at most, shared by the requests
 * that arrive meanwhile, so a stream of batches costs Kafka one offsets request per period, not one per batch.
 */
export function createBulkBacklog(
  readLag: () => Promise<number | null>,
  options: { maxAgeMs?: number; now?: () => number } = {},
): () => Promise<number | null> {
  const maxAgeMs = options.maxAgeMs ?? 2_000
  const now = options.now ?? Date.now
  let last: { value: number | null; at: number } | undefined
  let reading: Promise<number | null> | undefined
  return () => {
    if (last && now() - last.at <= maxAgeMs) return Promise.resolve(last.value)
    reading ??= readLag()
      .catch(() => null)
      .then((value) => {
        last = { value, at: now() }
        reading = undefined
        return value
      })
    return reading
  }
}
