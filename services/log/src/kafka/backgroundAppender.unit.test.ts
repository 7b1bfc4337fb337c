import { describe, expect, it } from 'vitest'
import { createBackgroundAppender } from './backgroundAppender.js'
import type { OutgoingEvent } from '@memory-service/domain'

const event = (key: string): OutgoingEvent => ({ key, subject: 's', payload: {}, correlationId: 'c' })

function harness(failing = false) {
  const appended: string[][] = []
  const timers: (() => void)[] = []
  const errors: number[] = []
  const background = createBackgroundAppender(
    {
      async append(_topic, events) {
        if (failing) throw new Error('broker down')
        appended.push(events.map((item) => item.key))
        return []
      },
    },
    'usage',
    {
      lingerMs: 100,
      maxEvents: 3,
      schedule: (flush) => timers.push(flush),
      onError: (_error, count) => errors.push(count),
    },
  )
  return { background, appended, timers, errors }
}

describe('background appender', () => {
  it('holds events until the linger runs out and appends them together', async () => {
    const { background, appended, timers } = harness()
    background.record([event('a')])
    background.record([event('b')])
    expect(appended).toEqual([])
    expect(timers).toHaveLength(1)
    timers[0]?.()
    await background.flush()
    expect(appended).toEqual([['a', 'b']])
  })

  it('appends at once when it holds maxEvents', async () => {
    const { background, appended } = harness()
    background.record([event('a'), event('b'), event('c')])
    await background.flush()
    expect(appended).toEqual([['a', 'b', 'c']])
  })

  it('reports a failed append with its event count instead of throwing', async () => {
    const { background, errors } = harness(true)
    background.record([event('a'), event('b')])
    await background.flush()
    expect(errors).toEqual([2])
  })
})
