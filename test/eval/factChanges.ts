/**
 * `npm run eval:fact-changes -- [--set <file.json>] [--scope person|shared] [--mode fast|long-range]`
 *
 * Natural fact changes (issue 30), measured as a user sees them through the REST API: every person's first
 * statement, their chatter and their later statement are ingested in that order (one document each, "Name: text",
 * dated by the set), then for every person:
 *
 * - now: the question (accurate search) — its first result states the current value (the new one; for a trap, the
 *   first one, since nothing changed);
 * - superseded: a memory of the first statement that names the old value is marked superseded (`superseded_by`) —
 *   for a trap, none may be;
 * - as_of: the question as of soon after the first statement — its first result states the first value.
 *
 * `--scope person` (default) gives each person a user id of their own; `shared` puts every person in one user, so
 * only the subject of a statement tells whose fact it is. The default set is test/eval/data/naturalFactChanges.dev.json.
 * It reports and asserts nothing: the exit code is 1 only when a request or a job failed.
 */
import { parseArgs } from 'node:util'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMemoryClient, NotFoundError, type MemoryClient } from '@memory-service/client'
import type { Document, Memory } from '@memory-service/contracts'
import { startBench } from '../bench/benchSetup.js'
import {
  currentValues,
  loadFactChangeSet,
  momentBefore,
  statesValue,
  valuesOf,
  type FactChangeItem,
} from './factChangeSet.js'

const here = dirname(fileURLToPath(import.meta.url))
const MAX_BATCH_DOCUMENTS = 100
const JOB_TIMEOUT_MS = 10 * 60_000
const finalJobStates = new Set(['completed', 'failed', 'partial_success'])
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))

const { values: options } = parseArgs({
  args: process.argv.slice(2),
  options: {
    set: { type: 'string', default: join(here, 'data', 'naturalFactChanges.dev.json') },
    scope: { type: 'string', default: 'person' },
    mode: { type: 'string', default: 'fast' },
  },
})
if (!['person', 'shared'].includes(options.scope) || !['fast', 'long-range'].includes(options.mode)) {
  console.error(
    'usage: eval:fact-changes -- [--set file.json] [--scope person|shared] [--mode fast|long-range]',
  )
  process.exit(2)
}
const mode = options.mode as Document['mode']
const set = loadFactChangeSet(resolve(options.set))
const userOf = (item: FactChangeItem) =>
  options.scope === 'shared' ? 'fact-changes' : `fact-changes/${item.id}`

type Phase = 'before' | 'chatter' | 'after'

function documentsOf(item: FactChangeItem, phase: Phase): Document[] {
  const messages =
    phase === 'chatter'
      ? item.chatter.map((message, index) => ({ ...message, name: `chatter-${String(index)}` }))
      : [{ ...item[phase], name: phase }]
  return messages.map((message) => ({
    document: `${item.person}: ${message.text}`,
    document_type: 'ai-chat-conversation',
    mode,
    document_id: `fc/${item.id}/${message.name}`,
    document_created_at: `${message.date}T12:00:00Z`,
    user_id: userOf(item),
    metadata: { item: item.id, phase: message.name },
  }))
}

async function mapConcurrently<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
) {
  const results: R[] = []
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}

async function jobStatus(client: MemoryClient, ingestionId: string) {
  try {
    return await client.memories.status(ingestionId)
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}

/** Ingests documents in batches, each batch finished before the next is sent; resolves with the problems seen. */
async function ingest(client: MemoryClient, documents: Document[]): Promise<string[]> {
  const problems: string[] = []
  for (let start = 0; start < documents.length; start += MAX_BATCH_DOCUMENTS) {
    const batch = documents.slice(start, start + MAX_BATCH_DOCUMENTS)
    const response = await client.memories.ingestBatch(batch, { fail_fast: false })
    for (const error of response.errors)
      problems.push(`rejected ${String(batch[error.index]?.document_id)}: ${error.code}`)
    const pending = new Set(response.results.map((result) => result.ingestion_id))
    const deadline = Date.now() + JOB_TIMEOUT_MS
    while (pending.size > 0 && Date.now() < deadline) {
      const statuses = await mapConcurrently([...pending], 16, (id) => jobStatus(client, id))
      for (const status of statuses) {
        if (status === null || !finalJobStates.has(status.status)) continue
        pending.delete(status.ingestion_id)
        if (status.status === 'failed') problems.push(`job ${status.ingestion_id} failed`)
      }
      if (pending.size > 0) await sleep(250)
    }
    if (pending.size > 0) problems.push(`${String(pending.size)} jobs unfinished`)
  }
  return problems
}

type Listed = Pick<Memory, 'id' | 'content' | 'metadata'> &
  Partial<Pick<Memory, 'superseded_by' | 'valid_to'>>

async function memoriesOf(client: MemoryClient, userId: string): Promise<Listed[]> {
  const all: Listed[] = []
  for (let page = 1; ; page++) {
    const list = await client.memories.list({ user_id: userId, page, page_size: 100 })
    all.push(...list.items)
    if (!list.has_more) return all
  }
}

interface Outcome {
  item: FactChangeItem
  now: boolean
  asOf: boolean
  /** Some memory of the first statement naming the old value is superseded. */
  superseded: boolean
  /** The first statement made a memory naming its value at all. */
  stated: boolean
  topNow: string
  topAsOf: string
}

async function topOf(client: MemoryClient, item: FactChangeItem, asOf?: string): Promise<string> {
  const { results } = await client.memories.search({
    query: item.question,
    user_id: userOf(item),
    limit: 5,
    mode: 'accurate',
    ...(asOf ? { as_of: asOf } : {}),
  })
  return results[0]?.content ?? ''
}

async function judge(client: MemoryClient, item: FactChangeItem, listed: Listed[]): Promise<Outcome> {
  const [topNow, topAsOf] = await Promise.all([topOf(client, item), topOf(client, item, momentBefore(item))])
  const first = listed.filter(
    (memory) =>
      memory.metadata['item'] === item.id &&
      memory.metadata['phase'] === 'before' &&
      statesValue(memory.content, valuesOf(item.before)),
  )
  return {
    item,
    now: statesValue(topNow, currentValues(item)),
    asOf: statesValue(topAsOf, valuesOf(item.before)),
    superseded: first.some((memory) => (memory.superseded_by ?? null) !== null),
    stated: first.length > 0,
    topNow,
    topAsOf,
  }
}

const ratio = (part: number, whole: number) => (whole === 0 ? '—' : (part / whole).toFixed(3))
const count = <T>(items: readonly T[], predicate: (item: T) => boolean) => items.filter(predicate).length

function report(outcomes: Outcome[]): void {
  const changes = outcomes.filter((outcome) => outcome.item.change)
  const traps = outcomes.filter((outcome) => !outcome.item.change)
  console.log(
    `\n${'attribute'.padEnd(13)} ${'changes'.padStart(7)}  new first  superseded  as_of   traps  kept   untouched`,
  )
  const attributes = [...new Set(outcomes.map((outcome) => outcome.item.attribute))].sort()
  for (const attribute of [...attributes, 'all']) {
    const of = (list: Outcome[]) =>
      attribute === 'all' ? list : list.filter((o) => o.item.attribute === attribute)
    const c = of(changes)
    const t = of(traps)
    console.log(
      `${attribute.padEnd(13)} ${String(c.length).padStart(7)}  ${ratio(
        count(c, (o) => o.now),
        c.length,
      ).padStart(9)}  ` +
        `${ratio(
          count(c, (o) => o.superseded),
          c.length,
        ).padStart(10)}  ${ratio(
          count(c, (o) => o.asOf),
          c.length,
        ).padStart(5)}  ` +
        `${String(t.length).padStart(6)}  ${ratio(
          count(t, (o) => o.now),
          t.length,
        ).padStart(5)}  ` +
        ratio(
          count(t, (o) => !o.superseded),
          t.length,
        ).padStart(9),
    )
  }
  const silent = count(changes, (o) => !o.stated)
  console.log(
    `\nfirst statements that made no memory naming their value: ${String(silent)} of ${String(changes.length)}`,
  )
  const misses = outcomes.filter((o) => (o.item.change ? !o.now || !o.superseded : !o.now || o.superseded))
  console.log(`misses (${String(misses.length)}):`)
  for (const o of misses.slice(0, 40)) {
    const flags = `${o.now ? '' : ' not-first'}${o.item.change && !o.superseded ? ' not-superseded' : ''}${!o.item.change && o.superseded ? ' trap-superseded' : ''}`
    console.log(`  ${o.item.id} [${o.item.attribute}${o.item.change ? '' : ', trap'}]${flags}`)
    console.log(`     later: ${o.item.after.text.slice(0, 160)}`)
    console.log(`     top:   ${o.topNow.slice(0, 160)}`)
  }
  const summary = {
    changes: changes.length,
    new_first: Number(
      ratio(
        count(changes, (o) => o.now),
        changes.length,
      ),
    ),
    superseded: Number(
      ratio(
        count(changes, (o) => o.superseded),
        changes.length,
      ),
    ),
    as_of: Number(
      ratio(
        count(changes, (o) => o.asOf),
        changes.length,
      ),
    ),
    traps: traps.length,
    traps_kept: Number(
      ratio(
        count(traps, (o) => o.now),
        traps.length,
      ),
    ),
    traps_untouched: Number(
      ratio(
        count(traps, (o) => !o.superseded),
        traps.length,
      ),
    ),
  }
  console.log(`\n${JSON.stringify(summary)}`)
}

console.log(
  `natural fact changes: ${String(set.items.length)} people (${String(count(set.items, (item) => !item.change))} traps), ` +
    `writer: ${set.writer}; scope ${options.scope}, ingest mode ${mode}, accurate search, first result`,
)
const bench = await startBench('fact-changes-eval', ['gateway', 'pipeline', 'projectors'])
const client = createMemoryClient({ baseUrl: bench.baseUrl, apiKey: bench.apiKey })
let failures = 0
try {
  for (const phase of ['before', 'chatter', 'after'] as const) {
    const problems = await ingest(
      client,
      set.items.flatMap((item) => documentsOf(item, phase)),
    )
    failures += problems.length
    for (const problem of problems.slice(0, 5)) console.log(`  ${phase}: ${problem}`)
  }
  // Supersession settles after a job finishes: wait for a superseded count that holds still.
  const users = [...new Set(set.items.map(userOf))]
  const survey = async () => (await mapConcurrently(users, 8, (user) => memoriesOf(client, user))).flat()
  let listed = await survey()
  for (let round = 0; round < 10; round++) {
    await sleep(2000)
    const again = await survey()
    const superseded = (list: Listed[]) => count(list, (memory) => (memory.superseded_by ?? null) !== null)
    const settled = again.length === listed.length && superseded(again) === superseded(listed)
    listed = again
    if (settled) break
  }
  console.log(
    `memories: ${String(listed.length)}, superseded: ${String(count(listed, (m) => (m.superseded_by ?? null) !== null))}`,
  )
  const outcomes = await mapConcurrently(set.items, 4, (item) =>
    judge(
      client,
      item,
      listed.filter((memory) => memory.metadata['item'] === item.id),
    ),
  )
  report(outcomes)
} catch (error) {
  console.error(`fact-change evaluation failed: ${errorMessage(error)}`)
  failures++
} finally {
  await bench.close()
}
process.exit(failures > 0 ? 1 : 0)
