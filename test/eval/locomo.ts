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
import { locomoPart, isDevPart, writePart } from './devParts.js'
import { optionOf, runExternalEval } from './externalRunner.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const script = join(resolve(process.env.LOCOMO_DIR ?? join(root, '../shared/eval/locomo')), 'run.mjs')
if (!existsSync(script)) {
  console.error(`LoCoMo evaluation not found at ${script}; set LOCOMO_DIR`)
  process.exit(2)
}
const args = process.argv.slice(2)
// `--part tune|check` runs one part of the development set (devParts.ts); default: all of it.
const part = optionOf(args, 'part', 'all')
if (!isDevPart(part)) {
  console.error('--part takes tune, check or all')
  process.exit(2)
}
const file = writePart('locomo', join(dirname(script), 'locomo-dev.json'), part, (set, which) =>
  locomoPart(set as Parameters<typeof locomoPart>[0], which),
)
const passed = args.filter(
  (arg, index) => arg !== '--reuse' && arg !== '--part' && args[index - 1] !== '--part',
)
const status = await runExternalEval({
  name: `locomo-eval-${optionOf(passed, 'mode', 'fast')}-${part}`,
  script,
  args: [file, ...passed],
  reuse: args.includes('--reuse'),
  skipIngestFlag: '--skip-ingest',
})
process.exit(status)
