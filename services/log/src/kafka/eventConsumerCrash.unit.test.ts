import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Kafka } from 'kafkajs'
import { createLogger, type SchemaCodec } from '@memory-service/engines'
import { createEventConsumer } from './eventConsumer.js'

type CrashListener = (event: { payload: { restart: boolean; error: Error } }) => void

/** A kafkajs stand-in that only records the calls and lets the test crash the consumer, as kafkajs would. */
function crashingKafka(options: { failConnects?: number } = {}) {
  const calls: string[] = []
  let crashListener: CrashListener | undefined
  let failConnects = options.failConnects ?? 0
  const consumer = {
    events: { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join' },
    connect: () => {
      calls.push('connect')
      if (calls.filter((call) => call === 'connect').length > 1 && failConnects > 0) {
        failConnects -= 1
        return Promise.reject(new Error('broker not back yet'))
      }
      return Promise.resolve()
    },
    subscribe: () => (calls.push('subscribe'), Promise.resolve()),
    run: () => (calls.push('run'), Promise.resolve()),
    disconnect: () => (calls.push('disconnect'), Promise.resolve()),
    on: (name: string, listener: CrashListener) => {
      if (name === 'consumer.crash') crashListener = listener
      return () => undefined
    },
    pause: () => undefined,
    resume: () => undefined,
    commitOffsets: () => Promise.resolve(),
  }
  return {
    kafka: { consumer: () => consumer } as unknown as Kafka,
    calls,
    crash: (restart: boolean) => crashListener?.({ payload: { restart, error: new Error('not retriable') } }),
  }
}

const start = (kafka: Kafka) =>
  createEventConsumer({
    kafka,
    codec: {} as SchemaCodec,
    logger: createLogger({ level: 'silent', name: 'test' }),
    groupId: 'test-group',
    topics: ['test-topic'],
    handleBatch: () => Promise.resolve(),
  })

describe('a consumer kafkajs stops for good', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('is started again after a pause', async () => {
    const fake = crashingKafka()
    await start(fake.kafka)
    expect(fake.calls).toEqual(['connect', 'subscribe', 'run'])
    fake.crash(false)
    await vi.advanceTimersByTimeAsync(4_999)
    expect(fake.calls).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(1)
    expect(fake.calls).toEqual(['connect', 'subscribe', 'run', 'connect', 'subscribe', 'run'])
  })

  it('is left to kafkajs when kafkajs restarts it itself', async () => {
    const fake = crashingKafka()
    await start(fake.kafka)
    fake.crash(true)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(fake.calls).toEqual(['connect', 'subscribe', 'run'])
  })

  it('is tried again while the broker does not answer', async () => {
    const fake = crashingKafka({ failConnects: 2 })
    await start(fake.kafka)
    fake.crash(false)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(fake.calls.filter((call) => call === 'run')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(fake.calls.slice(-3)).toEqual(['connect', 'subscribe', 'run'])
    expect(fake.calls.filter((call) => call === 'connect')).toHaveLength(4)
  })

  it('stays stopped once it is closed', async () => {
    const fake = crashingKafka()
    const consumer = await start(fake.kafka)
    fake.crash(false)
    await consumer.close()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(fake.calls).toEqual(['connect', 'subscribe', 'run', 'disconnect'])
  })
})
