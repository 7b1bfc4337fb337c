/**
 * `npm run bench:ingest`: events/s and acknowledgement latency of the write path, against the raw engine.
 *   (a) kafkajs producing the same encoded records to the same topic, 100 per send, acks=all
 *   (b) POST /v1/events/batch, 100 events per request
 *   (c) the gRPC stream through the client library
 * One process, one client at a time, on the local stack. BENCH_EVENTS sets the events per scenario.
 */
import { performance } from 'node:perf_hooks'
import {
  CONVERSATION_EVENT_SUBJECT,
  CONVERSATION_EVENTS_TOPIC,
  conversationKey,
  createEventProducer,
  toRecordedEvent,
} from '@memory-service/shared'
import { createEventStream } from '@memory-service/client'
import { percentile, runId, startBench } from './benchSetup.js'

const total = Number(process.env.BENCH_EVENTS ?? 10_000)
const batchSize = 100

interface Result {
  name: string
  events: number
  seconds: number
  latencies: number[]
}

const turn = (scenario: string, index: number) => ({
  event_id: `bench-${runId}-${scenario}-${index}`,
  event_type: 'user_message' as const,
  conversation_id: `bench-${runId}-${scenario}-conv-${index % 10}`,
  user_id: 'bench-user',
  content: `Benchmark turn ${index}: I moved to Lisbon last spring and started learning Portuguese.`,
})

async function main(): Promise<void> {
  const { services, kafka, codec, instance, apiKey, baseUrl, close } = await startBench('bench', ['gateway'])
  const results: Result[] = []

  // (a) the raw engine: the same records, encoded the same way, 100 per acks=all send.
  {
    await codec.register([
      {
        subject: CONVERSATION_EVENT_SUBJECT,
        schema: (await import('@memory-service/shared')).conversationEventRecordedSchema,
      },
    ])
    const producer = await createEventProducer(kafka, codec)
    const latencies: number[] = []
    const started = performance.now()
    for (let offset = 0; offset < total; offset += batchSize) {
      const receivedAt = new Date().toISOString()
      const events = Array.from({ length: batchSize }, (_, index) => turn('raw', offset + index)).map(
        (event) => ({
          key: conversationKey(instance.instance_id, event.conversation_id),
          subject: CONVERSATION_EVENT_SUBJECT,
          payload: toRecordedEvent(event, {
            eventId: event.event_id,
            instanceId: instance.instance_id,
            clientId: instance.client_id,
            receivedAt,
          }),
          correlationId: 'bench',
        }),
      )
      const sent = performance.now()
      await producer.append(CONVERSATION_EVENTS_TOPIC, events)
      const elapsed = performance.now() - sent
      for (let index = 0; index < batchSize; index += 1) latencies.push(elapsed)
    }
    results.push({
      name: '(a) raw kafkajs, 100/send',
      events: total,
      seconds: (performance.now() - started) / 1000,
      latencies,
    })
    await producer.close()
  }

  // (b) POST /v1/events/batch, 100 events per request.
  {
    const latencies: number[] = []
    const started = performance.now()
    for (let offset = 0; offset < total; offset += batchSize) {
      const events = Array.from({ length: batchSize }, (_, index) => turn('http', offset + index))
      const sent = performance.now()
      const response = await fetch(`${baseUrl}/v1/events/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      })
      const body = (await response.json()) as { accepted: number }
      if (body.accepted !== batchSize) throw new Error(`HTTP batch accepted ${body.accepted} of ${batchSize}`)
      const elapsed = performance.now() - sent
      for (let index = 0; index < batchSize; index += 1) latencies.push(elapsed)
    }
    results.push({
      name: '(b) POST /v1/events/batch, 100/request',
      events: total,
      seconds: (performance.now() - started) / 1000,
      latencies,
    })
  }

  // (c) the gRPC stream through the client library: latency from send() to its ack.
  {
    const sentAt = new Map<string, number>()
    const latencies: number[] = []
    let rejected = 0
    const stream = createEventStream({
      address: services.addresses.grpc ?? '',
      apiKey: apiKey,
      maxEvents: total,
      onAck: (ack) => {
        if (ack.status !== 'ACCEPTED') rejected += 1
        latencies.push(performance.now() - (sentAt.get(ack.eventId) ?? performance.now()))
      },
    })
    stream.start()
    const started = performance.now()
    for (let index = 0; index < total; index += 1) {
      const event = turn('grpc', index)
      sentAt.set(event.event_id, performance.now())
      stream.send(event)
      // Yield now and then so acks are read while sending, as an agent that streams would.
      if (index % 100 === 99) await new Promise((resolve) => setImmediate(resolve))
    }
    while (stream.pending() > 0) await new Promise((resolve) => setTimeout(resolve, 5))
    const seconds = (performance.now() - started) / 1000
    await stream.stop()
    if (rejected > 0) throw new Error(`gRPC stream: ${rejected} events not accepted`)
    results.push({ name: '(c) gRPC stream (client library)', events: total, seconds, latencies })
  }

  const rows = results.map((result) => {
    const sorted = [...result.latencies].sort((a, b) => a - b)
    return {
      scenario: result.name,
      events: String(result.events),
      seconds: result.seconds.toFixed(2),
      'events/s': Math.round(result.events / result.seconds).toString(),
      'p50 ms': percentile(sorted, 50).toFixed(1),
      'p95 ms': percentile(sorted, 95).toFixed(1),
      'p99 ms': percentile(sorted, 99).toFixed(1),
    }
  })
  const columns = Object.keys(rows[0] ?? {})
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => (row as Record<string, string>)[column]?.length ?? 0)),
  )
  const line = (cells: string[]) =>
    `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`
  console.log(`\ningest benchmark: ${total} events per scenario, one client, ${new Date().toISOString()}\n`)
  console.log(line(columns))
  console.log(line(widths.map((width) => '-'.repeat(width))))
  for (const row of rows)
    console.log(line(columns.map((column) => (row as Record<string, string>)[column] ?? '')))
  const [raw, http, grpc] = results
  if (raw && http && grpc) {
    const rate = (result: Result) => result.events / result.seconds
    const p50 = (result: Result) =>
      percentile(
        [...result.latencies].sort((a, b) => a - b),
        50,
      )
    console.log(
      `\nratio b/a: throughput ${(rate(http) / rate(raw)).toFixed(2)}×, p50 latency ${(p50(http) / p50(raw)).toFixed(2)}×`,
    )
    console.log(
      `ratio c/a: throughput ${(rate(grpc) / rate(raw)).toFixed(2)}×, p50 latency ${(p50(grpc) / p50(raw)).toFixed(2)}×`,
    )
  }
  await close()
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
