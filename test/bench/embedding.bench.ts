/**
 * `npm run bench:embedding`: what each local embedding model costs on this machine, the model alone (no stack).
 *   (a) embeddings/s of short statements (one sentence of a conversation turn, 10–20 tokens), stored texts in calls of
 *       32, as the pipeline's batching embedder hands them over
 *   (b) the latency of one question (embedQueries, what every search pays), and of three at once (what `accurate`
 *       embeds: the question, a sub-question, its name-free form)
 * Each model runs as the services run it: a worker thread, one onnxruntime thread, its own texts per run. A model with
 * one text per run is measured at 32 per run as well, the throughput its determinism costs. Models that are not
 * installed are skipped (`EMBEDDINGS_MODEL=<model> npm run stack:up` fetches one). BENCH_MODELS picks models
 * (comma-separated), BENCH_STATEMENTS the statement count (512), BENCH_QUESTIONS the question count (100).
 */
import { existsSync } from 'node:fs'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import {
  createLocalEmbedder,
  embedQueries,
  loadConfig,
  localEmbeddingModelNames,
  localEmbeddingModels,
  type LocalEmbeddingModelName,
} from '@memory-service/engines'

const statementCount = Number(process.env.BENCH_STATEMENTS ?? 512)
const questionCount = Number(process.env.BENCH_QUESTIONS ?? 100)
const models = (process.env.BENCH_MODELS?.split(',') ?? localEmbeddingModelNames).filter(
  (name): name is LocalEmbeddingModelName => (localEmbeddingModelNames as string[]).includes(name),
)
const modelDir = loadConfig(process.env).embeddings.modelDir ?? ''

const people = ['Caroline', 'Melanie', 'Jon', 'Gina', 'Maria', 'John', 'Nate', 'Joanna', 'Tim', 'Evan']
const places = ['Sweden', 'Lisbon', 'Boston', 'the Grand Canyon', 'Paris', 'Chicago', 'Toronto', 'Kyoto']
const activities = [
  'a pottery class',
  'a support group',
  'a charity race',
  'a camping trip',
  'a jazz concert',
]
const when = ['yesterday', 'last week', 'two days ago', 'last Saturday', 'this morning', 'last month']
const feelings = ['so proud', 'really happy', 'a bit nervous', 'grateful', 'exhausted but happy']
const pick = <T>(list: T[], index: number, salt: number): T =>
  list[(index * 7 + salt * 13) % list.length] as T

const statements = Array.from(
  { length: statementCount },
  (_, index) =>
    `${pick(people, index, 1)} went to ${pick(activities, index, 2)} in ${pick(places, index, 3)} ` +
    `${pick(when, index, 4)} and felt ${pick(feelings, index, 5)}.`,
)
const questions = Array.from({ length: questionCount }, (_, index) =>
  index % 2 === 0
    ? `Where did ${pick(people, index, 1)} go ${pick(when, index, 4)}?`
    : `What did ${pick(people, index, 1)} do in ${pick(places, index, 3)}?`,
)

const percentile = (sorted: number[], fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0

interface Row {
  model: string
  perRun: number
  perSecond: number
  one?: { p50: number; p95: number }
  three?: { p50: number; p95: number }
}

async function timings(run: (index: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let index = 0; index < 10; index += 1) await run(index)
  const samples: number[] = []
  for (let index = 0; index < questions.length; index += 1) {
    const started = performance.now()
    await run(index)
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) }
}

async function measure(model: LocalEmbeddingModelName, batchSize: number, latency: boolean): Promise<Row> {
  const embedder = await createLocalEmbedder({ modelDir, model, dimension: 384, threads: 1, batchSize })
  try {
    await embedder.embed(statements.slice(0, 32))
    const started = performance.now()
    for (let start = 0; start < statements.length; start += 32)
      await embedder.embed(statements.slice(start, start + 32))
    const perSecond = statements.length / ((performance.now() - started) / 1000)
    if (!latency) return { model, perRun: batchSize, perSecond }
    const question = (index: number) => questions[index % questions.length] ?? ''
    const one = await timings((index) => embedQueries(embedder, [question(index)]))
    const three = await timings((index) =>
      embedQueries(embedder, [question(index), question(index + 1), question(index + 2)]),
    )
    return { model, perRun: batchSize, perSecond, one, three }
  } finally {
    await embedder.close()
  }
}

async function main(): Promise<void> {
  const rows: Row[] = []
  const loadBefore = loadavg()
  for (const model of models) {
    if (!existsSync(join(modelDir, model, 'model.onnx'))) {
      console.log(
        `skipping ${model}: not installed in ${modelDir} (EMBEDDINGS_MODEL=${model} npm run stack:up)`,
      )
      continue
    }
    const { batchSize } = localEmbeddingModels[model]
    rows.push(await measure(model, batchSize, true))
    if (batchSize !== 32) rows.push(await measure(model, 32, false))
  }
  const loadAfter = loadavg()
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  console.log(
    `\nembedding benchmark, ${new Date().toISOString()}: ${String(availableParallelism())} cores (${cpu}), ` +
      `load average ${loadBefore.map((value) => value.toFixed(1)).join(' ')} before, ` +
      `${loadAfter.map((value) => value.toFixed(1)).join(' ')} after; ${String(statements.length)} statements, ` +
      `${String(questions.length)} questions\n`,
  )
  console.log(
    '| model             | texts/run | statements/s | 1 question p50 / p95 ms | 3 questions p50 / p95 ms |',
  )
  console.log(
    '| ----------------- | --------- | ------------ | ----------------------- | ------------------------ |',
  )
  const latency = (timing?: { p50: number; p95: number }) =>
    timing ? `${timing.p50.toFixed(1)} / ${timing.p95.toFixed(1)}` : '—'
  for (const row of rows) {
    console.log(
      `| ${row.model.padEnd(17)} | ${String(row.perRun).padStart(9)} | ${row.perSecond.toFixed(0).padStart(12)} | ` +
        `${latency(row.one).padStart(23)} | ${latency(row.three).padStart(24)} |`,
    )
  }
}

await main()
