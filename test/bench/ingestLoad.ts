/**
 * The clients of `npm run bench:ingest`, in a process of their own as agents are: the gateway's process measures
 * only the gateway. Started by ingest.bench.ts with one scenario as JSON in argv; answers its measurements over IPC.
 */
import { performance } from 'node:perf_hooks'
import {
  CONVERSATION_EVENT_SUBJECT,
  CONVERSATION_EVENTS_TOPIC,
  conversationEventRecordedSchema,
  conversationKey,
  toRecordedEvent,
} from '@memory-service/domain'
import { createCoalescingAppender, createEventProducer } from '@memory-service/log'
import { connectLog, createKafka, createSchemaCodec, loadConfig } from '@memory-service/engines'
import { createLogger } from '@memory-service/engines'
import { createEventStream } from '@memory-service/client'

export type Scenario =
  | {
      kind: 'raw'
      brokers: string[]
      registryUrl: string
      instanceId: string
      clientId: string
      /**
       * (a″): each event's personal fields sealed with AES-256-GCM under its user's key and framed with the sealed
       * schema by the service's own codec and keyring, as the gateway's records are.
       */
      sealed?: boolean
      /**
       * Events per second, each appended on its own as it comes and concurrent appends merged into one produce
       * request (the idempotent producer has one in flight): the engine's latency at that rate. Without it, 100 per
       * send, one send at a time.
       */
      rate?: number
    }
  | { kind: 'http'; baseUrl: string; apiKey: string }
  | {
      kind: 'stream'
      address: string
      apiKey: string
      /** Events per second; without it, as fast as the stream takes them. */
      rate?: number
      userId?: string
      conversations?: number
    }

export interface LoadJob {
  scenario: Scenario
  runId: string
  name: string
  events: number
}

export interface LoadResult {
  events: number
  seconds: number
  /** Per event, from its send to its acknowledgement (ms). */
  latencies: number[]
  acked: number
  ackedTwice: number
  notAccepted: number
  anticipated: number
}

const batchSize = 100

export const benchTurn = (
  runId: string,
  scenario: string,
  index: number,
  conversations = 10,
  user = 'bench-user',
) => ({
  event_id: `bench-${runId}-${scenario}-${index}`,
  event_type: 'user_message' as const,
  conversation_id: `bench-${runId}-${scenario}-conv-${index % conversations}`,
  user_id: user,
  content: `Benchmark turn ${index}: I moved to Lisbon last spring and started learning Portuguese.`,
})

async function raw(job: LoadJob, scenario: Extract<Scenario, { kind: 'raw' }>): Promise<LoadResult> {
  const logger = createLogger({ level: 'warn', name: 'bench-load' })
  const kafka = createKafka({ brokers: scenario.brokers, clientId: 'bench-load', logger })
  // (a″) writes with the service's own codec and keyring (the user's key made in the key store once, then cached):
  // records the consumers read like the gateway's.
  const codec = scenario.sealed
    ? connectLog(loadConfig(process.env), logger, 'bench-load').schemaCodec
    : createSchemaCodec(scenario.registryUrl)
  await codec.register([{ subject: CONVERSATION_EVENT_SUBJECT, schema: conversationEventRecordedSchema }])
  const producer = await createEventProducer(kafka, codec)
  const toRecord = (event: ReturnType<typeof benchTurn>) => ({
    key: conversationKey(scenario.instanceId, event.conversation_id),
    subject: CONVERSATION_EVENT_SUBJECT,
    payload: toRecordedEvent(event, {
      eventId: event.event_id,
      instanceId: scenario.instanceId,
      clientId: scenario.clientId,
      receivedAt: new Date().toISOString(),
    }),
    correlationId: 'bench',
  })
  const append = (events: ReturnType<typeof benchTurn>[]) =>
    producer.append(CONVERSATION_EVENTS_TOPIC, events.map(toRecord))
  await append([benchTurn(job.runId, `${job.name}-warm-up`, 0)])
  const latencies: number[] = []
  const started = performance.now()
  if (scenario.rate) {
    const appender = createCoalescingAppender(producer)
    const appended: Promise<unknown>[] = []
    for (let index = 0; index < job.events; index += 1) {
      const wait = started + (index * 1000) / scenario.rate - performance.now()
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
      const sent = performance.now()
      appended.push(
        appender
          .append(CONVERSATION_EVENTS_TOPIC, [toRecord(benchTurn(job.runId, job.name, index))])
          .then(() => latencies.push(performance.now() - sent)),
      )
    }
    await Promise.all(appended)
  } else
    for (let offset = 0; offset < job.events; offset += batchSize) {
      const events = Array.from({ length: batchSize }, (_, index) =>
        benchTurn(job.runId, job.name, offset + index),
      )
      const sent = performance.now()
      await append(events)
      const elapsed = performance.now() - sent
      for (let index = 0; index < batchSize; index += 1) latencies.push(elapsed)
    }
  const seconds = (performance.now() - started) / 1000
  await producer.close()
  return {
    events: job.events,
    seconds,
    latencies,
    acked: job.events,
    ackedTwice: 0,
    notAccepted: 0,
    anticipated: 0,
  }
}

async function http(job: LoadJob, scenario: Extract<Scenario, { kind: 'http' }>): Promise<LoadResult> {
  const post = async (events: ReturnType<typeof benchTurn>[]) => {
    const response = await fetch(`${scenario.baseUrl}/v1/events/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${scenario.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    })
    return ((await response.json()) as { accepted: number }).accepted
  }
  // A new process's first request loads the HTTP client and opens the connection: not the path being measured.
  await post([benchTurn(job.runId, `${job.name}-warm-up`, 0)])
  const latencies: number[] = []
  let notAccepted = 0
  const started = performance.now()
  for (let offset = 0; offset < job.events; offset += batchSize) {
    const events = Array.from({ length: batchSize }, (_, index) =>
      benchTurn(job.runId, job.name, offset + index),
    )
    const sent = performance.now()
    notAccepted += batchSize - (await post(events))
    const elapsed = performance.now() - sent
    for (let index = 0; index < batchSize; index += 1) latencies.push(elapsed)
  }
  const seconds = (performance.now() - started) / 1000
  return {
    events: job.events,
    seconds,
    latencies,
    acked: job.events,
    ackedTwice: 0,
    notAccepted,
    anticipated: 0,
  }
}

async function stream(job: LoadJob, scenario: Extract<Scenario, { kind: 'stream' }>): Promise<LoadResult> {
  const sentAt = new Map<string, number>()
  const acks = new Map<string, number>()
  const latencies: number[] = []
  let notAccepted = 0
  let anticipated = 0
  const events = job.events
  const eventStream = createEventStream({
    address: scenario.address,
    apiKey: scenario.apiKey,
    // Subscribed, as an agent that uses anticipated context is: the write path must not pay for it.
    onAnticipatedContext: () => {
      anticipated += 1
    },
    onAck: (ack) => {
      acks.set(ack.eventId, (acks.get(ack.eventId) ?? 0) + 1)
      if (ack.status !== 'ACCEPTED') notAccepted += 1
      latencies.push(performance.now() - (sentAt.get(ack.eventId) ?? performance.now()))
    },
  })
  eventStream.start()
  // The first event opens the connection: not the path being measured.
  const warmUp = benchTurn(job.runId, `${job.name}-warm-up`, 0, 1, scenario.userId)
  sentAt.set(warmUp.event_id, performance.now())
  eventStream.send(warmUp)
  while (eventStream.pending() > 0) await new Promise((resolve) => setTimeout(resolve, 5))
  acks.clear()
  latencies.length = 0
  anticipated = 0
  const started = performance.now()
  for (let index = 0; index < events; index += 1) {
    const event = benchTurn(job.runId, job.name, index, scenario.conversations, scenario.userId)
    if (scenario.rate) {
      // Paced: each event leaves at its own time, so latency is the path's, not a queue's.
      const due = started + (index * 1000) / scenario.rate
      const wait = due - performance.now()
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    } else if (index % 100 === 99) {
      // Yield now and then so acks are read while sending, as an agent that streams would.
      await new Promise((resolve) => setImmediate(resolve))
    }
    sentAt.set(event.event_id, performance.now())
    eventStream.send(event)
  }
  while (eventStream.pending() > 0) await new Promise((resolve) => setTimeout(resolve, 5))
  const seconds = (performance.now() - started) / 1000
  // Anticipations follow their acks; give the last ones a moment before closing.
  await new Promise((resolve) => setTimeout(resolve, 500))
  await eventStream.stop()
  const ackedTwice = [...acks.values()].filter((count) => count > 1).length
  return { events, seconds, latencies, acked: acks.size, ackedTwice, notAccepted, anticipated }
}

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob
const run = job.scenario.kind === 'raw' ? raw : job.scenario.kind === 'http' ? http : stream
run(job, job.scenario as never).then(
  (result) => {
    process.send?.(result, () => process.exit(0))
  },
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
