/**
 * `npm run eval:facts-chat -- [--part tune|check|all] [--label user] [--mode fast|long-range]`
 *
 * Fact changes inside whole chats (issue 55): starts the services, creates an instance and runs the set's own runner
 * (../shared/eval/facts-chat/run.mjs, or FACTS_CHAT_DIR) on one part of the development set (devParts.ts: by person,
 * `tune` or `check`; default `all`). `--label user` labels the person's turns `User:` instead of their name.
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { factsChatPart, isDevPart, writePart } from './devParts.js'
import { optionOf, runExternalEval } from './externalRunner.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const dir = resolve(process.env.FACTS_CHAT_DIR ?? join(root, '../shared/eval/facts-chat'))
const script = join(dir, 'run.mjs')
const data = join(dir, 'facts-chat-dev.json')
if (!existsSync(script) || !existsSync(data)) {
  console.error(`facts-chat evaluation not found in ${dir}; set FACTS_CHAT_DIR`)
  process.exit(2)
}
const args = process.argv.slice(2)
const part = optionOf(args, 'part', 'all')
if (!isDevPart(part)) {
  console.error('usage: eval:facts-chat -- [--part tune|check|all] [--label user] [--mode fast|long-range]')
  process.exit(2)
}
const passed = args.filter((arg, index) => arg !== '--part' && args[index - 1] !== '--part')
const file = writePart('facts-chat', data, part, (set, which) =>
  factsChatPart(set as Parameters<typeof factsChatPart>[0], which),
)
console.log(`facts-chat part=${part}`)
const status = await runExternalEval({
  name: `facts-chat-${part}`,
  script,
  args: [file, ...passed],
  reuse: false,
  skipIngestFlag: '',
})
process.exit(status)
