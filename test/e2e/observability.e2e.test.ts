/**
 * What an operator sees (issue 32), on the real stack: /metrics counts exactly what was sent over HTTP and the gRPC
 * stream, and one document's trace links the gateway, the pipeline and the projectors through Kafka, with the
 * services' log lines naming it.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace'
import { SpanKind } from '@opentelemetry/api'
import { createLogger, startTracing, type RunningTracing } from '@memory-service/engines'
import {
  CONVERSATION_EVENTS_TOPIC,
  DEAD_LETTER_TOPIC,
  DOCUMENTS_TOPIC,
  MEMORIES_TOPIC,
  serviceConsumerGroups,
} from '@memory-service/domain'
import { consumerGroupsToWatch } from '@memory-service/log'
import { createEventStream } from '@memory-service/client'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'
import { faultMarkers } from '../support/faultInjection.js'
import { parsePrometheusText, sampleValue, type Sample } from '../support/prometheusText.js'

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let exporter: InMemorySpanExporter
let tracing: RunningTracing
let baseUrl: string
let apiKey: string
const logFile = join(mkdtempSync(join(tmpdir(), 'observability-')), 'services.log')

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${baseUrl}/metrics`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/plain')
  return parsePrometheusText(await response.text())
}

async function postEvents(events: unknown[]): Promise<{ results: { status: string }[] }> {
  const response = await fetch(`${baseUrl}/v1/events/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { results: { status: string }[] }
}

beforeAll(async () => {
  exporter = new InMemorySpanExporter()
  tracing = startTracing({ serviceName: 'memory-service-test', export: { exporter } })
  harness = await startGatewayWithInstance('observability', {
    withWorkers: true,
    logger: createLogger({ level: 'debug', name: 'memory-service', destination: logFile }),
  })
  baseUrl = harness.gateway.addresses.http ?? ''
  apiKey = harness.instance.api_key.key
})

afterAll(async () => {
  await harness.close()
  await tracing.shutdown()
})

describe('metrics', () => {
  it('count the events sent over HTTP and the stream by outcome, the requests by route, and the appends', async () => {
    const before = await scrape()
    const conversationId = uniqueName('conv-metrics')
    const event = (id: string) => ({
      event_id: id,
      event_type: 'user_message',
      conversation_id: conversationId,
      user_id: 'user-metrics',
      content: `turn ${id}`,
    })
    const ids = ['m-1', 'm-2', 'm-3', 'm-4'].map((id) => uniqueName(id))
    const first = await postEvents(ids.slice(0, 3).map(event))
    expect(first.results.map((result) => result.status)).toEqual(['accepted', 'accepted', 'accepted'])
    const second = await postEvents([
      event(ids[0] ?? ''),
      event(ids[3] ?? ''),
      { event_type: 'user_message', user_id: 'user-metrics', content: 'no conversation' },
    ])
    expect(second.results.map((result) => result.status)).toEqual(['duplicate', 'accepted', 'rejected'])

    const stream = createEventStream({ address: harness.gateway.addresses.grpc ?? '', apiKey })
    stream.start()
    for (let index = 0; index < 5; index += 1)
      stream.send({
        event_type: 'user_message',
        conversation_id: conversationId,
        user_id: 'u',
        content: `s ${index}`,
      })
    const stopped = await stream.stop(10_000)
    expect(stopped.unacknowledged).toHaveLength(0)

    const after = await scrape()
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels)
    expect(delta('memory_service_events_total', { transport: 'http', outcome: 'accepted' })).toBe(4)
    expect(delta('memory_service_events_total', { transport: 'http', outcome: 'duplicate' })).toBe(1)
    expect(delta('memory_service_events_total', { transport: 'http', outcome: 'rejected' })).toBe(1)
    expect(delta('memory_service_events_total', { transport: 'grpc', outcome: 'accepted' })).toBe(5)
    expect(
      delta('memory_service_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/events/batch',
        status_code: '200',
      }),
    ).toBe(2)
    expect(delta('memory_service_event_ack_duration_seconds_count', { transport: 'grpc' })).toBeGreaterThan(0)
    expect(
      delta('memory_service_grpc_request_duration_seconds_count', {
        method: 'memory.v1.EventStream/Stream',
        status_code: 'OK',
      }),
    ).toBe(1)
    // The writer thread's appends are the gateway's: at least one record per accepted event.
    expect(
      delta('memory_service_kafka_produced_records_total', { topic: CONVERSATION_EVENTS_TOPIC }),
    ).toBeGreaterThanOrEqual(9)
    // No series is labelled by an id: every route is a template.
    const routes = new Set(
      after.filter((sample) => sample.labels.route !== undefined).map((sample) => sample.labels.route),
    )
    for (const route of routes) expect(route).not.toMatch(new RegExp(conversationId))
    expect(after.some((sample) => sample.name === 'process_cpu_seconds_total')).toBe(true)
    expect(after.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds')).toBe(true)
  })

  it('show the lag of every consumer group per partition, and what the projections applied', async () => {
    const samples = await eventually(async () => {
      const scraped = await scrape()
      const applied = sampleValue(scraped, 'memory_service_consumer_records_total', {
        group: serviceConsumerGroups.conversations,
        outcome: 'applied',
      })
      return applied >= 9 ? scraped : undefined
    })
    const lagGroups = new Set(
      samples
        .filter((sample) => sample.name === 'memory_service_consumer_lag')
        .map((sample) => sample.labels.group),
    )
    for (const { group } of consumerGroupsToWatch) expect.soft(lagGroups.has(group), group).toBe(true)
    expect(
      samples.some(
        (sample) =>
          sample.name === 'memory_service_consumer_lag' &&
          sample.labels.group === serviceConsumerGroups.pipeline &&
          /^\d+$/.test(sample.labels.partition ?? ''),
      ),
    ).toBe(true)
  })

  it('count a document whose extraction fails for good as failed and dead-lettered, once', async () => {
    const before = await scrape()
    const response = await fetch(`${baseUrl}/v1/memories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        document: `Notes from the meeting. ${faultMarkers.malformedExtraction}`,
        document_type: 'ai-chat-conversation',
        document_created_at: '2024-03-20T10:00:00.000Z',
        mode: 'fast',
        user_id: 'user-poison',
      }),
    })
    expect(response.status).toBe(201)
    const after = await eventually(async () => {
      const scraped = await scrape()
      const failed =
        sampleValue(scraped, 'memory_service_pipeline_documents_total', { outcome: 'failed' }) -
        sampleValue(before, 'memory_service_pipeline_documents_total', { outcome: 'failed' })
      return failed > 0 ? scraped : undefined
    }, 60_000)
    const delta = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels)
    expect(delta('memory_service_pipeline_documents_total', { outcome: 'failed' })).toBe(1)
    expect(
      delta('memory_service_consumer_records_total', {
        group: serviceConsumerGroups.pipeline,
        outcome: 'dead_lettered',
      }),
    ).toBe(1)
    expect(delta('memory_service_kafka_produced_records_total', { topic: DEAD_LETTER_TOPIC })).toBe(1)
  })
})

describe('traces', () => {
  it('follow a document from its POST through the pipeline into the projections and its webhook as one trace', async () => {
    const received: IncomingHttpHeaders[] = []
    const receiver = createServer((request, response) => {
      received.push(request.headers)
      request.resume()
      request.on('end', () => response.writeHead(204).end())
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const { port } = receiver.address() as AddressInfo
    const registered = await fetch(`${baseUrl}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${String(port)}/hook`, events: ['ingestion.completed'] }),
    })
    expect(registered.status).toBe(201)
    const traceId = randomBytes(16).toString('hex')
    const callerSpanId = randomBytes(8).toString('hex')
    const response = await fetch(`${baseUrl}/v1/memories`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      body: JSON.stringify({
        document: 'Ines moved to Lisbon in March and works as a nurse at the Santa Maria hospital.',
        document_type: 'ai-chat-conversation',
        document_created_at: '2024-03-20T10:00:00.000Z',
        mode: 'fast',
        user_id: 'user-trace',
      }),
    })
    expect(response.status).toBe(201)
    const { ingestion_id: ingestionId } = (await response.json()) as { ingestion_id: string }
    await eventually(async () => {
      const job = await fetch(`${baseUrl}/v1/memories/${ingestionId}/status`, {
        headers: { authorization: `Bearer ${apiKey}` },
      })
      const body = (await job.json()) as { status: string }
      return body.status === 'completed' ? body : undefined
    }, 60_000)

    const spans = await eventually(async () => {
      const inTrace = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId)
      const groups = new Set(inTrace.map((span) => span.attributes['messaging.consumer.group.name']))
      // The graph projection applies its batch on its own time: wait for all three.
      return [
        serviceConsumerGroups.pipeline,
        serviceConsumerGroups.vector,
        serviceConsumerGroups.graph,
      ].every((group) => groups.has(group))
        ? inTrace
        : undefined
    })
    const gateway = spans.find((span) => span.name === 'POST /v1/memories')
    expect(gateway?.kind).toBe(SpanKind.SERVER)
    expect(gateway?.parentSpanContext?.spanId).toBe(callerSpanId)
    expect(gateway?.attributes['http.response.status_code']).toBe(201)
    const pipeline = spans.find(
      (span) =>
        span.name === `process ${DOCUMENTS_TOPIC}` &&
        span.attributes['messaging.consumer.group.name'] === serviceConsumerGroups.pipeline,
    )
    // The pipeline continues the gateway's span (the record's traceparent), and its memories carry the pipeline's.
    expect(pipeline?.parentSpanContext?.spanId).toBe(gateway?.spanContext().spanId)
    const vector = spans.find(
      (span) =>
        span.name === `process ${MEMORIES_TOPIC}` &&
        span.attributes['messaging.consumer.group.name'] === serviceConsumerGroups.vector,
    )
    expect(vector?.parentSpanContext?.spanId).toBe(pipeline?.spanContext().spanId)
    expect(
      spans.some((span) => span.attributes['messaging.consumer.group.name'] === serviceConsumerGroups.graph),
    ).toBe(true)

    // The webhook's attempt continues the trace and hands it to the receiver.
    const delivered = await eventually(async () =>
      received.find((headers) => headers.traceparent?.includes(traceId)),
    )
    expect(delivered['webhook-id']).toBeDefined()
    // Its span ends once the attempt is recorded, a moment after the receiver answered.
    await eventually(async () =>
      exporter
        .getFinishedSpans()
        .find((span) => span.name === 'webhook deliver' && span.spanContext().traceId === traceId),
    )
    receiver.close()

    // The pipeline's log line about the document names the trace.
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes(ingestionId) && line.includes('document processed'))
    expect(lines.length).toBeGreaterThan(0)
    expect((JSON.parse(lines[0] ?? '{}') as { trace_id?: string }).trace_id).toBe(traceId)
  })

  it('follow conversation events through the writer thread into the conversations projection', async () => {
    const traceId = randomBytes(16).toString('hex')
    const response = await fetch(`${baseUrl}/v1/events/batch`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
      body: JSON.stringify({
        events: [
          {
            event_type: 'user_message',
            conversation_id: uniqueName('conv-trace'),
            user_id: 'user-trace',
            content: 'a traced turn',
          },
        ],
      }),
    })
    expect(response.status).toBe(200)
    const projected = await eventually(async () =>
      exporter
        .getFinishedSpans()
        .find(
          (span) =>
            span.spanContext().traceId === traceId &&
            span.attributes['messaging.consumer.group.name'] === serviceConsumerGroups.conversations,
        ),
    )
    const request = exporter
      .getFinishedSpans()
      .find((span) => span.spanContext().traceId === traceId && span.name === 'POST /v1/events/batch')
    expect(projected.parentSpanContext?.spanId).toBe(request?.spanContext().spanId)
  })

  it('begin a trace of their own for a request that names none, and leave probes and scrapes untraced', async () => {
    await fetch(`${baseUrl}/healthz`)
    await fetch(`${baseUrl}/metrics`)
    const finished = exporter.getFinishedSpans()
    // The two event batches of the metrics test named no trace: each began one.
    const roots = finished.filter(
      (span) => span.name === 'POST /v1/events/batch' && span.parentSpanContext === undefined,
    )
    expect(roots).toHaveLength(2)
    expect(new Set(roots.map((span) => span.spanContext().traceId)).size).toBe(2)
    expect(finished.filter((span) => ['GET /healthz', 'GET /metrics'].includes(span.name))).toEqual([])
    // Nor is a client call outside any trace (the services poll Elasticsearch all the time) a trace of its own.
    expect(
      finished.filter((span) => span.kind === SpanKind.CLIENT && span.parentSpanContext === undefined),
    ).toEqual([])
  })
})
