import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  SamplingDecision,
  SimpleSpanProcessor,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace'

export { SpanKind, SpanStatusCode, type Context, type Span }

/**
 * Traces follow one request from the HTTP or gRPC call through Kafka (a W3C `traceparent` header beside the
 * correlation id) into the pipeline, the projectors and the webhook sender. Until `startTracing` runs, the
 * OpenTelemetry API is its no-op: spans are not recorded, headers are neither read nor written, and each call
 * below costs a function call.
 */
let tracing: { provider: TracerProvider; contextManager: AsyncLocalStorageContextManager } | undefined

export interface TracingOptions {
  /** The `service.name` resource attribute. */
  serviceName: string
  /** Where spans go: an OTLP/HTTP collector's base URL, or an exporter (tests use an in-memory one). */
  export: { otlpEndpoint: string } | { exporter: SpanExporter }
}

export interface RunningTracing {
  /** Sends what is buffered. */
  flush(): Promise<void>
  /** Flushes, then returns the process to the no-op API. */
  shutdown(): Promise<void>
}

/**
 * A trace begins where work arrives: a request (server) or a record (consumer). A client call with no trace around
 * it — the Elasticsearch client's own spans for a poll, a lease renewal, a lag read — would be a trace of one span
 * each, many per second, telling nobody anything: not recorded. Inside a trace everything follows its parent.
 */
const traceBeginsWhereWorkArrives: Sampler = {
  shouldSample: (_context, _traceId, _name, kind) => ({
    decision:
      kind === SpanKind.SERVER || kind === SpanKind.CONSUMER
        ? SamplingDecision.RECORD_AND_SAMPLED
        : SamplingDecision.NOT_RECORD,
  }),
  toString: () => 'TraceBeginsWhereWorkArrives',
}

/** Installs the process's tracer provider, the async context and the W3C propagator. One per process. */
export function startTracing(options: TracingOptions): RunningTracing {
  if (tracing) throw new Error('tracing is already started in this process')
  const processor =
    'exporter' in options.export
      ? new SimpleSpanProcessor({ exporter: options.export.exporter })
      : new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({
            url: `${options.export.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`,
          }),
        })
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    sampler: new ParentBasedSampler({ root: traceBeginsWhereWorkArrives }),
    spanProcessors: [processor],
  })
  const contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
  trace.setGlobalTracerProvider(provider)
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  const started = { provider, contextManager }
  tracing = started
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      if (tracing !== started) return
      tracing = undefined
      await provider.shutdown()
      trace.disable()
      propagation.disable()
      context.disable()
    },
  }
}

export const isTracing = (): boolean => tracing !== undefined

export const tracer = (): Tracer => trace.getTracer('memory-service')

/** The trace context a carrier (HTTP headers, gRPC metadata as text, Kafka headers) names; the root without one. */
export function contextFrom(carrier: Record<string, string | string[] | undefined>): Context {
  if (!tracing) return ROOT_CONTEXT
  return propagation.extract(ROOT_CONTEXT, carrier, {
    get: (headers, key) => headers[key],
    keys: (headers) => Object.keys(headers),
  })
}

/** Adds `traceparent` (and `tracestate`) of the active span to `headers`; nothing when tracing is off. */
export function withTraceHeaders(headers: Record<string, string>, from: Context = context.active()): void {
  if (tracing) propagation.inject(from, headers)
}

/**
 * Runs `work` in a span that ends with it (status error when it throws). `parent` defaults to the active context;
 * records from Kafka pass the context their headers name.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!tracing) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT))
  const parent = options.parent ?? context.active()
  const span = tracer().startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
    },
    parent,
  )
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span))
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error))
    span.setStatus({ code: SpanStatusCode.ERROR })
    throw error
  } finally {
    span.end()
  }
}

/** Runs `work` with `span` active: what it starts, appends or logs belongs to that span. */
export const withActiveSpan = <T>(span: Span, work: () => T): T =>
  context.with(trace.setSpan(context.active(), span), work)

/** The ids a log line carries to find its trace; none outside a recorded span. */
export function traceFieldsOfActiveSpan(): { trace_id?: string; span_id?: string } {
  if (!tracing) return {}
  const spanContext = trace.getActiveSpan()?.spanContext()
  return spanContext && trace.isSpanContextValid(spanContext)
    ? { trace_id: spanContext.traceId, span_id: spanContext.spanId }
    : {}
}
