/**
 * `npm run bench:scale-out`: how the stream grows from one gateway process to two on this machine (issue 33, item 5).
 * The two gateways of the cluster topology (infra/cluster) run as processes of their own, in a namespace of this run;
 * two clients (load processes, ingestLoad.ts) send at once, either both to gateway-1 or one to each gateway:
 *   (a) raw kafkajs, two producers, 100 records per send — the engine's figure in the same rounds
 *   (b) POST /v1/events/batch, 100 events per request
 *   (c) the gRPC stream through the client library
 * A scenario's rate is its events over the longer of the two clients' times. BENCH_EVENTS (40 000) events per
 * scenario, in BENCH_ROUNDS (4) rounds that take the scenarios in a rotating order.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

// Before any module reads it: every process of the run (gateways, clients) names its topics and indices after it.
process.env.MEMORY_SERVICE_NAMESPACE ??= `bench-scale-${randomBytes(3).toString('hex')}`
const { clusterMembers, freeClusterPorts, startCluster } = await import('../../infra/cluster/cluster.js')
const { createMemoryClient } = await import('@memory-service/client')
const { loadConfig } = await import('@memory-service/engines')
const { percentile, runId } = await import('./benchSetup.js')
const { runLoadProcess } = await import('./loadProcess.js')
type Scenario = import('./ingestLoad.js').Scenario
type LoadResult = import('./ingestLoad.js').LoadResult

const total = Number(process.env.BENCH_EVENTS ?? 40_000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 4)
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const started = Date.now()
const say = (message: string) =>
  console.log(`[scale-out ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`)

interface Measured {
  label: string
  events: number
  seconds: number
  latencies: number[]
}

const logDir = mkdtempSync(join(tmpdir(), 'memory-service-scale-out-'))
const config = loadConfig(process.env)
const cluster = await startCluster({
  root,
  logDir,
  members: clusterMembers(await freeClusterPorts()).filter((member) => member.role === 'gateway'),
  env: { CLICKHOUSE_DATA_PATH: join(logDir, 'clickhouse') },
  onProgress: say,
})
try {
  const developmentKey = /Bearer (msk_[A-Za-z0-9_-]+)/.exec(
    readFileSync(cluster.logFile('gateway-1'), 'utf8'),
  )?.[1]
  if (!developmentKey) throw new Error('gateway-1 printed no development key')
  const [first, second] = cluster.gateways
  if (!first?.http || !first.grpc || !second?.http || !second.grpc) throw new Error('two gateways expected')
  // An instance whose rate limit the load stays under (the development instance's would refuse it), as bench:ingest's.
  const { instance, api_key } = await createMemoryClient({
    baseUrl: first.http,
    apiKey: developmentKey,
  }).instances.create({
    name: 'bench scale-out',
    tier: 'enterprise',
    rate_limit: { requests_per_minute: 1_000_000, burst: 100_000 },
  })
  const apiKey = api_key.key
  // Both gateways learn of the instance from the control topic.
  for (const gateway of [first, second]) {
    const client = createMemoryClient({ baseUrl: gateway.http ?? '', apiKey })
    for (let attempt = 0; ; attempt += 1) {
      const known = await client.instances.get(instance.instance_id).then(
        () => true,
        () => false,
      )
      if (known) break
      if (attempt > 100) throw new Error(`${gateway.name} does not know the bench instance`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  const raw: Scenario = {
    kind: 'raw',
    brokers: config.kafka.brokers,
    registryUrl: config.schemaRegistry.url,
    instanceId: instance.instance_id,
    clientId: instance.client_id,
  }
  const http = (baseUrl: string): Scenario => ({ kind: 'http', baseUrl, apiKey })
  const stream = (address: string): Scenario => ({ kind: 'stream', address, apiKey })
  const scenarios: { name: string; label: string; clients: [Scenario, Scenario] }[] = [
    { name: 'raw', label: '(a) raw kafkajs, 2 producers', clients: [raw, raw] },
    {
      name: 'http1',
      label: '(b) HTTP batch, 2 clients → 1 gateway',
      clients: [http(first.http), http(first.http)],
    },
    {
      name: 'http2',
      label: '(b) HTTP batch, 2 clients → 2 gateways',
      clients: [http(first.http), http(second.http)],
    },
    {
      name: 'grpc1',
      label: '(c) gRPC stream, 2 clients → 1 gateway',
      clients: [stream(first.grpc), stream(first.grpc)],
    },
    {
      name: 'grpc2',
      label: '(c) gRPC stream, 2 clients → 2 gateways',
      clients: [stream(first.grpc), stream(second.grpc)],
    },
  ]
  const measured = new Map<string, Measured>()
  const perClient = Math.ceil(total / rounds / 2)
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < scenarios.length; turn += 1) {
      const { name, label, clients } = scenarios[
        (round + turn) % scenarios.length
      ] as (typeof scenarios)[number]
      const results = await Promise.all(
        clients.map((scenario, client) =>
          runLoadProcess<LoadResult>('./ingestLoad.ts', {
            scenario,
            runId,
            name: `${name}-${String(round)}-${String(client)}`,
            events: perClient,
          }),
        ),
      )
      for (const result of results)
        if (result.notAccepted > 0 || result.acked !== result.events || result.ackedTwice > 0)
          throw new Error(
            `${label}: ${String(result.events)} sent, ${String(result.acked)} acknowledged (${String(result.ackedTwice)} twice), ${String(result.notAccepted)} not accepted`,
          )
      const entry = measured.get(name) ?? { label, events: 0, seconds: 0, latencies: [] }
      entry.events += results.reduce((sum, result) => sum + result.events, 0)
      entry.seconds += Math.max(...results.map((result) => result.seconds))
      entry.latencies.push(...results.flatMap((result) => result.latencies))
      measured.set(name, entry)
      say(`round ${String(round + 1)}: ${label} done`)
    }
  }

  const rate = (name: string) => {
    const entry = measured.get(name)
    return entry ? entry.events / entry.seconds : Number.NaN
  }
  console.log(
    `\nscale-out benchmark: ${String(total)} events per scenario, two clients at once, ${new Date().toISOString()}\n`,
  )
  console.log('| Scenario | events/s | p50 ms | p99 ms | ÷ (a) |')
  console.log('| --- | --- | --- | --- | --- |')
  for (const { name } of scenarios) {
    const entry = measured.get(name)
    if (!entry) continue
    const sorted = [...entry.latencies].sort((a, b) => a - b)
    console.log(
      `| ${entry.label} | ${rate(name).toFixed(0)} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${(rate(name) / rate('raw')).toFixed(2)}× |`,
    )
  }
  console.log(
    `\ntwo gateways ÷ one: HTTP batch ${(rate('http2') / rate('http1')).toFixed(2)}×, gRPC stream ${(rate('grpc2') / rate('grpc1')).toFixed(2)}×`,
  )
} finally {
  await cluster.stop()
  rmSync(logDir, { recursive: true, force: true })
  await promisify(execFile)(
    join(root, 'node_modules/.bin/tsx'),
    ['--conditions=memory-service-source', 'test/support/dropTestNamespace.ts'],
    { cwd: root },
  ).catch((error: unknown) => say(`namespace not dropped: ${(error as Error).message}`))
}
process.exit(0)
