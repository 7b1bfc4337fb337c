/**
 * Runs a public benchmark's own runner (LoCoMo's or BEAM's `run.mjs`, kept outside this repository) against the
 * services started in this process with an instance of their own. With `reuse`, the instance of the previous run
 * under the same name is searched again without re-ingesting (its key is kept in the cache directory, readable by
 * the owner only). After the runner's report it prints the p50/p95 of the service's `took_ms` for the same
 * searches (the gateway runs in this process and publishes each one), so the service's time can be told from the
 * client's.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { subscribe } from 'node:diagnostics_channel'
import { defaultCacheDir } from '@memory-service/engines'
import { searchTimings, type SearchTiming } from '@memory-service/gateway'
import { percentile, startBench } from '../bench/benchSetup.js'

export interface ExternalRun {
  /** Names the instance kept for `reuse` (one per benchmark and ingest mode). */
  name: string
  script: string
  args: string[]
  reuse: boolean
  /** The runner's flag that skips its ingestion. */
  skipIngestFlag: string
}

/** Resolves with the runner's exit status. */
export async function runExternalEval(run: ExternalRun): Promise<number> {
  const stateFile = join(defaultCacheDir(process.env), 'eval', 'instances.json')
  const saved = existsSync(stateFile)
    ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, string>)
    : {}
  const reusedKey = run.reuse ? saved[run.name] : undefined
  if (run.reuse && !reusedKey) console.log(`no previous instance for ${run.name}: ingesting`)

  // Searching an instance ingested before needs only the gateway.
  const bench = await startBench(run.name, reusedKey ? ['gateway'] : ['gateway', 'pipeline', 'projectors'])
  const apiKey = reusedKey ?? bench.apiKey
  if (!reusedKey) {
    mkdirSync(dirname(stateFile), { recursive: true })
    writeFileSync(stateFile, JSON.stringify({ ...saved, [run.name]: apiKey }), { mode: 0o600 })
  }
  const tookMs: number[] = []
  subscribe(searchTimings.name, (message) => {
    tookMs.push((message as SearchTiming).tookMs)
  })
  const status = await new Promise<number>((done) => {
    const child = spawn(
      process.execPath,
      [run.script, ...run.args, ...(reusedKey ? [run.skipIngestFlag] : [])],
      {
        stdio: 'inherit',
        env: { ...process.env, MEMORY_BASE_URL: bench.baseUrl, MEMORY_API_KEY: apiKey },
      },
    )
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
  return status
}

/** The value after `--name` in a runner's arguments, or the fallback. */
export function optionOf(args: readonly string[], name: string, fallback: string): string {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback
}
