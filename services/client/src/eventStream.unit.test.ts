import { describe, expect, it } from 'vitest'
import { createEventStream, type EventStream } from './eventStream.js'

// Nothing listens on port 1: the stream stays disconnected, so every event stays in the buffer.
const unreachable = '127.0.0.1:1'
const turn = (index: number) => ({
  event_type: 'user_message' as const,
  conversation_id: 'c',
  user_id: 'u',
  content: `turn ${index}`,
})

/** The first connection attempt fails at once (nothing listens): from then on the stream holds what it is sent. */
async function untilDisconnected(stream: EventStream): Promise<void> {
  while (stream.connection() !== 'disconnected') await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('event stream buffer', () => {
  it('throws only when the stream was never started or was stopped', async () => {
    const stream = createEventStream({ address: unreachable, apiKey: 'k', backoff: { initialMs: 60_000 } })
    expect(() => stream.send(turn(0))).toThrow(/start\(\)/)
    stream.start()
    expect(() => stream.send(turn(1))).not.toThrow()
    await stream.stop(10)
    expect(() => stream.send(turn(2))).toThrow(/stopped/)
  })

  it('keeps the ids it was given and assigns one to events without', async () => {
    const stream = createEventStream({
      address: unreachable,
      apiKey: 'k',
      backoff: { initialMs: 60_000 },
      warn: () => undefined,
    })
    stream.start()
    expect(stream.send({ ...turn(0), event_id: 'mine-1' })).toBe('mine-1')
    expect(stream.send(turn(1))).toMatch(/^evt-[0-9a-f-]{36}$/)
    await stream.stop(10)
  })

  it('holds at most maxEvents events, dropping the oldest with a warning', async () => {
    const warnings: string[] = []
    const stream = createEventStream({
      address: unreachable,
      apiKey: 'k',
      maxEvents: 3,
      backoff: { initialMs: 60_000 },
      warn: (message) => warnings.push(message),
    })
    stream.start()
    await untilDisconnected(stream)
    for (let index = 0; index < 5; index += 1) stream.send(turn(index))
    expect(stream.pending()).toBe(3)
    expect(warnings.filter((message) => message.includes('at most maxEvents'))).toHaveLength(2)
    await stream.stop(10)
  })

  it('drops events older than maxAgeMs with a warning', async () => {
    let clock = 1_000_000
    const dropped: unknown[] = []
    const stream = createEventStream({
      address: unreachable,
      apiKey: 'k',
      maxAgeMs: 300_000,
      now: () => clock,
      backoff: { initialMs: 60_000 },
      warn: (_message, context) => dropped.push(...(context.event_ids as string[])),
    })
    stream.start()
    await untilDisconnected(stream)
    const old = stream.send(turn(0))
    clock += 300_001
    stream.send(turn(1))
    expect(dropped).toEqual([old])
    expect(stream.pending()).toBe(1)
    await stream.stop(10)
  })
})
