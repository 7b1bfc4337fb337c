/**
 * Whose work is under way and whether it is urgent — an interactive document of the pipeline (docs/decisions.md,
 * "Interactive and bulk lanes") — carried through the calls it makes without passing it down every port: what is
 * shared (the embedding model's queue) serves urgent work first, and shares itself fairly between owners.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

interface Work {
  urgent: boolean
  /** Who the work is for (an instance): shared queues take turns between owners. */
  owner?: string
}

const current = new AsyncLocalStorage<Work>()

/** Runs `work` (and everything it calls) as urgent, or not, for its owner. */
export const withUrgency = <T>(urgent: boolean, work: () => Promise<T>, owner?: string): Promise<T> =>
  current.run(owner === undefined ? { urgent } : { urgent, owner }, work)

/** Whether the caller runs inside urgent work. */
export const isUrgentWork = (): boolean => current.getStore()?.urgent ?? false

/** Whom the caller's work is for, when it says. */
export const ownerOfWork = (): string | undefined => current.getStore()?.owner
