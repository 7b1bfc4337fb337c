/**
 * `npm run eval:beam -- [--limit-conversations N] [--mode fast|long-range] [--search-mode accurate|fast] [--k 10]
 * [--out report.json] [--reuse]`
 *
 * Starts the services, creates an instance and runs the BEAM retrieval evaluation (../shared/eval/beam/run.mjs, or
 * BEAM_DIR) on the development split (conversations 1–10, converted once into the cache by
 * ../shared/eval/beam/make-beam.mjs; BEAM_DATA names another file): every message ingested as a document, every
 * question searched. With `--reuse` the instance of the previous run with the same options is searched again.
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beamPart, isDevPart, writePart } from './devParts.js'
import { optionOf, runExternalEval } from './externalRunner.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const script = join(resolve(process.env.BEAM_DIR ?? join(root, '../shared/eval/beam')), 'run.mjs')
const data = process.env.BEAM_DATA ?? join(homedir(), '.cache', 'beam-100k-dev.json')
for (const [what, path, how] of [
  ['BEAM evaluation', script, 'set BEAM_DIR'],
  ['BEAM dev data', data, 'convert a BEAM snapshot with ../shared/eval/beam/make-beam.mjs, or set BEAM_DATA'],
] as const) {
  if (!existsSync(path)) {
    console.error(`${what} not found at ${path}; ${how}`)
    process.exit(2)
  }
}
const args = process.argv.slice(2)
// `--part tune|check` runs one part of the development set (devParts.ts); default: all of it.
const part = optionOf(args, 'part', 'all')
if (!isDevPart(part)) {
  console.error('--part takes tune, check or all')
  process.exit(2)
}
const file = writePart('beam', data, part, (set, which) =>
  beamPart(set as Parameters<typeof beamPart>[0], which),
)
const passed = args.filter(
  (arg, index) => arg !== '--reuse' && arg !== '--part' && args[index - 1] !== '--part',
)
const status = await runExternalEval({
  name: `beam-eval-${optionOf(passed, 'mode', 'fast')}-${optionOf(passed, 'limit-conversations', 'all')}-${part}`,
  script,
  args: [file, ...passed],
  reuse: args.includes('--reuse'),
  skipIngestFlag: '--skip-ingest',
})
process.exit(status)
