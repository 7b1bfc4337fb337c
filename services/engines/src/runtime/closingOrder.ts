/**
 * The order a process stops in: its services first (the last one started first), then what they shared (an
 * embedding model, a control-plane read model), then the engine clients. A shared instance is often created by a
 * service's first request, long after every service registered its stop: closed in one list by registration, it
 * would go before the services still using it (a stream's anticipation running into a released model session).
 */
export interface ClosingOrder {
  /** A service's stop: runs before anything shared is closed. */
  onService(close: () => Promise<void>): void
  /** A shared instance's close: runs after every service stopped. */
  onShared(close: () => Promise<void>): void
  /**
   * Runs every stop once, in order; one that fails does not keep the others from running, and the first failure
   * is thrown once all ran.
   */
  close(): Promise<void>
}

export function createClosingOrder(engines: () => Promise<void>): ClosingOrder {
  const services: (() => Promise<void>)[] = []
  const shared: (() => Promise<void>)[] = []
  const last = [engines]
  return {
    onService: (close) => void services.push(close),
    onShared: (close) => void shared.push(close),
    async close() {
      const stops = [...services.splice(0).reverse(), ...shared.splice(0).reverse(), ...last.splice(0)]
      const failures: unknown[] = []
      for (const stop of stops) {
        try {
          await stop()
        } catch (error) {
          failures.push(error)
        }
      }
      if (failures.length > 0) throw failures[0]
    },
  }
}
