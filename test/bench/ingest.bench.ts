/**
 * `npm run bench:ingest`: events/s and acknowledgement latency of the write path, against the raw engine.
 *   (a) kafkajs producing the same encoded records to the same topic, 100 per send, acks=all
 *   (a″) the same, each event's personal fields sealed with AES-256-GCM under its user's key and framed with the
 *        sealed schema as our codec does: the engine doing the contract's work; (b) and (c) are judged against it
 *   (b) POST /v1/events/batch, 100 events per request
 *   (c) the gRPC stream through the client library, subscribed to anticipated context
 *   (c') the same stream paced at BENCH_RATE events/s (default 1 000): latency of the path, not of a queue
 *   (a') kafkajs paced alike, each event appended as it comes (concurrent ones share a produce request): the engine's
 *        own latency at that rate, on the machine as (c') finds it
 * The gateway runs in this process; the clients run in a process of their own (ingestLoad.ts), as agents do, one
 * scenario at a time, on the local stack. BENCH_EVENTS (20 000) events per scenario, in BENCH_ROUNDS (3) rounds
 * that take (a), (b), (c) in a rotating order; BENCH_ONLY=raw,sealed,http,grpc picks scenarios (to profile one alone).
 */
import { createConsumerLagReader } from '@memory-service/log'
import { percentile, runId, startBench } from './benchSetup.js'
import type { LoadResult, Scenario } from './ingestLoad.js'
import { runLoadProcess } from './loadProcess.js'

const total = Number(process.env.BENCH_EVENTS ?? 20_000)
const pacedRate = Number(process.env.BENCH_RATE ?? 1000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

interface Result extends LoadResult {
  name: string
  /** CPU this process (the gateway: its threads and models) used while the scenario's client process ran, its start included, ms. */
  gatewayCpuMs: number
}

async function main(): Promise<void> {
  const { services, kafka, instance, apiKey, baseUrl, close } = await startBench('bench', ['gateway'])
  const { benchConfig } = await import('./benchSetup.js')
  const grpcAddress = services.addresses.grpc ?? ''
  const results: Result[] = []
  // A scenario starts on a quiet system: whatever projects the ones before (the projectors of `npm start`, when it
  // runs beside) catches up first.
  const lag = createConsumerLagReader(kafka)
  const behind = async () =>
    (await lag.read()).reduce(
      (sum, group) => sum + ('lag' in group && !group.no_committed_offsets ? group.lag : 0),
      0,
    )
  const settle = async () => {
    // Until the lag is gone, or stops shrinking (a group nobody consumes now, `npm start` not running).
    let previous = Infinity
    for (let waited = 0; waited < 120; waited += 1) {
      const current = await behind()
      if (current < 100 || current >= previous) return
      previous = current
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
  const measure = async (name: string, label: string, scenario: Scenario, events: number) => {
    const cpuBefore = process.cpuUsage()
    const result = await runLoadProcess<LoadResult>('./ingestLoad.ts', {
      scenario,
      runId,
      name,
      events,
    })
    const cpu = process.cpuUsage(cpuBefore)
    const gatewayCpuMs = (cpu.user + cpu.system) / 1000
    if (result.notAccepted > 0 || result.acked !== result.events || result.ackedTwice > 0)
      throw new Error(
        `${label}: ${result.events} sent, ${result.acked} acknowledged (${result.ackedTwice} twice), ${result.notAccepted} not accepted`,
      )
    console.log(`${label}, ${name}: ${Math.round(result.events / result.seconds)} events/s`)
    const earlier = results.find((entry) => entry.name === label)
    if (!earlier) return void results.push({ name: label, ...result, gatewayCpuMs })
    earlier.gatewayCpuMs += gatewayCpuMs
    earlier.events += result.events
    earlier.seconds += result.seconds
    earlier.latencies.push(...result.latencies)
    earlier.anticipated += result.anticipated
  }

  const engine: Scenario = {
    kind: 'raw',
    brokers: benchConfig.kafka.brokers,
    registryUrl: benchConfig.schemaRegistry.url,
    instanceId: instance.instance_id,
    clientId: instance.client_id,
  }
  const scenarios: { name: string; label: string; scenario: Scenario }[] = [
    { name: 'raw', label: '(a) raw kafkajs, 100/send', scenario: engine },
    {
      name: 'sealed',
      label: '(a″) raw kafkajs sealing per user, 100/send',
      scenario: { ...engine, sealed: true },
    },
    {
      name: 'http',
      label: '(b) POST /v1/events/batch, 100/request',
      scenario: { kind: 'http', baseUrl, apiKey },
    },
    {
      name: 'grpc',
      label: '(c) gRPC stream (client library)',
      scenario: { kind: 'stream', address: grpcAddress, apiKey },
    },
  ]
  const only = process.env.BENCH_ONLY?.split(',')
  if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter(({ name }) => only.includes(name)))
  // The scenarios take turns in rounds, in a rotating order, and each starts once what the ones before it wrote is
  // digested, so that what the machine does meanwhile (the servers, the projectors of `npm start` digesting the
  // scenario's own events) weighs on each of them alike. Three rounds put each scenario once in each place.
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < scenarios.length; turn += 1) {
      const { name, label, scenario } = scenarios[
        (round + turn) % scenarios.length
      ] as (typeof scenarios)[number]
      await settle()
      await measure(`${name}-${round}`, label, scenario, Math.ceil(total / rounds))
    }
  }
  results.sort((a, b) => a.name.localeCompare(b.name))
  const rawScenario = scenarios.find(({ name }) => name === 'raw')?.scenario
  const paced: { name: string; label: string; scenario: Scenario }[] = [
    {
      name: 'paced',
      label: `(c') gRPC stream paced at ${pacedRate}/s`,
      scenario: { kind: 'stream', address: grpcAddress, apiKey, rate: pacedRate },
    },
    ...(rawScenario?.kind === 'raw'
      ? [
          {
            name: 'paced-raw',
            label: `(a') raw kafkajs paced at ${pacedRate}/s`,
            scenario: { ...rawScenario, rate: pacedRate },
          },
        ]
      : []),
  ]
  for (const { name, label, scenario } of paced) {
    await settle()
    await measure(name, label, scenario, Math.min(total, pacedRate * 10))
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
      // With the warm-up request, and what the gateway does for any scenario (its event id tail reads (a)'s records too).
      'gateway CPU ms/100 ev': ((result.gatewayCpuMs / result.events) * 100).toFixed(2),
    }
  })
  const columns = Object.keys(rows[0] ?? {})
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => (row as Record<string, string>)[column]?.length ?? 0)),
  )
  const line = (cells: string[]) =>
    `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`
  console.log(
    `\ningest benchmark: ${total} events per scenario, one client in a process of its own, ${new Date().toISOString()}\n`,
  )
  console.log(line(columns))
  console.log(line(widths.map((width) => '-'.repeat(width))))
  for (const row of rows)
    console.log(line(columns.map((column) => (row as Record<string, string>)[column] ?? '')))
  await lag.close()
  const stats = services.anticipationStats()
  const pushed = results.reduce((sum, result) => sum + result.anticipated, 0)
  console.log(
    `\nanticipation (streams subscribed): ${stats?.offered ?? 0} user turns offered, ${stats?.started ?? 0} run (the bench user has no memories: each run is the cheap check), ${stats?.coalesced ?? 0} coalesced, ${stats?.expired ?? 0} expired, ${stats?.overflowed ?? 0} overflowed, peak ${stats?.peakRunning ?? 0} at once, ${pushed} pushed`,
  )
  // By label, not position: BENCH_ONLY may leave a scenario out.
  const labelled = (prefix: string) => results.find((result) => result.name.startsWith(prefix))
  const rate = (result: Result) => result.events / result.seconds
  const p50 = (result: Result) =>
    percentile(
      [...result.latencies].sort((a, b) => a - b),
      50,
    )
  const raw = labelled('(a)')
  const sealed = labelled('(a″)')
  if (raw || sealed) console.log('')
  // (b) and (c) are judged against (a″), which does the contract's sealing; (a) is printed beside it.
  for (const [ratio, result, comparator] of [
    ['b/a″', labelled('(b)'), sealed],
    ['c/a″', labelled('(c) '), sealed],
    ['b/a', labelled('(b)'), raw],
    ['c/a', labelled('(c) '), raw],
  ] as const) {
    if (!comparator || !result) continue
    console.log(
      `ratio ${ratio}: throughput ${(rate(result) / rate(comparator)).toFixed(2)}×, p50 latency ${(p50(result) / p50(comparator)).toFixed(2)}×`,
    )
  }
  const pacedStream = labelled("(c')")
  const pacedRaw = labelled("(a')")
  if (pacedStream && pacedRaw) {
    const p99 = (result: Result) =>
      percentile(
        [...result.latencies].sort((a, b) => a - b),
        99,
      )
    console.log(
      `paced at ${pacedRate}/s: p99 ${p99(pacedStream).toFixed(1)} ms against the engine's ${p99(pacedRaw).toFixed(1)} ms (${(p99(pacedStream) / p99(pacedRaw)).toFixed(2)}×)`,
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
