/**
 * `npm run eval:locomo -- [--mode fast|long-range] [--search-mode accurate|fast] [--k 10] [--reuse]`
 *
 * Starts the services, creates an instance and runs the LoCoMo retrieval evaluation (../shared/eval/locomo/run.mjs,
 * or LOCOMO_DIR) against the REST API: every dialogue turn ingested as a document, every question searched. With
 * `--reuse` the instance of the previous run for the same ingest mode is searched again without re-ingesting
 * (its key is kept in the cache directory, readable by the owner only). After the runner's own report it prints the
 * p50/p95 of the service's `took_ms` for the same searches (the gateway runs in this process and publishes each one),
 * so the service's time can be told from the client's.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defaultCacheDir } from '@memory-service/engines'
import { subscribe } from 'node:diagnostics_channel'
import { searchTimings, type SearchTiming } from '@memory-service/gateway'
import { percentile, startBench } from '../bench/benchSetup.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const locomoDir = resolve(process.env.LOCOMO_DIR ?? join(root, '../shared/eval/locomo'))
const script = join(locomoDir, 'run.mjs')
if (!existsSync(script)) {
  console.error(`LoCoMo evaluation not found at ${script}; set LOCOMO_DIR`)
  process.exit(2)
}

const args = process.argv.slice(2)
const reuse = args.includes('--reuse')
const passed = args.filter((arg) => arg !== '--reuse')
const modeAt = passed.indexOf('--mode')
const ingestMode = modeAt >= 0 ? (passed[modeAt + 1] ?? 'fast') : 'fast'

const stateFile = join(defaultCacheDir(process.env), 'eval', 'locomo-instances.json')
const saved = existsSync(stateFile)
  ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, string>)
  : {}
const reusedKey = reuse ? saved[ingestMode] : undefined
if (reuse && !reusedKey) console.log(`no previous instance for ingest mode ${ingestMode}: ingesting`)

// Searching an instance ingested before needs only the gateway.
const bench = await startBench(
  `locomo-eval-${ingestMode}`,
  reusedKey ? ['gateway'] : ['gateway', 'pipeline', 'projectors'],
)
const apiKey = reusedKey ?? bench.apiKey
if (!reusedKey) {
  mkdirSync(dirname(stateFile), { recursive: true })
  writeFileSync(stateFile, JSON.stringify({ ...saved, [ingestMode]: apiKey }), { mode: 0o600 })
}
const tookMs: number[] = []
subscribe(searchTimings.name, (message) => {
  tookMs.push((message as SearchTiming).tookMs)
})
const status = await new Promise<number>((done) => {
  const child = spawn(process.execPath, [script, ...passed, ...(reusedKey ? ['--skip-ingest'] : [])], {
    stdio: 'inherit',
    env: { ...process.env, MEMORY_BASE_URL: bench.baseUrl, MEMORY_API_KEY: apiKey },
  })
  child.on('exit', (code) => {
    done(code ?? 1)
  })
})
if (tookMs.length > 0) {
  tookMs.sort((a, b) => a - b)
  console.log(
    `service took_ms over ${String(tookMs.length)} searches: p50=${percentile(tookMs, 50).toFixed(1)} ` +
      `p95=${percentile(tookMs, 95).toFixed(1)} p99=${percentile(tookMs, 99).toFixed(1)}`,
  )
}
await bench.close()
process.exit(status)
