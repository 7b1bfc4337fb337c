import { describe, expect, it } from 'vitest'
import { createLogger } from '@memory-service/engines'
import type { RecordPosition } from '../kafka/eventProducer.js'
import type { OutgoingEvent } from '@memory-service/domain'
import type { ConversationEventRecorded } from '@memory-service/contracts'
import { createEventRecorder } from './createEventRecorder.js'
import { createDedupeWindow, eventIdentity } from '@memory-service/domain'

const scope = { instanceId: 'inst_0123456789abcdef', clientId: 'cli_0123456789abcdef' }
const turn = (eventId: string | undefined, conversation = 'conv-1') => ({
  ...(eventId ? { event_id: eventId } : {}),
  event_type: 'user_message',
  conversation_id: conversation,
  user_id: 'user-1',
  content: `turn ${eventId ?? ''}`,
})

/**
 * The log as a list per partition, read by a dedupe window on demand: what the real tail does, without Kafka.
 * `foreign` appends a record as another gateway would; `failNext` makes the next append fail.
 */
function fakeLog(options: { partitions?: number; neverRead?: boolean } = {}) {
  const partitions = Array.from({ length: options.partitions ?? 2 }, () => [] as string[])
  const window = createDedupeWindow({ windowMs: 60_000, maxEntries: 1000 })
  const read = partitions.map(() => 0)
  let failNext = false
  const appends: string[][] = []
  const partitionOf = (conversation: string) => conversation.length % partitions.length
  const write = (conversation: string, clientEventId: string): RecordPosition & { batchStart: number } => {
    const partition = partitionOf(conversation)
    const log = partitions[partition] as string[]
    log.push(eventIdentity(scope.instanceId, conversation, clientEventId))
    return { partition, offset: log.length - 1, batchStart: log.length - 1 }
  }
  return {
    appends,
    foreign: (conversation: string, clientEventId: string) => write(conversation, clientEventId),
    failNext: () => (failNext = true),
    appender: {
      async append(_topic: string, events: OutgoingEvent[]) {
        await new Promise((resolve) => setImmediate(resolve))
        if (failNext) {
          failNext = false
          throw new Error('broker unavailable')
        }
        appends.push(events.map((event) => (event.payload as ConversationEventRecorded).event_id))
        const positions = events.map((event) => {
          const payload = event.payload as ConversationEventRecorded
          return write(payload.conversation_id, payload.client_event_id ?? '')
        })
        // One produce request: in each partition, its records follow one another from the first.
        const starts = new Map<number, number>()
        for (const position of positions)
          starts.set(
            position.partition,
            Math.min(starts.get(position.partition) ?? Infinity, position.offset),
          )
        return positions.map((position) => ({ ...position, batchStart: starts.get(position.partition) ?? 0 }))
      },
    },
    tail: {
      ready: Promise.resolve(),
      firstOf: (identity: string) => window.firstOf(identity),
      async readUpTo(partition: number, offset: number) {
        if (options.neverRead) return new Promise<void>(() => undefined)
        const log = partitions[partition] as string[]
        for (; (read[partition] ?? 0) < offset; read[partition] = (read[partition] ?? 0) + 1) {
          const at = read[partition] ?? 0
          window.observe(log[at] ?? '', { partition, offset: at }, Date.now())
        }
      },
    },
  }
}

function recorder(log: ReturnType<typeof fakeLog>, readBackTimeoutMs = 1000) {
  let ids = 0
  return createEventRecorder({
    appender: log.appender,
    recorded: log.tail,
    logger: createLogger({ level: 'silent', name: 'test' }),
    newEventId: () => `evt_generated_${(ids += 1)}`,
    readBackTimeoutMs,
  })
}

describe('event recorder', () => {
  it('answers a repeat within the batch and a repeat the log already holds as duplicate, appending neither', async () => {
    const log = fakeLog()
    const events = recorder(log)
    const first = await events.record(scope, [turn('a'), turn('a')], 'c1')
    expect(first.results.map((result) => result.status)).toEqual(['accepted', 'duplicate'])
    const again = await events.record(scope, [turn('a')], 'c2')
    expect(again.results).toEqual([{ event_id: 'a', status: 'duplicate' }])
    expect(log.appends).toEqual([['a']])
  })

  it('answers duplicate when another gateway appended the same event_id earlier in the partition', async () => {
    const log = fakeLog()
    log.foreign('conv-1', 'raced')
    const response = await recorder(log).record(scope, [turn('raced')], 'c1')
    expect(response).toMatchObject({ accepted: 0, duplicate: 1 })
    // It was appended (the race), but the first record is the other gateway's.
    expect(log.appends).toEqual([['raced']])
  })

  it('accepts its own record when the other copy came later in the partition', async () => {
    const log = fakeLog()
    const events = recorder(log)
    const response = await events.record(scope, [turn('mine')], 'c1')
    log.foreign('conv-1', 'mine')
    expect(response).toMatchObject({ accepted: 1, duplicate: 0 })
  })

  it('keeps the same event_id in another conversation apart', async () => {
    const log = fakeLog()
    const response = await recorder(log).record(scope, [turn('x', 'conv-1'), turn('x', 'conv-22')], 'c1')
    expect(response).toMatchObject({ accepted: 2, duplicate: 0 })
  })

  it('appends an event sent by two requests of the process at once only once', async () => {
    const log = fakeLog()
    const events = recorder(log)
    const [one, two] = await Promise.all([
      events.record(scope, [turn('same')], 'c1'),
      events.record(scope, [turn('same')], 'c2'),
    ])
    expect([one.results[0]?.status, two.results[0]?.status].sort()).toEqual(['accepted', 'duplicate'])
    expect(log.appends).toEqual([['same']])
  })

  it('rejects every event of a failed append as SERVICE_UNAVAILABLE and lets a retry record them', async () => {
    const log = fakeLog()
    const events = recorder(log)
    log.failNext()
    const failed = await events.record(scope, [turn('r1'), turn(undefined)], 'c1')
    expect(failed.results).toEqual([
      {
        event_id: 'r1',
        status: 'rejected',
        code: 'SERVICE_UNAVAILABLE',
        message: 'The event log is unavailable; retry with the same event_id',
      },
      {
        event_id: null,
        status: 'rejected',
        code: 'SERVICE_UNAVAILABLE',
        message: 'The event log is unavailable; retry with the same event_id',
      },
    ])
    const retried = await events.record(scope, [turn('r1')], 'c2')
    expect(retried.results).toEqual([{ event_id: 'r1', status: 'accepted' }])
  })

  it('rejects an event whose record could not be read back in time, and answers the retry duplicate', async () => {
    const slow = fakeLog({ neverRead: true })
    const response = await recorder(slow, 20).record(scope, [turn('late'), turn(undefined)], 'c1')
    expect(response.results).toEqual([
      {
        event_id: 'late',
        status: 'rejected',
        code: 'SERVICE_UNAVAILABLE',
        message: 'Recorded, but not confirmed in time; retry with the same event_id',
      },
      // An event without an event_id needs no read-back: nothing can repeat it.
      { event_id: 'evt_generated_1', status: 'accepted' },
    ])
  })

  it('records events without an event_id every time, under a generated id', async () => {
    const log = fakeLog()
    const events = recorder(log)
    await events.record(scope, [turn(undefined)], 'c1')
    await events.record(scope, [turn(undefined)], 'c2')
    expect(log.appends).toEqual([['evt_generated_1'], ['evt_generated_2']])
  })
})
