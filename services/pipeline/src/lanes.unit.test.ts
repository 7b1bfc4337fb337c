import { describe, expect, it } from 'vitest'
import { createLaneScheduler } from './lanes.js'

/** Whether a promise has settled by the time the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false
  void promise.then(() => (done = true))
  for (let round = 0; round < 5; round += 1) await Promise.resolve()
  return done
}

describe('the pipeline lanes', () => {
  it('let a bulk stage go at once while no interactive document needs the processor', async () => {
    const lanes = createLaneScheduler()
    expect(await settled(lanes.bulkTurns().waitTurn())).toBe(true)
  })

  it('hold every bulk stage back until the last interactive document is done with the processor', async () => {
    const lanes = createLaneScheduler()
    const first = lanes.interactiveTurns()
    const second = lanes.interactiveTurns()
    const bulk = [lanes.bulkTurns().waitTurn(), lanes.bulkTurns().waitTurn()]
    expect(lanes.state()).toEqual({ interactive: 2, heldBack: 2 })
    first.doneWithProcessor()
    expect(await settled(Promise.all(bulk))).toBe(false)
    second.doneWithProcessor()
    expect(await settled(Promise.all(bulk))).toBe(true)
    expect(lanes.state()).toEqual({ interactive: 0, heldBack: 0 })
  })

  it('never hold an interactive stage back, whatever the bulk lane has in flight', async () => {
    const lanes = createLaneScheduler()
    const bulk = lanes.bulkTurns()
    await bulk.waitTurn()
    const interactive = lanes.interactiveTurns()
    expect(await settled(interactive.waitTurn())).toBe(true)
    interactive.doneWithProcessor()
  })

  it('count a document done once however often it says so (its handler says it again when it fails)', async () => {
    const lanes = createLaneScheduler()
    const first = lanes.interactiveTurns()
    const second = lanes.interactiveTurns()
    first.doneWithProcessor()
    first.doneWithProcessor()
    expect(lanes.state().interactive).toBe(1)
    const held = lanes.bulkTurns().waitTurn()
    expect(await settled(held)).toBe(false)
    second.doneWithProcessor()
    expect(await settled(held)).toBe(true)
  })
})
