import { describe, expect, it } from 'vitest'
import { createCoalescingAppender } from './coalescingAppender.js'
import type { EventProducer } from './eventProducer.js'
import type { OutgoingEvent } from '@memory-service/domain'

const event = (key: string): OutgoingEvent => ({ key, subject: 's', payload: {}, correlationId: 'c' })

/** Records each produce request; a request holding the key "too-large" is refused, as a broker would. */
function recordingProducer(): Pick<EventProducer, 'encode' | 'sendEncoded'> & { requests: string[][] } {
  const requests: string[][] = []
  return {
    requests,
    encode: async (_topic: string, events: OutgoingEvent[]) =>
      events.map((item) => ({ key: item.key, value: Buffer.from('{}'), headers: {}, partition: 0 })),
    async sendEncoded(batches) {
      const keys = batches.flatMap((batch) => batch.messages.map((item) => `${batch.topic}:${item.key}`))
      requests.push(keys)
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (keys.some((key) => key.endsWith('too-large'))) throw new Error('MESSAGE_TOO_LARGE')
      return []
    },
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

  it('tells each append where its records landed, counting from the base offset of each partition', async () => {
    const appender = createCoalescingAppender({
      encode: async (_topic: string, events: OutgoingEvent[]) =>
        events.map((item) => ({
          key: item.key,
          value: Buffer.from('{}'),
          headers: {},
          partition: Number(item.key),
        })),
      async sendEncoded() {
        await new Promise((resolve) => setTimeout(resolve, 5))
        return [
          { topic: 't', partition: 0, baseOffset: '10' },
          { topic: 't', partition: 1, baseOffset: '20' },
        ]
      },
    })
    const first = appender.append('t', [event('0')])
    const [, second, third] = await Promise.all([
      first,
      appender.append('t', [event('1'), event('0')]),
      appender.append('t', [event('0'), event('1')]),
    ])
    expect(await first).toEqual([{ partition: 0, offset: 10, batchStart: 10 }])
    expect(second).toEqual([
      { partition: 1, offset: 20, batchStart: 20 },
      { partition: 0, offset: 10, batchStart: 10 },
    ])
    expect(third).toEqual([
      { partition: 0, offset: 11, batchStart: 10 },
      { partition: 1, offset: 21, batchStart: 20 },
    ])
  })
})
