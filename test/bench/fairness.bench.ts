/**
 * `npm run bench:fairness`: whether one customer's import holds another's agent (issue 56). The services run in this
 * process as `npm start` runs them; three customers, each an instance of its own, run in a client process
 * (fairnessLoad.ts):
 *   - A imports BENCH_DOCUMENTS LoCoMo turns (default 10 000) as documents through the batch route, mode long-range;
 *   - B streams a BEAM conversation once over the gRPC stream, as fast as it is acknowledged (64 in flight);
 *   - C writes one short document and one conversation event a second, and measures accepted → searchable: a
 *     document's 201 to the first search that finds it, an event's ack to the first context fetch that returns it.
 * Each runs alone first (B and C for BENCH_ALONE_SECONDS, default 30), then all three together until A's import is
 * formed. It prints C's p50 / p99 in both, A's and B's throughput together against alone, and one line:
 * `fairness documents=… c_document_p50_ms=… c_document_p99_ms=… c_event_p99_ms=… a_ratio=… b_ratio=…`.
 */
import { percentile, runId, startBench } from './benchSetup.js'
import type { FairnessJob, FairnessResult } from './fairnessLoad.js'
import { runLoadProcess } from './loadProcess.js'

const documents = Number(process.env.BENCH_DOCUMENTS ?? 10_000)
const aloneSeconds = Number(process.env.BENCH_ALONE_SECONDS ?? 30)

const fixed = (value: number, digits = 0) => value.toFixed(digits)

async function main(): Promise<void> {
  const bench = await startBench('fairness-a', ['gateway', 'pipeline', 'projectors'])
  const b = await bench.newInstance('fairness-b')
  const c = await bench.newInstance('fairness-c')
  const base = {
    baseUrl: bench.baseUrl,
    grpcAddress: bench.services.addresses.grpc ?? '',
    seconds: aloneSeconds,
  }
  const phase = (name: string, job: Omit<FairnessJob, 'baseUrl' | 'grpcAddress' | 'seconds' | 'runId'>) => {
    console.log(`${new Date().toISOString()} ${name}…`)
    return runLoadProcess<FairnessResult>('./fairnessLoad.ts', { ...base, runId: `${runId}${name}`, ...job })
  }
  const importer = { apiKey: bench.apiKey, documents }
  const aAlone = await phase('a', { importer })
  const bAlone = await phase('b', { streamer: { apiKey: b.apiKey } })
  const cAlone = await phase('c', { prober: { apiKey: c.apiKey } })
  const together = await phase('abc', {
    importer,
    streamer: { apiKey: b.apiKey },
    prober: { apiKey: c.apiKey },
  })

  const rateOfA = (result: FairnessResult) =>
    result.imported ? result.imported.documents / result.imported.formedInSeconds : 0
  const rateOfB = (result: FairnessResult) =>
    result.streamed ? result.streamed.acked / result.streamed.seconds : 0
  const sorted = (values: number[]) => [...values].sort((x, y) => x - y)
  const lags = (result: FairnessResult) => ({
    documents: sorted(result.documentLags),
    events: sorted(result.eventLags),
  })
  const alone = lags(cAlone)
  const shared = lags(together)

  console.log(
    `\nfairness benchmark: A imports ${documents} LoCoMo turns (batch route, long-range), B streams ${together.streamed?.source ?? '?'}, C one document and one event a second; ${new Date().toISOString()}\n`,
  )
  console.log('| C: accepted → searchable (ms) | samples | p50   | p95   | p99   | max    | lost |')
  console.log('| ----------------------------- | ------- | ----- | ----- | ----- | ------ | ---- |')
  for (const [name, values, lost] of [
    ['document, C alone', alone.documents, cAlone.probesLost],
    ['document, beside A and B', shared.documents, together.probesLost],
    ['event, C alone', alone.events, cAlone.probesLost],
    ['event, beside A and B', shared.events, together.probesLost],
  ] as const) {
    console.log(
      `| ${name.padEnd(29)} | ${String(values.length).padEnd(7)} | ${fixed(percentile(values, 50)).padEnd(5)} | ${fixed(percentile(values, 95)).padEnd(5)} | ${fixed(percentile(values, 99)).padEnd(5)} | ${fixed(values.at(-1) ?? 0).padEnd(6)} | ${String(lost).padEnd(4)} |`,
    )
  }
  const aRatio = rateOfA(together) / rateOfA(aAlone)
  const bRatio = rateOfB(together) / rateOfB(bAlone)
  console.log('\n| throughput                     | alone      | beside the others | ratio |')
  console.log('| ------------------------------ | ---------- | ----------------- | ----- |')
  console.log(
    `| A: documents formed per second | ${fixed(rateOfA(aAlone), 1).padEnd(10)} | ${fixed(rateOfA(together), 1).padEnd(17)} | ${fixed(aRatio, 2).padEnd(5)} |`,
  )
  console.log(
    `| B: events acknowledged per s   | ${fixed(rateOfB(bAlone), 0).padEnd(10)} | ${fixed(rateOfB(together), 0).padEnd(17)} | ${fixed(bRatio, 2).padEnd(5)} |`,
  )
  console.log(
    `\nfairness documents=${documents} c_document_p50_ms=${fixed(percentile(shared.documents, 50))} c_document_p99_ms=${fixed(percentile(shared.documents, 99))} c_event_p99_ms=${fixed(percentile(shared.events, 99))} a_ratio=${fixed(aRatio, 2)} b_ratio=${fixed(bRatio, 2)}`,
  )
  await bench.close()
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
