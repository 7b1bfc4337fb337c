import { describe, expect, it } from 'vitest'
import { createCoalescingAppender } from './coalescingAppender.js'
import type { EventProducer, OutgoingEvent } from './eventProducer.js'

const event = (key: string): OutgoingEvent => ({ key, subject: 's', payload: {}, correlationId: 'c' })

/** Records each produce request; a request holding the key "too-large" is refused, as a broker would. */
function recordingProducer(): EventProducer & { requests: string[][] } {
  const requests: string[][] = []
  return {
    requests,
    append: async () => [],
    async appendMany(batches) {
      const keys = batches.flatMap((batch) => batch.events.map((item) => `${batch.topic}:${item.key}`))
      requests.push(keys)
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (keys.some((key) => key.endsWith('too-large'))) throw new Error('MESSAGE_TOO_LARGE')
    },
    forward: async () => undefined,
    close: async () => undefined,
  }
}

describe('coalescing appender', () => {
  it('sends appends that arrive while a request is in flight together, in arrival order', async () => {
    const producer = recordingProducer()
    const appender = createCoalescingAppender(producer)
    await Promise.all([
      appender.append('jobs', [event('a')]),
      appender.append('memories', [event('b'), event('c')]),
      appender.append('jobs', [event('d')]),
    ])
    expect(producer.requests).toEqual([['jobs:a'], ['memories:b', 'memories:c', 'jobs:d']])
  })

  it('fails only the append whose events the broker refuses', async () => {
    const producer = recordingProducer()
    const appender = createCoalescingAppender(producer)
    const outcomes = await Promise.allSettled([
      appender.append('jobs', [event('first')]),
      appender.append('jobs', [event('too-large')]),
      appender.append('jobs', [event('after')]),
    ])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  })
})
