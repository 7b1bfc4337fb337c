/**
 * `npm run eval:locomo -- [--mode fast|long-range] [--search-mode accurate|fast] [--k 10] [--reuse]`
 *
 * Starts the services, creates an instance and runs the LoCoMo retrieval evaluation (../shared/eval/locomo/run.mjs,
 * or LOCOMO_DIR) against the REST API: every dialogue turn ingested as a document, every question searched. With
 * `--reuse` the instance of the previous run for the same ingest mode is searched again without re-ingesting.
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { optionOf, runExternalEval } from './externalRunner.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const script = join(resolve(process.env.LOCOMO_DIR ?? join(root, '../shared/eval/locomo')), 'run.mjs')
if (!existsSync(script)) {
  console.error(`LoCoMo evaluation not found at ${script}; set LOCOMO_DIR`)
  process.exit(2)
}
const args = process.argv.slice(2)
const passed = args.filter((arg) => arg !== '--reuse')
const status = await runExternalEval({
  name: `locomo-eval-${optionOf(passed, 'mode', 'fast')}`,
  script,
  args: passed,
  reuse: args.includes('--reuse'),
  skipIngestFlag: '--skip-ingest',
})
process.exit(status)
