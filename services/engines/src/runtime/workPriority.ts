/**
 * Whether the work under way is urgent — an interactive document of the pipeline (docs/decisions.md, "Interactive
 * and bulk lanes") — carried through the calls it makes without passing it down every port: what is shared by both
 * lanes (the embedding model's queue) serves urgent work first.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const urgency = new AsyncLocalStorage<boolean>()

/** Runs `work` (and everything it calls) as urgent, or not. */
export const withUrgency = <T>(urgent: boolean, work: () => Promise<T>): Promise<T> =>
  urgency.run(urgent, work)

/** Whether the caller runs inside urgent work. */
export const isUrgentWork = (): boolean => urgency.getStore() ?? false
