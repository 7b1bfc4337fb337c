/**
 * Whether a user has any memory at all, remembered for a while: anticipation asks it for every user turn, and a
 * user with nothing stored (a new user, a benchmark) should cost no search. A user who has memories keeps them, so
 * a yes is kept longer than a no (a no turns into a yes once extraction stored the first memory).
 */
export function createMemoryPresence<Scope>(options: {
  count(scope: Scope): Promise<boolean>
  keyOf(scope: Scope): string
  /** @default 60000 */
  presentForMs?: number
  /** @default 5000 */
  absentForMs?: number
  /** Users remembered at once; the oldest answer goes first. @default 10000 */
  maxEntries?: number
  now?: () => number
}): (scope: Scope) => Promise<boolean> {
  const presentForMs = options.presentForMs ?? 60_000
  const absentForMs = options.absentForMs ?? 5000
  const maxEntries = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const known = new Map<string, { present: boolean; until: number }>()
  const asking = new Map<string, Promise<boolean>>()

  return async (scope) => {
    const key = options.keyOf(scope)
    const cached = known.get(key)
    if (cached && cached.until > now()) return cached.present
    const inFlight = asking.get(key)
    if (inFlight) return inFlight
    const answer = options
      .count(scope)
      .then((present) => {
        known.delete(key)
        known.set(key, { present, until: now() + (present ? presentForMs : absentForMs) })
        if (known.size > maxEntries) known.delete(known.keys().next().value as string)
        return present
      })
      .finally(() => asking.delete(key))
    asking.set(key, answer)
    return answer
  }
}
