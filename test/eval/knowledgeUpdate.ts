/**
 * `npm run eval:knowledge-update -- [--order in-order|shuffled|both] [--k 1] [--mode fast|long-range]`
 *
 * The knowledge-update evaluation (issue 19): does search answer with what is true now, with what was true at a
 * given moment (`as_of`), and does it date a change (`valid_from`)? Starts the services in this process with an
 * instance of its own (test/bench/benchSetup.ts), ingests the dataset of knowledgeUpdateSet.ts through the REST API
 * with the client library — one document per turn, as eval:locomo does — and asks every question.
 *
 * `in-order` sends the sessions by date; `shuffled` in a seeded random order, so an older fact often arrives after
 * the newer one that replaced it. Each order has user ids of its own, so both run in one instance without mixing.
 * `--k` counts a question answered when one of the first k results answers it (default 1). `--mode` is the ingest
 * mode (default fast). It reports and asserts nothing: the exit code is 1 only when a request or a job failed.
 */
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { createMemoryClient, NotFoundError, type MemoryClient } from '@memory-service/client'
import type { Document, Memory, MemorySearchRequest } from '@memory-service/contracts'
import { startBench } from '../bench/benchSetup.js'
import {
  attributeKinds,
  generateKnowledgeUpdateSet,
  judgeAnswer,
  questionKinds,
  createRandom,
  type AttributeKind,
  type Judgement,
  type KnowledgeUpdateSet,
  type Question,
  type QuestionKind,
  type Session,
} from './knowledgeUpdateSet.js'

type Order = 'in-order' | 'shuffled'
type IngestMode = Document['mode']

interface Options {
  orders: Order[]
  k: number
  mode: IngestMode
}

/**
 * What the runner reads of a memory, from a list or a search. The validity fields are optional so that a result
 * without them scores as undated instead of failing the run.
 */
type MemoryWithValidity = Pick<Memory, 'id' | 'content'> &
  Partial<Pick<Memory, 'valid_from' | 'valid_to' | 'superseded_by'>>

const USAGE =
  'usage: eval:knowledge-update -- [--order in-order|shuffled|both] [--k 1] [--mode fast|long-range]'
/** DocumentBatchRequest's maxItems. */
const MAX_BATCH_DOCUMENTS = 100
const SEARCH_LIMIT = 5
const JOB_TIMEOUT_MS = 10 * 60_000
const SHUFFLE_SEED = 1919
const FAILURES_SHOWN = 10

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole)
const formatRatio = (value: number) => value.toFixed(3)
const round = (value: number) => Math.round(value * 1000) / 1000
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))

function parseOptions(args: string[]): Options {
  let values: { order: string; k: string; mode: string }
  try {
    values = parseArgs({
      args,
      options: {
        order: { type: 'string', default: 'both' },
        k: { type: 'string', default: '1' },
        mode: { type: 'string', default: 'fast' },
      },
    }).values
  } catch (error) {
    throw new Error(`${errorMessage(error)}\n${USAGE}`)
  }
  const orders: Record<string, Order[]> = {
    'in-order': ['in-order'],
    shuffled: ['shuffled'],
    both: ['in-order', 'shuffled'],
  }
  const chosen = orders[values.order]
  const k = Number(values.k)
  if (!chosen || !Number.isInteger(k) || k < 1 || (values.mode !== 'fast' && values.mode !== 'long-range'))
    throw new Error(USAGE)
  return { orders: chosen, k, mode: values.mode }
}

async function mapConcurrently<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = []
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next
      next += 1
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1)
  return counts
}

const formatCounts = (counts: Map<string, number>) =>
  [...counts].map(([name, count]) => `${name} ${String(count)}`).join(', ')

// ---------------------------------------------------------------------------------------------------------------
// The dataset

function describeDataset(set: KnowledgeUpdateSet): void {
  const sessions = set.persons.flatMap((person) => person.sessions)
  const facts = set.persons.flatMap((person) => person.facts)
  const changes = facts.filter((fact, index) => {
    const previous = facts[index - 1]
    return previous?.personId === fact.personId && previous.attribute === fact.attribute
  })
  const dated = changes.filter((fact) => fact.dateExpression !== null)
  const expressions = countBy(dated, (fact) =>
    (fact.dateExpression ?? '')
      .replace(/^on \w+ \d+$/, 'on <date>')
      .replace(/^\w+ (days|weeks) ago$/, 'n $1 ago'),
  )
  // Two people who both live in Porto now: only the user scope and the subject tell their memories apart.
  const currentPlaces = set.persons.flatMap((person) =>
    (['residence', 'employer'] as const)
      .filter((attribute) => person.attributes.includes(attribute))
      .map((attribute) => person.facts.filter((fact) => fact.attribute === attribute).at(-1)?.value ?? ''),
  )
  const shared = [...countBy(currentPlaces, String)].filter(([, count]) => count > 1)
  console.log(
    `knowledge-update dataset (seed ${set.seed}): ${set.persons.length} persons, ${sessions.length} sessions, ` +
      `${set.documents.length} documents (one per turn) per order`,
  )
  console.log(
    `  attributes: ${formatCounts(
      countBy(
        set.persons.flatMap((person) => person.attributes),
        String,
      ),
    )}`,
  )
  console.log(
    `  facts: ${facts.length}, of which ${changes.length} changes: ${dated.length} dated by the statement ` +
      `(${formatCounts(expressions)}), ${changes.length - dated.length} by the session`,
  )
  console.log(
    `  current residences and employers shared by several persons: ${shared.length} ` +
      `(${shared
        .slice(0, 6)
        .map(([value, count]) => `${value} ×${String(count)}`)
        .join(', ')}${shared.length > 6 ? ', …' : ''})`,
  )
  console.log(
    `  questions: ${set.questions.length} (${formatCounts(countBy(set.questions, (question) => question.kind))}; ` +
      `${formatCounts(countBy(set.questions, (question) => question.attribute))})`,
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Ingestion

const userIdFor = (order: Order, personId: string) => `${order}/${personId}`

function sessionsInOrder(set: KnowledgeUpdateSet, order: Order): Session[] {
  const sessions = set.persons
    .flatMap((person) => person.sessions)
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt))
  // Whole sessions are shuffled, not turns: a client sends a conversation's turns together and in order, and the
  // turns around each one are its conversation context.
  return order === 'in-order' ? sessions : createRandom(SHUFFLE_SEED).shuffle(sessions)
}

/**
 * Consecutive sessions packed into batches of at most 100 documents, never two sessions of one person in a batch:
 * documents of one batch may be processed in any order, and each batch finishes before the next is sent, so the
 * order of the sessions is the order in which each person's facts reach the pipeline.
 */
function batchesOf(sessions: Session[]): Session[][] {
  const batches: Session[][] = []
  let current: Session[] = []
  let size = 0
  for (const session of sessions) {
    const full = size + session.documents.length > MAX_BATCH_DOCUMENTS
    const samePerson = current.some((other) => other.personId === session.personId)
    if (current.length > 0 && (full || samePerson)) {
      batches.push(current)
      current = []
      size = 0
    }
    current.push(session)
    size += session.documents.length
  }
  if (current.length > 0) batches.push(current)
  return batches
}

function toDocuments(session: Session, order: Order, mode: IngestMode): Document[] {
  return session.documents.map((turn) => ({
    document: turn.text,
    document_type: 'ai-chat-conversation',
    mode,
    document_id: `ku/${order}/${turn.id}`,
    document_created_at: turn.createdAt,
    user_id: userIdFor(order, turn.personId),
    metadata: {
      person_id: turn.personId,
      session_id: turn.sessionId,
      turn: turn.turn,
      speaker: turn.speaker,
    },
  }))
}

interface IngestionReport {
  documents: number
  batches: number
  seconds: number
  rejected: number
  jobStates: Map<string, number>
  problems: string[]
}

const finalJobStates = new Set(['completed', 'failed', 'partial_success'])

/** The job's status, or null while the jobs projection has not read the accepted document yet. */
async function jobStatus(client: MemoryClient, ingestionId: string) {
  try {
    return await client.memories.status(ingestionId)
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}

/** Polls the jobs until each has finished or the deadline passed; counts them by final state ("unfinished" else). */
async function waitForJobs(client: MemoryClient, ingestionIds: string[], states: Map<string, number>) {
  const pending = new Set(ingestionIds)
  const deadline = Date.now() + JOB_TIMEOUT_MS
  while (pending.size > 0 && Date.now() < deadline) {
    const statuses = await mapConcurrently([...pending], 16, (id) => jobStatus(client, id))
    for (const status of statuses) {
      if (status === null || !finalJobStates.has(status.status)) continue
      pending.delete(status.ingestion_id)
      states.set(status.status, (states.get(status.status) ?? 0) + 1)
    }
    if (pending.size > 0) await sleep(250)
  }
  if (pending.size > 0) states.set('unfinished', (states.get('unfinished') ?? 0) + pending.size)
}

async function ingest(
  client: MemoryClient,
  set: KnowledgeUpdateSet,
  order: Order,
  mode: IngestMode,
): Promise<IngestionReport> {
  const started = performance.now()
  const batches = batchesOf(sessionsInOrder(set, order))
  const report: IngestionReport = {
    documents: 0,
    batches: batches.length,
    seconds: 0,
    rejected: 0,
    jobStates: new Map(),
    problems: [],
  }
  for (const [index, batch] of batches.entries()) {
    const documents = batch.flatMap((session) => toDocuments(session, order, mode))
    const response = await client.memories.ingestBatch(documents, { fail_fast: false })
    report.rejected += response.errors.length
    for (const error of response.errors.slice(0, 3))
      report.problems.push(
        `rejected ${String(documents[error.index]?.document_id)}: ${error.code} ${error.message}`,
      )
    await waitForJobs(
      client,
      response.results.map((result) => result.ingestion_id),
      report.jobStates,
    )
    report.documents += documents.length
    if ((index + 1) % 5 === 0 || index === batches.length - 1)
      console.log(
        `  ${order}: ${String(report.documents)}/${String(set.documents.length)} documents, ` +
          `${((performance.now() - started) / 1000).toFixed(0)} s`,
      )
  }
  report.seconds = (performance.now() - started) / 1000
  return report
}

// ---------------------------------------------------------------------------------------------------------------
// Superseded memories

interface MemorySurvey {
  memories: number
  superseded: number
}

const isSuperseded = (memory: MemoryWithValidity) =>
  (memory.superseded_by ?? null) !== null || (memory.valid_to ?? null) !== null

async function surveyMemories(client: MemoryClient, userIds: string[]): Promise<MemorySurvey> {
  const perUser = await mapConcurrently(userIds, 8, async (userId) => {
    const survey: MemorySurvey = { memories: 0, superseded: 0 }
    for (let page = 1; ; page += 1) {
      const list = await client.memories.list({ user_id: userId, page, page_size: 100 })
      const items: MemoryWithValidity[] = list.items
      survey.memories += items.length
      survey.superseded += items.filter(isSuperseded).length
      if (!list.has_more) return survey
    }
  })
  return perUser.reduce(
    (total, survey) => ({
      memories: total.memories + survey.memories,
      superseded: total.superseded + survey.superseded,
    }),
    { memories: 0, superseded: 0 },
  )
}

/**
 * A job is finished once its memories are searchable; marking older ones superseded may follow, so wait for a count
 * that holds still (two equal surveys two seconds apart, 30 s at most).
 */
async function settledSurvey(client: MemoryClient, userIds: string[]): Promise<MemorySurvey> {
  let previous = await surveyMemories(client, userIds)
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    await sleep(2000)
    const current = await surveyMemories(client, userIds)
    if (current.memories === previous.memories && current.superseded === previous.superseded) return current
    previous = current
  }
  return previous
}

// ---------------------------------------------------------------------------------------------------------------
// Questions

interface Outcome {
  question: Question
  judgement: Judgement
  top: MemoryWithValidity | undefined
  error: string | null
}

function searchBody(question: Question, order: Order, k: number): MemorySearchRequest {
  return {
    query: question.text,
    user_id: userIdFor(order, question.personId),
    limit: Math.max(SEARCH_LIMIT, k),
    mode: 'accurate',
    ...(question.asOf === null ? {} : { as_of: question.asOf }),
    // "When did she move to Porto?" is about history: once she moved on, that memory is superseded, and a default
    // search leaves superseded memories out.
    ...(question.kind === 'when' ? { include_superseded: true } : {}),
  }
}

async function ask(client: MemoryClient, question: Question, order: Order, k: number): Promise<Outcome> {
  try {
    const { results } = await client.memories.search(searchBody(question, order, k))
    const memories: MemoryWithValidity[] = results
    return { question, judgement: judgeAnswer(question, memories, k), top: memories[0], error: null }
  } catch (error) {
    const judgement: Judgement = { correct: false, valueMatched: false, dateMatched: null }
    return { question, judgement, top: undefined, error: errorMessage(error) }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

interface OrderResult {
  order: Order
  outcomes: Outcome[]
  ingestion: IngestionReport
  survey: MemorySurvey
}

const accuracy = (outcomes: readonly Outcome[]) =>
  ratio(outcomes.filter((outcome) => outcome.judgement.correct).length, outcomes.length)
const ofKind = (outcomes: readonly Outcome[], kind: QuestionKind) =>
  outcomes.filter((outcome) => outcome.question.kind === kind)
const ofAttribute = (outcomes: readonly Outcome[], attribute: AttributeKind) =>
  outcomes.filter((outcome) => outcome.question.attribute === attribute)

function printIngestion({ order, ingestion, survey }: OrderResult, set: KnowledgeUpdateSet): void {
  const changes = set.persons.reduce(
    (total, person) => total + person.facts.length - person.attributes.length,
    0,
  )
  console.log(
    `\n${order}: ${String(ingestion.documents)} documents in ${String(ingestion.batches)} batches, ` +
      `${ingestion.seconds.toFixed(0)} s; jobs: ${formatCounts(ingestion.jobStates)}; rejected: ${String(ingestion.rejected)}`,
  )
  for (const problem of ingestion.problems) console.log(`  ${problem}`)
  console.log(
    `  memories: ${String(survey.memories)}, superseded: ${String(survey.superseded)} ` +
      `(the dataset holds ${String(changes)} changes of a person's own attribute)`,
  )
}

function printAccuracy({ order, outcomes }: OrderResult, k: number): void {
  console.log(`\n${'order'.padEnd(10)} ${'kind'.padEnd(6)} ${'questions'.padStart(9)}  top-${String(k)}`)
  for (const kind of questionKinds) {
    const asked = ofKind(outcomes, kind)
    console.log(
      `${order.padEnd(10)} ${kind.padEnd(6)} ${String(asked.length).padStart(9)}  ${formatRatio(accuracy(asked))}`,
    )
  }
  printWhenDetail(ofKind(outcomes, 'when'))
  console.log(
    `\n${'attribute'.padEnd(13)} ${questionKinds.map((kind) => kind.padEnd(14)).join(' ')}`.trimEnd(),
  )
  for (const attribute of attributeKinds) {
    const asked = ofAttribute(outcomes, attribute)
    const cells = questionKinds.map((kind) => {
      const subset = ofKind(asked, kind)
      return `${formatRatio(accuracy(subset))} (${String(subset.length)})`.padEnd(14)
    })
    console.log(`${attribute.padEnd(13)} ${cells.join(' ')}`.trimEnd())
  }
}

/**
 * Where `when` questions fail: the value or the date, and whether the change was later replaced — its memory is then
 * superseded, and a search with include_superseded ranks it below every current memory.
 */
function printWhenDetail(asked: readonly Outcome[]): void {
  const rate = (matches: (outcome: Outcome) => boolean) =>
    formatRatio(ratio(asked.filter(matches).length, asked.length))
  const replaced = asked.filter((outcome) => outcome.question.expected.replaced)
  const current = asked.filter((outcome) => !outcome.question.expected.replaced)
  console.log(
    `  when: value stated ${rate((outcome) => outcome.judgement.valueMatched)}, ` +
      `valid_from in window ${rate((outcome) => outcome.judgement.dateMatched === true)}; ` +
      `about the current value ${formatRatio(accuracy(current))} (${String(current.length)}), ` +
      `about a replaced value ${formatRatio(accuracy(replaced))} (${String(replaced.length)})`,
  )
}

function describeExpected(question: Question): string {
  const window = question.expected.validFrom
  const when = window ? ` from ${window.earliest}..${window.latest}` : ''
  return `"${question.expected.value}"${when}`
}

function describeGot(outcome: Outcome): string {
  if (outcome.error !== null) return `error: ${outcome.error}`
  if (!outcome.top) return 'nothing'
  const validFrom = outcome.top.valid_from ? ` (valid_from ${outcome.top.valid_from})` : ''
  const superseded = isSuperseded(outcome.top) ? ' [superseded]' : ''
  return `"${outcome.top.content}"${validFrom}${superseded}`
}

/** Up to ten failures spread over the list (it is grouped by person and attribute), so several kinds show. */
function printFailures(outcomes: readonly Outcome[]): void {
  const failures = outcomes.filter((outcome) => !outcome.judgement.correct)
  if (failures.length === 0) return
  const step = Math.max(1, Math.floor(failures.length / FAILURES_SHOWN))
  console.log(
    `\nsome failures (${String(Math.min(FAILURES_SHOWN, failures.length))} of ${String(failures.length)}):`,
  )
  for (const outcome of failures.filter((_, index) => index % step === 0).slice(0, FAILURES_SHOWN)) {
    const { question } = outcome
    const asOf = question.asOf ? ` ${question.asOf.slice(0, 10)}` : ''
    console.log(`  [${question.kind}${asOf}] ${question.text}`)
    console.log(`      expected ${describeExpected(question)}; got ${describeGot(outcome)}`)
  }
}

function errorsOf(result: OrderResult): number {
  const jobs = result.ingestion.jobStates
  const searchErrors = result.outcomes.filter((outcome) => outcome.error !== null)
  if (searchErrors.length > 0) {
    const distinct = [...new Set(searchErrors.map((outcome) => outcome.error))].slice(0, 3)
    console.log(`\n${result.order}: ${String(searchErrors.length)} searches failed: ${distinct.join(' | ')}`)
  }
  return (
    result.ingestion.rejected +
    (jobs.get('failed') ?? 0) +
    (jobs.get('unfinished') ?? 0) +
    searchErrors.length
  )
}

function summaryLine({ order, outcomes }: OrderResult): string {
  const byKind = Object.fromEntries(
    questionKinds.map((kind) => [kind, round(accuracy(ofKind(outcomes, kind)))]),
  )
  return JSON.stringify({ order, ...byKind })
}

// ---------------------------------------------------------------------------------------------------------------

let options: Options
try {
  options = parseOptions(process.argv.slice(2))
} catch (error) {
  console.error(errorMessage(error))
  process.exit(2)
}

const set = generateKnowledgeUpdateSet()
describeDataset(set)
const answeredBy = options.k === 1 ? 'the first result' : `one of the first ${String(options.k)} results`
console.log(
  `ingest mode ${options.mode}; search mode accurate, limit ${String(Math.max(SEARCH_LIMIT, options.k))}; ` +
    `a question counts when ${answeredBy} answers it`,
)

const bench = await startBench('knowledge-update-eval', ['gateway', 'pipeline', 'projectors'])
const client = createMemoryClient({ baseUrl: bench.baseUrl, apiKey: bench.apiKey })
const results: OrderResult[] = []
let errors = 0
try {
  for (const order of options.orders) {
    const ingestion = await ingest(client, set, order, options.mode)
    const survey = await settledSurvey(
      client,
      set.persons.map((person) => userIdFor(order, person.id)),
    )
    const outcomes = await mapConcurrently(set.questions, 4, (question) =>
      ask(client, question, order, options.k),
    )
    const result = { order, outcomes, ingestion, survey }
    results.push(result)
    printIngestion(result, set)
    printAccuracy(result, options.k)
    printFailures(outcomes)
    errors += errorsOf(result)
  }
} catch (error) {
  console.error(`knowledge-update evaluation failed: ${errorMessage(error)}`)
  errors += 1
} finally {
  await bench.close()
}
console.log('')
for (const result of results) console.log(summaryLine(result))
process.exit(errors > 0 ? 1 : 0)
