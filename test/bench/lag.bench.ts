/**
 * `npm run bench:lag`: how far behind the acknowledgement the read side is, under a sustained write load. The
 * gateway, pipeline and projectors run in this process; a client process of its own (lagLoad.ts) streams
 * BENCH_RATE conversation events per second (default 1 000) for BENCH_SECONDS (default 60) over 200 conversations,
 * with documents beside them, and measures
 *   - turn lag: from a turn's ack to the first context fetch that returns it (probe turns, 2 per second)
 *   - memory lag: from a document's 201 to the first search that finds its memory (2 documents per second)
 * Then where this process's pipeline spent the documents' time (pipelineStages.ts), and one line:
 * `lag events_per_s=… turn_p50_ms=… turn_p99_ms=… memory_p50_ms=… memory_p99_ms=…`.
 */
import { metricsRegistry } from '@memory-service/engines'
import { percentile, runId, startBench } from './benchSetup.js'
import { printConsumerDelays, printPipelineStages } from './pipelineStages.js'
import type { LagResult } from './lagLoad.js'
import { runLoadProcess } from './loadProcess.js'

const rate = Number(process.env.BENCH_RATE ?? 1000)
const seconds = Number(process.env.BENCH_SECONDS ?? 60)

const fixed = (value: number) => value.toFixed(0)

async function main(): Promise<void> {
  const { services, apiKey, baseUrl, close } = await startBench('lag', ['gateway', 'pipeline', 'projectors'])
  // The stage tables count what the load made this process's pipeline do (compactions' documents and the probes').
  metricsRegistry.resetMetrics()
  const result = await runLoadProcess<LagResult>('./lagLoad.ts', {
    grpcAddress: services.addresses.grpc ?? '',
    baseUrl,
    apiKey,
    runId,
    rate,
    seconds,
    documentsPerSecond: 2,
    probesPerSecond: 2,
  })
  const turns = [...result.turnLags].sort((a, b) => a - b)
  const memories = [...result.memoryLags].sort((a, b) => a - b)
  const eventsPerSecond = result.acked / result.seconds
  console.log(
    `\nlag benchmark: ${rate} events/s for ${seconds} s over 200 conversations, 2 documents/s beside, ${new Date().toISOString()}`,
  )
  console.log(
    `sent ${result.sent}, acknowledged ${result.acked} (${result.notAccepted} not accepted) in ${result.seconds.toFixed(1)} s\n`,
  )
  console.log('| lag (ms)                      | samples | p50   | p95   | p99   | max   | lost |')
  console.log('| ----------------------------- | ------- | ----- | ----- | ----- | ----- | ---- |')
  for (const [name, sorted, lost] of [
    ['ack → turn in context fetch', turns, result.turnProbesLost],
    ['201 → memory found by search', memories, result.memoryProbesLost],
  ] as const) {
    console.log(
      `| ${name.padEnd(29)} | ${String(sorted.length).padEnd(7)} | ${fixed(percentile(sorted, 50)).padEnd(5)} | ${fixed(percentile(sorted, 95)).padEnd(5)} | ${fixed(percentile(sorted, 99)).padEnd(5)} | ${fixed(sorted.at(-1) ?? 0).padEnd(5)} | ${String(lost).padEnd(4)} |`,
    )
  }
  const buckets = new Map<number, number[]>()
  for (const [at, lag] of result.turnSeries) {
    const bucket = Math.floor(at / 10) * 10
    buckets.set(bucket, [...(buckets.get(bucket) ?? []), lag])
  }
  console.log(
    `\nturn lag over time (p50/max ms per 10 s): ${[...buckets]
      .sort((a, b) => a[0] - b[0])
      .map(([at, lags]) => {
        const sorted = lags.sort((a, b) => a - b)
        return `${at}s ${fixed(percentile(sorted, 50))}/${fixed(sorted.at(-1) ?? 0)}`
      })
      .join(', ')}`,
  )
  await printPipelineStages(result.seconds)
  await printConsumerDelays()
  console.log(
    `\nlag events_per_s=${fixed(eventsPerSecond)} turn_p50_ms=${fixed(percentile(turns, 50))} turn_p99_ms=${fixed(percentile(turns, 99))} memory_p50_ms=${fixed(percentile(memories, 50))} memory_p99_ms=${fixed(percentile(memories, 99))}`,
  )
  await close()
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
