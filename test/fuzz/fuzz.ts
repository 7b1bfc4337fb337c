/**
 * `npm run test:fuzz`: schemathesis (property-based requests generated from the served OpenAPI document) against
 * the whole product on the real engines, every operation, valid and invalid inputs, with an admin key of a fresh
 * instance. It fails on any 5xx and on any status code the document does not list for that operation.
 *
 * Bounded in time: FUZZ_SECONDS (default 900) for the run, FUZZ_EXAMPLES (default 400) cases per operation and
 * phase. schemathesis is a Python tool; it is installed once, pinned, into a virtual environment in the download
 * cache (MEMORY_SERVICE_CACHE_DIR, default ~/.cache/memory-service), never into the repository.
 */
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultCacheDir } from '@memory-service/engines'
import { startBench } from '../bench/benchSetup.js'

const schemathesisVersion = '4.32.5'
const seconds = Number(process.env.FUZZ_SECONDS ?? 900)
const examples = Number(process.env.FUZZ_EXAMPLES ?? 400)
/**
 * Every check of schemathesis but two whose verdicts are about JSON Schema, not the API: positive_data_acceptance
 * (a page the schema allows but Elasticsearch does not page to, page × page_size > 10 000, is refused naming page;
 * one schema cannot say it) and negative_data_rejection (a path parameter over the router's limit is 414, a status
 * it does not expect). Among the rest: no 5xx, documented statuses, content types, headers and response bodies, and
 * a method a path does not have answered 405 with the path's own methods in Allow.
 */
const checks = process.env.FUZZ_CHECKS ?? 'all'
const excludedChecks = process.env.FUZZ_EXCLUDE_CHECKS ?? 'positive_data_acceptance,negative_data_rejection'
/** A regular expression of paths to fuzz only those (a new route's run, FUZZ_PATHS='^/v1/memories'); all when unset. */
const paths = process.env.FUZZ_PATHS
const cacheDir = defaultCacheDir(process.env)
const venv = join(cacheDir, `schemathesis-${schemathesisVersion}`)
const schemathesis = join(venv, 'bin', 'schemathesis')

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${String(result.status)}`)
}

if (!existsSync(schemathesis)) {
  console.log(`[fuzz] installing schemathesis ${schemathesisVersion} into ${venv}`)
  mkdirSync(cacheDir, { recursive: true })
  run('python3', ['-m', 'venv', venv])
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', `schemathesis==${schemathesisVersion}`])
}

/** Errors of a request that got no (whole) answer: the API's fault. Anything else is the tool's own. */
const unanswered = new Set([
  'ReadTimeout',
  'ConnectTimeout',
  'Timeout',
  'ConnectionError',
  'ChunkedEncodingError',
  'RemoteDisconnected',
  'ProtocolError',
  'TooManyRedirects',
  'InvalidChunkLength',
])

const bench = await startBench('fuzz', ['gateway', 'pipeline', 'projectors'])
const eventLog = join(process.cwd(), 'test-results', 'fuzz', 'events.ndjson')
let exitCode = 1
try {
  console.log(`[fuzz] ${bench.baseUrl}, instance ${bench.instance.instance_id}, up to ${String(seconds)} s`)
  // Not spawnSync: the services answer from this very process, so its event loop must keep running.
  const fuzz = spawn(
    schemathesis,
    [
      'run',
      `${bench.baseUrl}/openapi.json`,
      // The first answer waits for the services to settle (projectors catching up on the log share the process).
      '--wait-for-schema',
      '120',
      '--header',
      `Authorization: Bearer ${bench.apiKey}`,
      '--checks',
      checks,
      ...(excludedChecks ? ['--exclude-checks', excludedChecks] : []),
      ...(paths ? ['--include-path-regex', paths] : []),
      '--phases',
      'examples,coverage,fuzzing',
      '--max-examples',
      String(examples),
      '--max-time',
      String(seconds),
      '--workers',
      '4',
      '--request-timeout',
      '30',
      '--seed',
      process.env.FUZZ_SEED ?? '20261123',
      // Examples found are not kept between runs (a database would land in the repository's folder).
      '--generation-database',
      'none',
      '--no-color',
      '--output-sanitize',
      'true',
      '--report',
      'ndjson',
      '--report-ndjson-path',
      eventLog,
    ],
    { stdio: 'inherit', timeout: (seconds + 300) * 1000 },
  )
  const [code] = (await once(fuzz, 'exit')) as [number | null]
  const { statuses, failedChecks, apiErrors, toolErrors } = outcomeOf(eventLog)
  const requests = [...statuses.values()].reduce((sum, count) => sum + count, 0)
  const histogram = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${String(status)}: ${String(count)}`)
  // The verdict is the API's: a failed check (5xx, undocumented status) or a request that got no answer (timeout,
  // connection) fails the run. Errors of schemathesis or Hypothesis themselves say nothing about the API — CPython
  // 3.11.7's "AST constructor recursion depth mismatch" while Hypothesis describes a strategy, a flaky generation —
  // so they are printed, not counted.
  const failed = failedChecks.length + apiErrors.length
  exitCode = requests > 0 && failed === 0 ? 0 : 1
  for (const line of [...failedChecks, ...apiErrors]) console.log(`[fuzz] FAILED ${line}`)
  for (const line of toolErrors) console.log(`[fuzz] schemathesis' own error (not counted): ${line}`)
  console.log(
    `[fuzz] ${String(requests)} requests (${histogram.join(', ')}); ${String(failedChecks.length)} failed checks, ` +
      `${String(apiErrors.length)} unanswered requests, ${String(toolErrors.length)} tool errors; schemathesis exited ` +
      String(code),
  )
} finally {
  await bench.close()
}
process.exit(exitCode)

interface RunOutcome {
  /** Responses by status, counted from the calls each finished scenario lists. */
  statuses: Map<number, number>
  failedChecks: string[]
  /** Requests the API did not answer (timeouts, refused connections). */
  apiErrors: string[]
  /** Errors of schemathesis or Hypothesis themselves. */
  toolErrors: string[]
}

/** What the run found, from schemathesis' own event log. */
function outcomeOf(file: string): RunOutcome {
  const outcome: RunOutcome = { statuses: new Map(), failedChecks: [], apiErrors: [], toolErrors: [] }
  if (!existsSync(file)) return outcome
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('{"NonFatalError"')) {
      const { NonFatalError: error } = JSON.parse(line) as {
        NonFatalError: { label: string; value: { type: string; message: string } }
      }
      const text = `${error.label}: ${error.value.type}: ${error.value.message}`
      if (unanswered.has(error.value.type)) outcome.apiErrors.push(text)
      else outcome.toolErrors.push(text)
      continue
    }
    if (!line.startsWith('{"ScenarioFinished"')) continue
    const event = JSON.parse(line) as {
      ScenarioFinished?: {
        recorder?: {
          label?: string
          interactions?: Record<string, { response?: { status_code?: number } }>
          checks?: Record<string, { name: string; status: string }[]>
        }
      }
    }
    const recorder = event.ScenarioFinished?.recorder
    for (const { response } of Object.values(recorder?.interactions ?? {})) {
      if (response?.status_code !== undefined)
        outcome.statuses.set(response.status_code, (outcome.statuses.get(response.status_code) ?? 0) + 1)
    }
    for (const [caseId, checks] of Object.entries(recorder?.checks ?? {}))
      for (const check of checks)
        if (check.status === 'failure')
          outcome.failedChecks.push(`${recorder?.label ?? '?'} (${caseId}): ${check.name}`)
  }
  return outcome
}
