import { describe, expect, it } from 'vitest'
import { createClosingOrder } from './closingOrder.js'

describe('createClosingOrder', () => {
  it('stops the services before what they share, even a shared instance created after them, then the engines', async () => {
    const closed: string[] = []
    const stop = (name: string) => () => Promise.resolve(void closed.push(name))
    const order = createClosingOrder(stop('engines'))
    order.onShared(stop('control plane'))
    order.onService(stop('pipeline'))
    order.onService(stop('gateway'))
    // Opened by the gateway's first anticipation, after every service registered its stop.
    order.onShared(stop('anticipation model'))
    await order.close()
    expect(closed).toEqual(['gateway', 'pipeline', 'anticipation model', 'control plane', 'engines'])
  })

  it('runs every stop when one fails, throws the first failure, and closes nothing twice', async () => {
    const closed: string[] = []
    const order = createClosingOrder(() => Promise.resolve(void closed.push('engines')))
    const failure = new Error('broker gone')
    order.onShared(() => Promise.resolve(void closed.push('model')))
    order.onService(() => Promise.reject(new Error('stopped later')))
    order.onService(() => Promise.reject(failure))
    await expect(order.close()).rejects.toBe(failure)
    expect(closed).toEqual(['model', 'engines'])
    await order.close()
    expect(closed).toEqual(['model', 'engines'])
  })
})
