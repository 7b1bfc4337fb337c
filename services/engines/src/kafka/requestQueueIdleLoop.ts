import { createRequire } from 'node:module'

interface RequestQueuePrototype {
  pending: unknown[]
  scheduleCheckPendingRequests: (this: RequestQueuePrototype) => void
}

/**
 * kafkajs 2.2.4 (its last release) re-arms a timer of less than a millisecond after every check of a connection's
 * queue of pending requests, whether anything is pending or not (tulios/kafkajs#1556, fix proposed in #1667 and
 * not released): each broker connection of each client spins its event loop about a thousand times a second. With
 * the dozens of connections of `npm start` (consumers, producers, admins of every projection) an idle service kept
 * 40–70 % of a core busy, taken from the gateways and the model beside it. With nothing pending there is nothing
 * to check: a request that must wait is pushed onto the queue, which schedules its own check, and a finished
 * request checks the queue itself. Applied once per thread, when this module is loaded, before any connection.
 */
export function stopRequestQueueIdleLoop(): boolean {
  const require = createRequire(import.meta.url)
  const { prototype } = require('kafkajs/src/network/requestQueue/index.js') as {
    prototype: RequestQueuePrototype & { idleLoopStopped?: boolean }
  }
  if (prototype.idleLoopStopped) return true
  const schedule = prototype.scheduleCheckPendingRequests
  if (typeof schedule !== 'function') return false
  prototype.scheduleCheckPendingRequests = function scheduleWhenPending(this: RequestQueuePrototype) {
    if (this.pending.length > 0) schedule.call(this)
  }
  prototype.idleLoopStopped = true
  return true
}
