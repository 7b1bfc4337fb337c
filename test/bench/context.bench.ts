/**
 * `npm run bench:context`: context fetch on a conversation of 500 turns (BENCH_TURNS) for a user with 1 000
 * memories (BENCH_MEMORIES), with one and with eight concurrent clients; against the raw engine work a fetch needs
 * (the conversation's document, its recent turns and a kNN over the user's memories, straight to Elasticsearch).
 * The services run in this process. The fetch names no query (the agent's last user turn is the question) and a
 * budget that does not hold the whole conversation, as an agent past its first hundred turns would see it.
 */
import { performance } from 'node:perf_hooks'
import { createElasticsearchClient, createEmbedder, embedQueries } from '@memory-service/engines'
import { MEMORIES_ALIAS, CONVERSATION_TURNS_INDEX, CONVERSATIONS_INDEX } from '@memory-service/domain'
import { benchConfig, percentile, runId, startBench } from './benchSetup.js'

const turnCount = Number(process.env.BENCH_TURNS ?? 500)
const memoryCount = Number(process.env.BENCH_MEMORIES ?? 1000)
const requests = Number(process.env.BENCH_REQUESTS ?? 200)
const budget = Number(process.env.BENCH_BUDGET ?? 2048)

const topics = [
  'hiking',
  'cooking',
  'chess',
  'sailing',
  'painting',
  'cycling',
  'gardening',
  'jazz',
  'pottery',
  'birds',
]
const places = [
  'Lisbon',
  'Oslo',
  'Kyoto',
  'Denver',
  'Porto',
  'Quebec',
  'Nairobi',
  'Hanoi',
  'Tallinn',
  'Perth',
]
const statement = (index: number) =>
  `I went ${topics[index % 10] ?? ''} in ${places[Math.floor(index / 10) % 10] ?? ''} with my friend number ${String(index)} last spring.`

async function timed(clients: number, run: () => Promise<void>) {
  for (let index = 0; index < 10; index += 1) await run()
  const samples: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < requests * clients) {
        next += 1
        const begun = performance.now()
        await run()
        samples.push(performance.now() - begun)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  samples.sort((a, b) => a - b)
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    perSecond: samples.length / seconds,
  }
}

async function main(): Promise<void> {
  const bench = await startBench(`context-${runId}`, ['gateway', 'pipeline', 'projectors'])
  const user = `bench-user-${runId}`
  const conversationId = `bench-conversation-${runId}`
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${bench.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bench.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (response.status >= 300)
      throw new Error(`${path}: ${String(response.status)} ${await response.text()}`)
    return (await response.json()) as Record<string, unknown>
  }

  // The user's long-term memories: ten statements per document, through the pipeline.
  const loadStarted = performance.now()
  const ingestionIds: string[] = []
  for (let start = 0; start < memoryCount; start += 1000) {
    const documents = Array.from(
      { length: Math.min(100, (memoryCount - start) / 10) },
      (_, documentIndex) => ({
        document: Array.from({ length: 10 }, (__, line) => statement(start + documentIndex * 10 + line)).join(
          '\n',
        ),
        document_type: 'note',
        mode: 'fast',
        user_id: user,
      }),
    )
    const accepted = await post('/v1/memories/batch', { documents })
    for (const result of accepted.results as { ingestion_id?: string }[])
      if (result.ingestion_id) ingestionIds.push(result.ingestion_id)
  }
  for (const ingestionId of ingestionIds) {
    for (;;) {
      const response = await fetch(`${bench.baseUrl}/v1/memories/${ingestionId}/status`, {
        headers: { authorization: `Bearer ${bench.apiKey}` },
      })
      const status = ((await response.json()) as { status: string }).status
      if (['completed', 'partial_success', 'failed'].includes(status)) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  const memoriesSeconds = (performance.now() - loadStarted) / 1000

  // The conversation: turns as the stream or the batch route deliver them, 100 per request.
  for (let start = 0; start < turnCount; start += 100) {
    await post('/v1/events/batch', {
      events: Array.from({ length: Math.min(100, turnCount - start) }, (_, offset) => {
        const index = start + offset
        const fromUser = index % 2 === 0
        return {
          event_id: `${conversationId}-${String(index)}`,
          event_type: fromUser ? 'user_message' : 'assistant_message',
          conversation_id: conversationId,
          user_id: user,
          content: fromUser
            ? `Do you remember what I did in ${places[index % 10] ?? ''}? ${statement(index)}`
            : `You mentioned ${topics[index % 10] ?? ''} with friend number ${String(index)}; tell me more about it.`,
        }
      }),
    })
  }
  const es = createElasticsearchClient(benchConfig.elasticsearch)
  for (;;) {
    await es.indices.refresh({ index: CONVERSATION_TURNS_INDEX })
    const { count } = await es.count({
      index: CONVERSATION_TURNS_INDEX,
      query: { term: { conversation_id: conversationId } },
    })
    if (count >= turnCount) break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const { count: stored } = await es.count({
    index: MEMORIES_ALIAS,
    query: { bool: { filter: [{ term: { instance_id: bench.instance.instance_id } }] } },
  })

  const path = `/v1/conversations/${conversationId}/context?${new URLSearchParams({ user_id: user, max_tokens: String(budget) }).toString()}`
  const fetchContext = async () => {
    const response = await fetch(`${bench.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${bench.apiKey}` },
    })
    if (response.status !== 200)
      throw new Error(`context: ${String(response.status)} ${await response.text()}`)
    await response.arrayBuffer()
  }
  // The first fetch finds the conversation over its budget and compacts it, which sends the compacted turns through
  // extraction; measure once the pipeline and the projectors have nothing left to do.
  await fetchContext()
  await new Promise((resolve) => setTimeout(resolve, 2000))
  for (const started = Date.now(); Date.now() - started < 300_000;) {
    const readiness = (await (await fetch(`${bench.baseUrl}/readyz`)).json()) as {
      consumers?: { lag?: number }[]
    }
    if ((readiness.consumers ?? []).every((group) => (group.lag ?? 0) === 0)) break
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  const sample = (await (
    await fetch(`${bench.baseUrl}${path}`, { headers: { authorization: `Bearer ${bench.apiKey}` } })
  ).json()) as { recent_turns: unknown[]; memories: unknown[]; tokens_used: number; summary: unknown }

  const embedder = await createEmbedder(benchConfig.embeddings)
  // The raw kNN's question, embedded as the context fetch embeds its query.
  const [vector = []] = await embedQueries(embedder, [statement(7)])
  const raw = async () => {
    await Promise.all([
      es.get(
        { index: CONVERSATIONS_INDEX, id: `${bench.instance.instance_id}:${conversationId}` },
        { ignore: [404] },
      ),
      es.search({
        index: CONVERSATION_TURNS_INDEX,
        size: 50,
        sort: [{ position: 'desc' }],
        query: {
          bool: {
            filter: [
              { term: { instance_id: bench.instance.instance_id } },
              { term: { conversation_id: conversationId } },
            ],
          },
        },
      }),
      es.search({
        index: MEMORIES_ALIAS,
        size: 10,
        _source: { excludes: ['embedding'] },
        knn: {
          field: 'embedding',
          query_vector: vector,
          k: 10,
          num_candidates: 100,
          filter: [{ term: { instance_id: bench.instance.instance_id } }, { term: { user_id: user } }],
        },
      }),
    ])
  }

  console.log(
    `\ncontext benchmark: a conversation of ${String(turnCount)} turns, ${String(stored)} memories for the user (loaded in ${memoriesSeconds.toFixed(0)} s through the pipeline), budget ${String(budget)} tokens, ${new Date().toISOString()}`,
  )
  console.log(
    `one answer: summary ${sample.summary ? 'yes' : 'no'}, ${String(sample.recent_turns.length)} recent turns, ${String(sample.memories.length)} memories, ${String(sample.tokens_used)} tokens`,
  )
  console.log(`${String(requests)} requests per client\n`)
  console.log('| scenario            | clients | p50 ms | p95 ms | p99 ms | req/s | p50 / raw | p95 / raw |')
  console.log('| ------------------- | ------- | ------ | ------ | ------ | ----- | --------- | --------- |')
  for (const clients of [1, 8]) {
    const direct = await timed(clients, raw)
    const api = await timed(clients, fetchContext)
    const row = (name: string, r: typeof api, ratio: string) =>
      console.log(
        `| ${name.padEnd(19)} | ${String(clients).padStart(7)} | ${r.p50.toFixed(1).padStart(6)} | ${r.p95.toFixed(1).padStart(6)} | ${r.p99.toFixed(1).padStart(6)} | ${r.perSecond.toFixed(0).padStart(5)} | ${ratio} |`,
      )
    row('raw ES (3 requests)', direct, '        — |         —')
    row(
      'API context fetch',
      api,
      `${(api.p50 / direct.p50).toFixed(1).padStart(8)}× | ${(api.p95 / direct.p95).toFixed(1).padStart(8)}×`,
    )
  }
  await embedder.close()
  await es.close()
  await bench.close()
}

await main()
process.exit(0)
