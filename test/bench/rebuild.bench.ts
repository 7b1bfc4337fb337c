/**
 * `npm run bench:rebuild`: what one instance's configuration rebuild costs the others. Two instances of
 * BENCH_MEMORIES memories each (20 000) in a namespace of their own (`bench-rebuild`, dropped at the end); instance
 * B's accurate search (limit 10, half with user_id), one client, p50/p95/p99:
 *   (a) quiet;
 *   (b) while instance A's configuration change (stop storing preferences) re-projects A in place;
 *   (c) while `memory-service replay --projection all` rebuilds every instance into new generations, which is what a
 *       configuration change did before rebuilds were per instance.
 * With how long each rebuild took. Gateway and projectors run in this process (as `npm start` runs them), so (b)
 * shares the gateway's event loop; the replay of (c) is a CLI process of its own, as an operator runs it.
 * The memories enter as MemoryChanged events with seeded random unit vectors: search latency does not depend on what
 * the vectors mean, and nothing has to be embedded before the measurement.
 */
import { execFile } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { availableParallelism, loadavg } from 'node:os'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { createMemoryClient, type MemoryClient } from '@memory-service/client'
import { createTenancyCommands } from '@memory-service/commands'
import type { MemoryChanged } from '@memory-service/contracts'
import {
  allPermissions,
  createControlEventFactory,
  deployment,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  MEMORY_SUBJECT,
  memoryChangedSchema,
  memoryIdFor,
} from '@memory-service/domain'
import {
  createElasticsearchClient,
  createKafka,
  createNeo4jDriver,
  createNeo4jStore,
  dropDeployment,
} from '@memory-service/engines'
import { createCoalescingAppender, createControlPlane, createEventProducer } from '@memory-service/log'
import { benchConfig, benchLogger, percentile, startBench } from './benchSetup.js'

const perInstance = Number(process.env.BENCH_MEMORIES ?? 20_000)
const dimension = benchConfig.embeddings.dimension
const run = promisify(execFile)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const types = ['fact', 'preference', 'episode', 'emotion', 'temporal_event'] as const
const names = ['Maria', 'Jon', 'Caroline', 'Priya', 'Omar', 'Lena', 'Hiro', 'Ines', 'Kofi', 'Zoe']
const things = [
  'ramen',
  'jazz',
  'Lisbon',
  'hiking',
  'chess',
  'the violin',
  'sushi',
  'Berlin',
  'sailing',
  'tea',
]
const users = Array.from({ length: 20 }, (_, index) => `bench-user-${String(index)}`)

/** mulberry32: small, fast, deterministic. */
function prng(state: number): () => number {
  let value = state >>> 0
  return () => {
    value = (value + 0x6d2b79f5) >>> 0
    let mixed = value
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

function unitVector(random: () => number): number[] {
  const vector = Array.from({ length: dimension }, () => random() - 0.5)
  const norm = Math.hypot(...vector)
  return vector.map((value) => value / norm)
}

function memoriesOf(instance: { instance_id: string; client_id: string }, seed: number): MemoryChanged[] {
  const random = prng(seed)
  const changedAt = new Date().toISOString()
  return Array.from({ length: perInstance }, (_, index) => {
    const ingestionId = `ing_${createHash('sha256')
      .update(`${instance.instance_id}/${String(index)}`)
      .digest('hex')
      .slice(0, 32)}`
    const id = memoryIdFor(ingestionId, 0)
    const name = names[index % names.length] ?? 'Maria'
    const thing = things[Math.floor(index / names.length) % things.length] ?? 'tea'
    return {
      type: 'memory_changed',
      change: 'created',
      event_id: randomUUID(),
      memory_id: id,
      instance_id: instance.instance_id,
      version: 1,
      changed_at: changedAt,
      memory: {
        id,
        instance_id: instance.instance_id,
        type: types[index % types.length] ?? 'fact',
        content: `${name} talked about ${thing} (note ${String(index)}).`,
        confidence: 0.9,
        entities: [],
        relations: [],
        scope: {
          user_id: users[index % users.length] ?? 'bench-user-0',
          customer_id: null,
          client_id: instance.client_id,
        },
        source: { ingestion_id: ingestionId, document_type: 'note', document_created_at: changedAt },
        metadata: { bench: 'rebuild' },
        created_at: changedAt,
        updated_at: null,
        occurred_on: null,
        speaker: null,
        mode: 'fast',
        embedding: { model: benchConfig.embeddings.model, vector: unitVector(random) },
      },
    }
  })
}

interface Window {
  label: string
  latencies: number[]
  errors: number
  seconds?: number
  /** This process's event-loop delay p99 (ms): how long the gateway's requests waited behind other work here. */
  loopDelayP99: number
}

/** Searches instance B one request at a time until `until` resolves (or `requests` were sent). */
async function searchWhile(
  client: MemoryClient,
  label: string,
  until: Promise<unknown> | number,
): Promise<Window> {
  const window: Window = { label, latencies: [], errors: 0, loopDelayP99: 0 }
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  let done = typeof until === 'number'
  if (typeof until !== 'number') void until.finally(() => (done = true))
  for (let index = 0; typeof until === 'number' ? index < until : !done; index += 1) {
    const name = names[index % names.length] ?? 'Maria'
    const sent = performance.now()
    try {
      await client.memories.search({
        query: `What does ${name} like?`,
        mode: 'accurate',
        limit: 10,
        ...(index % 2 === 0 ? { user_id: users[index % users.length] } : {}),
      })
      window.latencies.push(performance.now() - sent)
    } catch {
      window.errors += 1
    }
  }
  loop.disable()
  window.loopDelayP99 = loop.percentile(99) / 1e6
  window.latencies.sort((a, b) => a - b)
  return window
}

async function main(): Promise<void> {
  if (deployment.namespace !== 'bench-rebuild')
    throw new Error('run through `npm run bench:rebuild` (it sets MEMORY_SERVICE_NAMESPACE=bench-rebuild)')
  const es = createElasticsearchClient(benchConfig.elasticsearch)
  const neo4j = createNeo4jStore(createNeo4jDriver(benchConfig.neo4j), benchConfig.neo4j.database)
  // What an interrupted run left behind would be counted and rebuilt too.
  const kafka = createKafka({
    brokers: benchConfig.kafka.brokers,
    clientId: 'bench-rebuild',
    logger: benchLogger,
  })
  await dropDeployment({ kafka, elasticsearch: es, neo4j }, deployment)
  const bench = await startBench('bench-rebuild-b', ['gateway', 'projectors'])
  const control = await createControlPlane({ kafka: bench.kafka, codec: bench.codec, logger: benchLogger })
  try {
    const tenancy = createTenancyCommands(control, createControlEventFactory())
    const factory = createControlEventFactory()
    const a = await tenancy.createInstance(
      {
        clientId: factory.newClientId(),
        name: 'bench-rebuild-a',
        tier: 'enterprise',
        rateLimit: { requests_per_minute: 1_000_000, burst: 100_000 },
      },
      'bench',
    )
    const reviewerKey = await tenancy.issueKey(a.instance.instance_id, allPermissions, 'bench')
    const client = (apiKey: string) =>
      createMemoryClient({ baseUrl: bench.baseUrl, apiKey, timeoutMs: 60_000 })
    const proposer = client(a.api_key.key)
    const reviewer = client(reviewerKey.key)
    const other = client(bench.apiKey)
    for (const api of [proposer, reviewer])
      for (;;) {
        if (
          await api.instances.list().then(
            () => true,
            () => false,
          )
        )
          break
        await sleep(100)
      }

    await bench.codec.register([{ subject: MEMORY_SUBJECT, schema: memoryChangedSchema }])
    const producer = await createEventProducer(bench.kafka, bench.codec)
    const appender = createCoalescingAppender(producer, { maxEvents: 400 })
    const loadStarted = performance.now()
    const events = [...memoriesOf(a.instance, 1), ...memoriesOf(bench.instance, 2)]
    for (let start = 0; start < events.length; start += 400) {
      await appender.append(
        MEMORIES_TOPIC,
        events.slice(start, start + 400).map((event) => ({
          key: event.memory_id,
          subject: MEMORY_SUBJECT,
          payload: event,
          correlationId: 'bench-rebuild',
        })),
      )
    }
    await producer.close()
    const count = async (instanceId: string) =>
      (await es.count({ index: MEMORIES_ALIAS, query: { term: { instance_id: instanceId } } })).count
    const graphCount = async () => {
      const [row] = await neo4j.read<{ count: number }>(
        'MATCH (memory:Memory) WHERE memory.generation STARTS WITH $prefix RETURN count(memory) AS count',
        { prefix: 'bench-rebuild/' },
      )
      return row?.count ?? 0
    }
    for (;;) {
      const [inA, inB, inGraph] = await Promise.all([
        count(a.instance.instance_id),
        count(bench.instance.instance_id),
        graphCount(),
      ])
      if (inA >= perInstance && inB >= perInstance && inGraph >= 2 * perInstance) break
      await sleep(1000)
    }
    console.log(
      `loaded ${String(events.length)} memories into both projections in ${((performance.now() - loadStarted) / 1000).toFixed(0)}s`,
    )

    await searchWhile(other, 'warm-up', 50)
    const quiet = await searchWhile(other, 'quiet', 300)

    // (b) A's configuration stops storing preferences: a rebuild of vector and graph, A only.
    await proposer.configs.init(a.instance.instance_id)
    const proposed = await proposer.configs.propose(
      a.instance.instance_id,
      'extraction:\n  memory_types: [fact, episode, emotion, temporal_event]\n',
    )
    await reviewer.configs.review(a.instance.instance_id, proposed.config_id, {
      decision: 'approve',
      comment: 'bench',
    })
    const applyStarted = performance.now()
    await reviewer.configs.apply(a.instance.instance_id, proposed.config_id)
    const configRebuild = (async () => {
      for (;;) {
        const version = await proposer.configs.get(a.instance.instance_id, proposed.config_id)
        if (version.rebuild?.status === 'completed') return (performance.now() - applyStarted) / 1000
        if (version.rebuild?.status === 'failed')
          throw new Error(`rebuild failed: ${version.rebuild.error ?? ''}`)
        await sleep(250)
      }
    })()
    const duringInstance = await searchWhile(other, 'instance A re-projected in place', configRebuild)
    duringInstance.seconds = await configRebuild
    const withheld = perInstance - (await count(a.instance.instance_id))

    // (c) every instance rebuilt into new generations, as a configuration change did before.
    const replayStarted = performance.now()
    const replay = run(
      'node_modules/.bin/tsx',
      ['--conditions=memory-service-source', 'services/cli/src/main.ts', 'replay', '--projection', 'all'],
      { env: { ...process.env, LOG_LEVEL: 'warn' }, maxBuffer: 64 * 1024 * 1024 },
    ).then(() => (performance.now() - replayStarted) / 1000)
    const duringReplay = await searchWhile(other, 'every instance rebuilt (replay)', replay)
    duringReplay.seconds = await replay

    const rows = [quiet, duringInstance, duringReplay].map((window) => ({
      'B searched while': window.label,
      requests: String(window.latencies.length + window.errors),
      errors: String(window.errors),
      'p50 ms': percentile(window.latencies, 50).toFixed(1),
      'p95 ms': percentile(window.latencies, 95).toFixed(1),
      'p99 ms': percentile(window.latencies, 99).toFixed(1),
      'p95 / quiet':
        window === quiet
          ? '-'
          : `${(percentile(window.latencies, 95) / percentile(quiet.latencies, 95)).toFixed(2)}×`,
      'loop delay p99 ms': window.loopDelayP99.toFixed(0),
      'rebuild s': window.seconds === undefined ? '-' : window.seconds.toFixed(1),
    }))
    const columns = Object.keys(rows[0] ?? {})
    const widths = columns.map((column) =>
      Math.max(column.length, ...rows.map((row) => (row as Record<string, string>)[column]?.length ?? 0)),
    )
    const line = (cells: string[]) =>
      `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`
    console.log(
      `\nrebuild benchmark: 2 instances × ${String(perInstance)} memories, ${benchConfig.embeddings.model}, ` +
        `${new Date().toISOString()}; ${String(availableParallelism())} CPUs, 1-min load ${(loadavg()[0] ?? 0).toFixed(1)}`,
    )
    console.log(
      `instance A's configuration withheld ${String(withheld)} preferences (of ${String(perInstance)})\n`,
    )
    console.log(line(columns))
    console.log(line(widths.map((width) => '-'.repeat(width))))
    for (const row of rows)
      console.log(line(columns.map((column) => (row as Record<string, string>)[column] ?? '')))
  } finally {
    await control.close()
    await bench.close()
    const dropped = await dropDeployment({ kafka: bench.kafka, elasticsearch: es, neo4j }, deployment)
    console.log(`\ndropped namespace ${deployment.namespace}: ${JSON.stringify(dropped)}`)
    await Promise.allSettled([es.close(), neo4j.close()])
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
