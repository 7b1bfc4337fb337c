import { afterEach, describe, expect, it } from 'vitest'
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace'
import {
  contextFrom,
  inSpan,
  isTracing,
  SpanKind,
  startTracing,
  traceFieldsOfActiveSpan,
  withTraceHeaders,
  type RunningTracing,
} from './tracing.js'

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
const parentSpanId = '00f067aa0ba902b7'
const traceparent = `00-${traceId}-${parentSpanId}-01`

let running: RunningTracing | undefined
afterEach(async () => {
  await running?.shutdown()
  running = undefined
})

describe('tracing', () => {
  it('does nothing while not started: no header read or written, no ids in log lines', async () => {
    expect(isTracing()).toBe(false)
    const headers: Record<string, string> = {}
    await inSpan('work', { parent: contextFrom({ traceparent }) }, async () => {
      withTraceHeaders(headers)
      expect(traceFieldsOfActiveSpan()).toEqual({})
    })
    expect(headers).toEqual({})
  })

  it("continues a carrier's trace, passes it on in headers and names it in log fields", async () => {
    const exporter = new InMemorySpanExporter()
    running = startTracing({ serviceName: 'test', export: { exporter } })
    const headers: Record<string, string> = {}
    let fields: ReturnType<typeof traceFieldsOfActiveSpan> = {}
    await inSpan(
      'process record',
      { kind: SpanKind.CONSUMER, parent: contextFrom({ traceparent }) },
      async () => {
        await Promise.resolve()
        withTraceHeaders(headers)
        fields = traceFieldsOfActiveSpan()
      },
    )
    const [span] = exporter.getFinishedSpans()
    expect(span?.name).toBe('process record')
    expect(span?.spanContext().traceId).toBe(traceId)
    expect(span?.parentSpanContext?.spanId).toBe(parentSpanId)
    expect(headers.traceparent).toBe(`00-${traceId}-${span?.spanContext().spanId ?? ''}-01`)
    expect(fields).toEqual({ trace_id: traceId, span_id: span?.spanContext().spanId })
  })

  it('begins traces where work arrives (a request, a record), not at a client call outside any trace', async () => {
    const exporter = new InMemorySpanExporter()
    running = startTracing({ serviceName: 'test', export: { exporter } })
    await inSpan('poll', { kind: SpanKind.CLIENT }, async () => undefined)
    await inSpan('request', { kind: SpanKind.SERVER }, () =>
      inSpan('query', { kind: SpanKind.CLIENT }, async () => undefined),
    )
    await inSpan('record', { kind: SpanKind.CONSUMER }, async () => undefined)
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['query', 'request', 'record'])
  })

  it('marks a span whose work throws as an error and rethrows', async () => {
    const exporter = new InMemorySpanExporter()
    running = startTracing({ serviceName: 'test', export: { exporter } })
    await expect(
      inSpan('failing', { kind: SpanKind.SERVER }, async () => {
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    const [span] = exporter.getFinishedSpans()
    expect(span?.status.code).toBe(2)
    expect(span?.events.map((event) => event.name)).toEqual(['exception'])
  })

  it('returns the process to the no-op API at shutdown, and refuses a second start', async () => {
    const exporter = new InMemorySpanExporter()
    running = startTracing({ serviceName: 'test', export: { exporter } })
    expect(() => startTracing({ serviceName: 'again', export: { exporter } })).toThrow(/already started/)
    await running.shutdown()
    running = undefined
    const headers: Record<string, string> = {}
    withTraceHeaders(headers, contextFrom({ traceparent }))
    expect(isTracing()).toBe(false)
    expect(headers).toEqual({})
  })
})
