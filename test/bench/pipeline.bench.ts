/**
 * `npm run bench:pipeline`: documents/s through the memory pipeline and the time from acceptance to a finished
 * job, against the raw engine the pipeline spends most of its time in (the embedding model alone).
 *   (a) the configured embedder embedding the same kind of statements, 32 per call
 *   (a′) the same, after the run, on 512 of the texts the pipeline embedded (each memory's statement and its reading
 *        after the turn before it): the like-for-like figure for the pipeline's embeddings/s
 *   (b) documents posted with POST /v1/memories/batch (100 per request, mode fast), processed by one pipeline
 *       worker and projected, measured from each job's acceptance to its terminal transition on Kafka
 * One process runs gateway, pipeline and projectors, like `npm start` (BENCH_SERVICES=gateway,pipeline with
 * PIPELINE_VISIBILITY_TIMEOUT_MS=0 leaves the projectors out). BENCH_DOCUMENTS sets the document count.
 * BENCH_FACTS=1 makes every document's second sentence a changing fact of its speaker ("Now I live in Paris."), so
 * each one pays the supersession step (its facts' versions read and settled); the default documents state none.
 * Then where a document's time goes, per stage, from this process's pipeline metrics (the documents its worker
 * handled: a worker of `npm start` in the same group shares the work), and how busy the embedding model was.
 */
import { performance } from 'node:perf_hooks'
import { createEmbedder, metricsRegistry } from '@memory-service/engines'
import { contextualTextOf, INGESTION_JOBS_TOPIC, MEMORIES_TOPIC } from '@memory-service/domain'
import { type IngestionJobChanged, type MemoryChanged } from '@memory-service/contracts'
import type { ServiceName } from '@memory-service/cli'
import { benchConfig, percentile, runId, startBench } from './benchSetup.js'
import { printPipelineStages } from './pipelineStages.js'

const total = Number(process.env.BENCH_DOCUMENTS ?? 1_000)
const config = benchConfig

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

function turn(index: number): string {
  const pick = <T>(list: T[], salt: number): T => list[(index * 7 + salt * 13) % list.length] as T
  const speaker = pick(people, 1)
  if (process.env.BENCH_FACTS === '1')
    return `${speaker}: I went to ${pick(activities, 2)} in ${pick(places, 3)} ${pick(when, 4)} and I felt ${pick(feelings, 5)}. Now I live in ${pick(places, 8)}.`
  return (
    `${speaker}: I went to ${pick(activities, 2)} in ${pick(places, 3)} ${pick(when, 4)} and I felt ${pick(feelings, 5)}. ` +
    `My friend ${pick(people, 6)} loves ${pick(['painting', 'hiking', 'reading', 'baking'], 7)}, and we plan to visit ${pick(places, 8)} next month.`
  )
}

async function rawEmbedding(
  statements = Array.from({ length: 512 }, (_, index) => turn(index).split('. ')[0] ?? ''),
): Promise<{ perSecond: number }> {
  const embedder = await createEmbedder(config.embeddings)
  await embedder.embed(statements.slice(0, 32))
  const started = performance.now()
  for (let start = 0; start < statements.length; start += 32)
    await embedder.embed(statements.slice(start, start + 32))
  const seconds = (performance.now() - started) / 1000
  await embedder.close()
  return { perSecond: statements.length / seconds }
}

async function main(): Promise<void> {
  const raw = await rawEmbedding()
  const services = (process.env.BENCH_SERVICES ?? 'gateway,pipeline,projectors').split(',') as ServiceName[]
  const { kafka, codec, instance, apiKey, baseUrl, close } = await startBench('bench-pipeline', services)
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }

  const finished = new Map<string, IngestionJobChanged>()
  const consumer = kafka.consumer({ groupId: `bench-jobs-${runId}` })
  await consumer.connect()
  // From the beginning: a new group starting at "latest" can miss what is written while it joins.
  await consumer.subscribe({ topics: [INGESTION_JOBS_TOPIC], fromBeginning: true })
  // The memories only as a sample of what was embedded: from the end, not through every earlier run's memories.
  await consumer.subscribe({ topics: [MEMORIES_TOPIC], fromBeginning: false })
  // What the pipeline embedded for this run's memories: each statement, and its reading in context when it has one.
  const embeddedTexts: string[] = []
  let allDone: () => void = () => undefined
  const done = new Promise<void>((resolve) => (allDone = resolve))
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      if (!message.value) return
      if (topic === MEMORIES_TOPIC) {
        const change = await codec.decode<MemoryChanged>(message.value)
        if (change.instance_id !== instance.instance_id || change.change !== 'created') return
        const { memory } = change
        embeddedTexts.push(memory.content)
        if (memory.context) embeddedTexts.push(contextualTextOf(memory.content, memory.context))
        return
      }
      const job = await codec.decode<IngestionJobChanged>(message.value)
      if (job.instance_id !== instance.instance_id) return
      if (['completed', 'failed', 'partial_success'].includes(job.status)) {
        finished.set(job.ingestion_id, job)
        if (finished.size >= total) allDone()
      }
    },
  })

  const acceptedAt = new Map<string, number>()
  // The stage table counts this run's documents only, not the gateway's warm-up.
  metricsRegistry.resetMetrics()
  const started = performance.now()
  // BENCH_RATE (documents/s) paces single documents instead of posting batches as fast as possible, to measure
  // the time to completion without a queue in front of the worker.
  const rate = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined
  const perRequest = rate ? 1 : 100
  for (let offset = 0; offset < total; offset += perRequest) {
    if (rate) await new Promise((resolve) => setTimeout(resolve, 1000 / rate))
    const documents = Array.from({ length: Math.min(perRequest, total - offset) }, (_, index) => ({
      document: turn(offset + index),
      document_type: 'ai-chat-conversation',
      mode: 'fast',
      user_id: `bench-user-${String((offset + index) % 20)}`,
      document_created_at: '2023-05-08T13:56:00.000Z',
    }))
    const response = await fetch(`${baseUrl}/v1/memories/batch`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ documents }),
    })
    const body = (await response.json()) as { results: { ingestion_id: string }[] }
    const now = Date.now()
    for (const result of body.results) acceptedAt.set(result.ingestion_id, now)
  }
  // The deadline's timer is cleared once the jobs are done: left pending, it kept the process alive after the table.
  let deadline: NodeJS.Timeout | undefined
  await Promise.race([done, new Promise((resolve) => (deadline = setTimeout(resolve, 30 * 60_000)))])
  clearTimeout(deadline)
  const seconds = (performance.now() - started) / 1000
  // Acceptance to the terminal transition, both as the events record them (accepted_at is the 201's time).
  const latencies = [...finished.values()]
    .map(
      (job) => Date.parse(job.changed_at) - (acceptedAt.get(job.ingestion_id) ?? Date.parse(job.changed_at)),
    )
    .sort((a, b) => a - b)
  // Spread over the run, so the sample holds statements and readings as the pipeline met them.
  const step = Math.max(1, Math.floor(embeddedTexts.length / 512))
  const sample = embeddedTexts.filter((_, index) => index % step === 0).slice(0, 512)
  const rawOnTexts = sample.length >= 64 ? await rawEmbedding(sample) : undefined
  const statuses: Record<string, number> = {}
  let memories = 0
  for (const job of finished.values()) {
    statuses[job.status] = (statuses[job.status] ?? 0) + 1
    memories += job.memory_ids.length
  }

  console.log(
    `\npipeline benchmark, ${String(total)} documents (mode fast, ${rate ? `${String(rate)}/s, one per request` : 'batches of 100 at once'}), ${new Date().toISOString()}`,
  )
  console.table({
    '(a) raw embedder': { 'items/s': Math.round(raw.perSecond), unit: 'statements' },
    ...(rawOnTexts
      ? { "(a′) raw, the pipeline's texts": { 'items/s': Math.round(rawOnTexts.perSecond), unit: 'texts' } }
      : {}),
    '(b) pipeline': {
      'items/s': Math.round(finished.size / seconds),
      unit: 'documents',
      'memories/s': Math.round(memories / seconds),
      'p50 ms': Math.round(percentile(latencies, 50)),
      'p95 ms': Math.round(percentile(latencies, 95)),
      'p99 ms': Math.round(percentile(latencies, 99)),
      finished: finished.size,
      statuses: JSON.stringify(statuses),
    },
  })
  console.log(
    `ratio: pipeline memories/s ÷ raw embedder statements/s = ${(memories / seconds / raw.perSecond).toFixed(2)}×`,
  )
  if (rawOnTexts)
    console.log(
      `ratio: pipeline embeddings/s (memories/s × ${(embeddedTexts.length / Math.max(memories, 1)).toFixed(2)} per memory) ÷ (a′) = ${(embeddedTexts.length / seconds / rawOnTexts.perSecond).toFixed(2)}× (issue 33: ≥ 0.5×)`,
    )
  const embeddedPerSecond = await printPipelineStages(seconds)
  if (embeddedPerSecond !== undefined)
    console.log(
      `ratio: texts embedded by this process per second ÷ the raw embedder's on the same texts (a′) = ${(embeddedPerSecond / (rawOnTexts?.perSecond ?? raw.perSecond)).toFixed(2)}×`,
    )
  await consumer.disconnect()
  await close()
}

await main()
