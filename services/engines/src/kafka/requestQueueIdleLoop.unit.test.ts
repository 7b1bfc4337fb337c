import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { stopRequestQueueIdleLoop } from './requestQueueIdleLoop.js'

const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as new (
  options: Record<string, unknown>,
) => {
  pending: unknown[]
  throttleCheckTimeoutId: NodeJS.Timeout | null
  scheduleCheckPendingRequests(): void
  destroy(): void
}

const queue = () => {
  const silent = () => undefined
  const logger = { debug: silent, info: silent, warn: silent, error: silent }
  return new RequestQueue({
    instrumentationEmitter: { emit: silent },
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'localhost:9092',
    logger: { namespace: () => logger },
    isConnected: () => true,
  })
}

describe('the request queue of a kafkajs connection', () => {
  it('arms no timer while nothing is pending, and one when a request waits', () => {
    expect(stopRequestQueueIdleLoop()).toBe(true)
    const idle = queue()
    idle.scheduleCheckPendingRequests()
    expect(idle.throttleCheckTimeoutId).toBeNull()
    idle.destroy()

    const waiting = queue()
    waiting.pending.push({})
    waiting.scheduleCheckPendingRequests()
    expect(waiting.throttleCheckTimeoutId).not.toBeNull()
    waiting.destroy()
  })
})
