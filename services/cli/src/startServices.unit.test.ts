import { describe, expect, it } from 'vitest'
import { serviceNames, startOrder } from './startServices.js'

describe('startOrder', () => {
  it('starts what reads the log before what writes to it, so the process stops the gateway first and the projectors last', () => {
    expect(startOrder(serviceNames)).toEqual(['projectors', 'pipeline', 'gateway'])
    expect(startOrder(['gateway', 'projectors', 'pipeline'])).toEqual(['projectors', 'pipeline', 'gateway'])
  })

  it('starts only the services named', () => {
    expect(startOrder(['gateway'])).toEqual(['gateway'])
    expect(startOrder(['pipeline', 'gateway'])).toEqual(['pipeline', 'gateway'])
    expect(startOrder([])).toEqual([])
  })
})
