/**
 * `npm run bench:reembed`: what re-embedding one instance in place costs, and what it costs another instance's
 * searches. Two instances of BENCH_MEMORIES memories each (2 000) in a namespace of their own (`bench-reembed`,
 * dropped at the end), written as all-MiniLM-L6-v2's (seeded random unit vectors: search latency does not depend on
 * what they mean), half of A's with a conversation around them (a second text to embed). Then
 * `memory-service reembed --instance A` runs as an operator runs it, a CLI process of its own with another
 * EMBEDDINGS_MODEL, once per row of BENCH_REEMBED_RUNS (model:idle-share, comma-separated), while instance B's
 * accurate search (one client, limit 10) is measured; first with nothing else running. The gateway and projectors run
 * in this process, as `npm start` runs them, with all-MiniLM-L6-v2 for questions.
 */
import { execFile } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { availableParallelism, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { createMemoryClient, type MemoryClient } from '@memory-service/client'
import { createTenancyCommands } from '@memory-service/commands'
import type { MemoryChanged } from '@memory-service/contracts'
import {
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
import type { ReembeddingReport } from '@memory-service/commands'
import { benchConfig, benchLogger, percentile, startBench } from './benchSetup.js'

const perInstance = Number(process.env.BENCH_MEMORIES ?? 2_000)
const runs = (process.env.BENCH_REEMBED_RUNS ?? 'bge-small-en-v1.5:1,e5-small-v2:0,all-MiniLM-L6-v2:1')
  .split(',')
  .map((run) => {
    const [model = '', idleShare = '1'] = run.split(':')
    return { model, idleShare }
  })
const dimension = benchConfig.embeddings.dimension
const execute = promisify(execFile)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
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

function memoriesOf(
  instance: { instance_id: string; client_id: string },
  seed: number,
  withContext: boolean,
): MemoryChanged[] {
  const random = prng(seed)
  const changedAt = new Date().toISOString()
  const model = `local/${benchConfig.embeddings.model}`
  return Array.from({ length: perInstance }, (_, index) => {
    const ingestionId = `ing_${createHash('sha256')
      .update(`${instance.instance_id}/${String(index)}`)
      .digest('hex')
      .slice(0, 32)}`
    const id = memoryIdFor(ingestionId, 0)
    const name = names[index % names.length] ?? 'Maria'
    const thing = things[Math.floor(index / names.length) % things.length] ?? 'tea'
    const vector = unitVector(random)
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
        type: 'episode',
        content: `${name} spent the afternoon on ${thing} and told a friend all about it (note ${String(index)}).`,
        confidence: 0.9,
        entities: [],
        relations: [],
        scope: {
          user_id: `bench-user-${String(index % 20)}`,
          customer_id: null,
          client_id: instance.client_id,
        },
        source: { ingestion_id: ingestionId, document_type: 'note', document_created_at: changedAt },
        metadata: { bench: 'reembed' },
        created_at: changedAt,
        updated_at: null,
        occurred_on: null,
        speaker: null,
        mode: 'fast',
        embedding: { model, vector },
        ...(withContext && index % 2 === 0
          ? {
              context: {
                before: `What did you do this weekend, ${name}? Anything with ${thing}?`,
                after: 'That sounds lovely, tell me more next time.',
                embedding: { model, vector: unitVector(random) },
              },
            }
          : {}),
      },
    }
  })
}

interface Window {
  label: string
  latencies: number[]
  errors: number
}

/** Searches instance B one request at a time until `until` resolves (or `requests` were sent). */
async function searchWhile(
  client: MemoryClient,
  label: string,
  until: Promise<unknown> | number,
): Promise<Window> {
  const window: Window = { label, latencies: [], errors: 0 }
  let done = typeof until === 'number'
  if (typeof until !== 'number') void until.finally(() => (done = true))
  for (let index = 0; typeof until === 'number' ? index < until : !done; index += 1) {
    const name = names[index % names.length] ?? 'Maria'
    const sent = performance.now()
    try {
      await client.memories.search({ query: `What does ${name} like?`, mode: 'accurate', limit: 10 })
      window.latencies.push(performance.now() - sent)
    } catch {
      window.errors += 1
    }
  }
  window.latencies.sort((a, b) => a - b)
  return window
}

async function main(): Promise<void> {
  if (deployment.namespace !== 'bench-reembed')
    throw new Error('run through `npm run bench:reembed` (it sets MEMORY_SERVICE_NAMESPACE=bench-reembed)')
  const es = createElasticsearchClient(benchConfig.elasticsearch)
  const neo4j = createNeo4jStore(createNeo4jDriver(benchConfig.neo4j), benchConfig.neo4j.database)
  const kafka = createKafka({
    brokers: benchConfig.kafka.brokers,
    clientId: 'bench-reembed',
    logger: benchLogger,
  })
  // What an interrupted run left behind would be re-embedded too.
  await dropDeployment({ kafka, elasticsearch: es, neo4j }, deployment)
  const bench = await startBench('bench-reembed-b', ['gateway', 'projectors'])
  const control = await createControlPlane({ kafka: bench.kafka, codec: bench.codec, logger: benchLogger })
  try {
    const factory = createControlEventFactory()
    const a = await createTenancyCommands(control, factory).createInstance(
      {
        clientId: factory.newClientId(),
        name: 'bench-reembed-a',
        tier: 'enterprise',
        rateLimit: { requests_per_minute: 1_000_000, burst: 100_000 },
      },
      'bench',
    )
    const other = createMemoryClient({ baseUrl: bench.baseUrl, apiKey: bench.apiKey, timeoutMs: 60_000 })

    await bench.codec.register([{ subject: MEMORY_SUBJECT, schema: memoryChangedSchema }])
    const producer = await createEventProducer(bench.kafka, bench.codec)
    const appender = createCoalescingAppender(producer, { maxEvents: 400 })
    const events = [...memoriesOf(a.instance, 1, true), ...memoriesOf(bench.instance, 2, false)]
    for (let start = 0; start < events.length; start += 400) {
      await appender.append(
        MEMORIES_TOPIC,
        events.slice(start, start + 400).map((event) => ({
          key: event.memory_id,
          subject: MEMORY_SUBJECT,
          payload: event,
          correlationId: 'bench-reembed',
        })),
      )
    }
    await producer.close()
    const count = async (instanceId: string) =>
      (await es.count({ index: MEMORIES_ALIAS, query: { term: { instance_id: instanceId } } })).count
    while (
      (await count(a.instance.instance_id)) < perInstance ||
      (await count(bench.instance.instance_id)) < perInstance
    )
      await sleep(1000)

    await searchWhile(other, 'warm-up', 50)
    const windows: (Window & { report?: ReembeddingReport })[] = [await searchWhile(other, 'quiet', 300)]
    for (const { model, idleShare } of runs) {
      const reembed = execute(
        'node_modules/.bin/tsx',
        [
          '--conditions=memory-service-source',
          'services/cli/src/main.ts',
          'reembed',
          '--instance',
          a.instance.instance_id,
          '--idle-share',
          idleShare,
        ],
        { env: { ...process.env, EMBEDDINGS_MODEL: model, LOG_LEVEL: 'warn' }, maxBuffer: 64 * 1024 * 1024 },
      ).then(({ stdout }) => (JSON.parse(stdout) as ReembeddingReport[])[0])
      const window = await searchWhile(other, `A re-embedded with ${model}, idle share ${idleShare}`, reembed)
      windows.push({ ...window, report: await reembed })
    }

    const rows = windows.map(({ label, latencies, errors, report }) => ({
      'B searched while': label,
      requests: String(latencies.length + errors),
      errors: String(errors),
      'p50 ms': percentile(latencies, 50).toFixed(1),
      'p95 ms': percentile(latencies, 95).toFixed(1),
      'p95 / quiet': report
        ? `${(percentile(latencies, 95) / percentile(windows[0]?.latencies ?? [], 95)).toFixed(2)}×`
        : '-',
      reembedded: report ? String(report.reembedded) : '-',
      seconds: report ? report.seconds.toFixed(1) : '-',
      'memories/s': report ? (report.reembedded / report.seconds).toFixed(1) : '-',
    }))
    const columns = Object.keys(rows[0] ?? {})
    const widths = columns.map((column) =>
      Math.max(column.length, ...rows.map((row) => (row as Record<string, string>)[column]?.length ?? 0)),
    )
    const line = (cells: string[]) =>
      `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`
    console.log(
      `\nreembed benchmark: 2 instances × ${String(perInstance)} memories (half of A's with a conversation), ` +
        `${new Date().toISOString()}; ${String(availableParallelism())} CPUs, 1-min load ${(loadavg()[0] ?? 0).toFixed(1)}\n`,
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
