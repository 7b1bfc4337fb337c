import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { pino } from 'pino'
import { Counter, Registry } from 'prom-client'
import {
  conversationEvents,
  countEventOutcomes,
  embeddingBatchSize,
  embeddingDuration,
  measuredEmbedder,
  metricsExposition,
  addMetricsSource,
  timed,
} from './metrics.js'
import { startMetricsListener } from './metricsListener.js'

const valueOf = async (
  metric: { get(): Promise<{ values: { labels: object; value: number }[] }> },
  labels: object,
) =>
  (await metric.get()).values.find((value) => JSON.stringify(value.labels) === JSON.stringify(labels))
    ?.value ?? 0

const histogramCount = async (metric: typeof embeddingDuration, purpose: string) =>
  (await metric.get()).values.find(
    (value) => value.metricName?.endsWith('_count') === true && value.labels.purpose === purpose,
  )?.value ?? 0

describe('metrics', () => {
  it('counts a batch of events by outcome', async () => {
    const before = await valueOf(conversationEvents, { transport: 'http', outcome: 'duplicate' })
    countEventOutcomes('http', [{ status: 'accepted' }, { status: 'duplicate' }, { status: 'duplicate' }])
    expect(await valueOf(conversationEvents, { transport: 'http', outcome: 'duplicate' })).toBe(before + 2)
  })

  it('times work that throws too', async () => {
    const seen: number[] = []
    await expect(
      timed({ observe: (seconds) => seen.push(seconds) }, () => Promise.reject(new Error('x'))),
    ).rejects.toThrow('x')
    expect(seen).toHaveLength(1)
  })

  it('records the batch size and duration of each model call, and returns what the model returned', async () => {
    const calls: string[][] = []
    const embedder = measuredEmbedder(
      {
        model: 'm',
        dimension: 2,
        embed: async (texts) => {
          calls.push(texts)
          return texts.map(() => [1, 0])
        },
        close: async () => undefined,
      },
      'documents',
    )
    const sizesBefore = await histogramCount(embeddingBatchSize, 'documents')
    const callsBefore = await histogramCount(embeddingDuration, 'documents')
    expect(await embedder.embed(['a', 'b', 'c'])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
    ])
    expect(calls).toEqual([['a', 'b', 'c']])
    expect(embedder.model).toBe('m')
    expect(await histogramCount(embeddingBatchSize, 'documents')).toBe(sizesBefore + 1)
    expect(await histogramCount(embeddingDuration, 'documents')).toBe(callsBefore + 1)
    // Without embedQueries the wrapper has none either (callers fall back to embed).
    expect('embedQueries' in embedder).toBe(false)
  })

  it("adds a thread's series to the process's at each scrape, summed with the same series", async () => {
    countEventOutcomes('grpc', [{ status: 'rejected' }])
    const own = (await metricsExposition()).body
    const line = (text: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith('memory_service_events_total{transport="grpc",outcome="rejected"}'))
    const ownValue = Number(line(own)?.split(' ')[1])
    // What a worker thread's registry holds, as its getMetricsAsJSON sends it over.
    const thread = new Registry()
    new Counter({
      name: 'memory_service_events_total',
      help: 'the same family',
      labelNames: ['transport', 'outcome'],
      registers: [thread],
    }).inc({ transport: 'grpc', outcome: 'rejected' }, 5)
    const stop = addMetricsSource(async () => await thread.getMetricsAsJSON())
    try {
      const merged = (await metricsExposition()).body
      expect(Number(line(merged)?.split(' ')[1])).toBe(ownValue + 5)
      expect(merged).toContain('process_cpu_seconds_total')
    } finally {
      stop()
    }
  })
})

describe('metrics listener', () => {
  const silent = pino({ level: 'silent' })

  it('serves /metrics and answers 404 in the spec body elsewhere', async () => {
    const listener = await startMetricsListener(0, silent, '127.0.0.1')
    try {
      const metrics = await fetch(`${listener?.address ?? ''}/metrics`)
      expect(metrics.status).toBe(200)
      expect(await metrics.text()).toContain('# TYPE memory_service_events_total counter')
      const other = await fetch(`${listener?.address ?? ''}/other`)
      expect(other.status).toBe(404)
      expect(((await other.json()) as { code: string }).code).toBe('NOT_FOUND')
    } finally {
      await listener?.close()
    }
  })

  it('gives up, without failing, when the port is taken', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = taken.address() as AddressInfo
      expect(await startMetricsListener(port, silent, '127.0.0.1')).toBeUndefined()
    } finally {
      taken.close()
    }
  })
})
