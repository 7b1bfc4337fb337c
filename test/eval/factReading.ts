/**
 * `npm run eval:fact-reading -- [--part tune|check|all] [--label user] [--cases] [--train | --trained]
 * [--without w10,w11]`
 *
 * The fact readers on the facts-chat development set without the stack (issue 55): each chat is extracted by the
 * built-in extractor as the pipeline extracts it, each statement embedded by the local model and read by the fact
 * reader, and what supersession would make of the two chats is worked out from the readings. It says where a case
 * is lost — the new value not read, read without replacing, the old statement not read as a version, a trap's decoy
 * read as a new value, the question not read as asking the attribute — and how each reader does on the statements
 * that name the values, in seconds, where `eval:facts-chat` runs the services and says only that it was. The
 * figures are a diagnosis; `eval:facts-chat` is the measure.
 *
 * Readers: the shipped ones by default; `--train` trains them here from the examples as they are (the code as it
 * is: a change of how readers read is tried without regenerating), `--trained` reads the last ones `--train` made,
 * `--without` trains without some writers' examples (what those bring). `FACT_BARS` and `VERSION_BARS` (JSON over
 * the defaults) try other bars. The model's vectors are kept on disk between runs (the cache directory's `eval/`).
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  createBuiltinExtractor,
  factSlotOfReading,
  isAssistantSpeaker,
  withoutResolvedDates,
  type ExtractedStatement,
  type FactSlot,
} from '@memory-service/domain'
import {
  createFactReader,
  createLocalEmbedder,
  trainFactReaders,
  defaultCacheDir,
  embedQueries,
  type Embedder,
  type FactReader,
} from '@memory-service/engines'
import {
  askedAttributeOf,
  decisionMessagesOf,
  labelledMessages,
  labelledQuestions,
  meaningOf,
  trainingSetsOf,
  classify,
  defaultBars,
  featuresOf,
  readFact,
  roleInput,
  spanInput,
  valueSpansOf,
  versionBars,
  type FactReading,
  type FactReadingBars,
} from '@memory-service/language'
import { factsChatPartOf, isDevPart } from './devParts.js'
import { optionOf } from './externalRunner.js'

interface Case {
  attribute: string
  question: string
  person: string
  old: string
  new: string
  before: string[]
  after: string[]
  style?: 'named' | 'user' | 'peer'
  trap: boolean
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const dir = resolve(process.env.FACTS_CHAT_DIR ?? join(root, '../shared/eval/facts-chat'))
const data = join(dir, 'facts-chat-dev.json')
if (!existsSync(data)) {
  console.error(`facts-chat set not found in ${dir}; set FACTS_CHAT_DIR`)
  process.exit(2)
}
const args = process.argv.slice(2)
const part = optionOf(args, 'part', 'all')
if (!isDevPart(part)) {
  console.error('usage: eval:fact-reading -- [--part tune|check|all] [--label user] [--cases]')
  process.exit(2)
}
const asUser = optionOf(args, 'label', 'name') === 'user'
const showCases = args.includes('--cases')

const set = JSON.parse(readFileSync(data, 'utf8')) as { changes: Case[]; traps: Case[] }
const cases = [
  ...set.changes.map((item) => ({ ...item, trap: false })),
  ...set.traps.map((item) => ({ ...item, trap: true })),
].filter((item) => part === 'all' || factsChatPartOf(item.person) === part)

/** The set's attribute names in the catalogue's (services/language/data/attributes.json). */
const catalogueNames: Record<string, string[]> = {
  'job title': ['job_title'],
  'language being learned': ['language_learning'],
  'marital status': ['relationship_status'],
  team: ['work_team', 'supported_team'],
}
const namesOf = (attribute: string) => catalogueNames[attribute] ?? [attribute.replace(/ /g, '_')]

// The transcript as the set's runner writes it.
const replies = [
  'That sounds good, tell me more.',
  'Got it, thanks for sharing.',
  'Interesting! How do you feel about it?',
]
const friendReplies = ['haha no way', 'omg tell me everything', 'that sounds like a lot']
const styleOf = (item: Case) => (asUser ? 'user' : (item.style ?? 'named'))
function chat(item: Case, messages: string[]): string {
  const style = styleOf(item)
  const me = style === 'user' ? 'User' : item.person
  const other = style === 'peer' ? (item.person === 'Sam' ? 'Alex' : 'Sam') : 'Assistant'
  const said = style === 'peer' ? friendReplies : replies
  return messages
    .map((message, index) => `${me}: ${message}\n${other}: ${said[index % said.length]}`)
    .join('\n')
}

const modelDir = process.env.EMBEDDINGS_MODEL_DIR ?? join(defaultCacheDir(process.env), 'models')
const model = process.env.EMBEDDINGS_MODEL ?? 'all-MiniLM-L6-v2'
const modelEmbedder = await createLocalEmbedder({
  modelDir,
  model,
  dimension: 384,
  thread: 'caller',
  threads: 2,
})
const embedder = cachedOnDisk(modelEmbedder)

/**
 * The model's vectors kept on disk between runs (the examples' messages, spans and contexts are embedded again at
 * every training otherwise): a harness's shortcut, never the services'.
 */
function cachedOnDisk(inner: Embedder): Embedder {
  const file = join(defaultCacheDir(process.env), 'eval', `vectors-${model}.jsonl`)
  const stored = new Map<string, number[]>()
  const queries = new Map<string, number[]>()
  if (existsSync(file)) {
    // In chunks: the file outgrows the longest string Node.js makes.
    const handle = openSync(file, 'r')
    const chunk = Buffer.alloc(64 * 1024 * 1024)
    let rest = ''
    for (let read = readSync(handle, chunk); read > 0; read = readSync(handle, chunk)) {
      const lines = (rest + chunk.toString('utf8', 0, read)).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) {
        if (!line) continue
        const [kind, text, vector] = JSON.parse(line) as [string, string, number[]]
        ;(kind === 'q' ? queries : stored).set(text, vector)
      }
    }
    closeSync(handle)
  }
  mkdirSync(dirname(file), { recursive: true })
  const through =
    (into: Map<string, number[]>, kind: string, embed: (texts: string[]) => Promise<number[][]>) =>
    async (texts: string[]) => {
      const missing = [...new Set(texts.filter((text) => !into.has(text)))]
      if (missing.length > 0) {
        const vectors = await embed(missing)
        const lines = missing.map((text, index) => {
          const vector = (vectors[index] ?? []).map((value) => Math.round(value * 1e6) / 1e6)
          into.set(text, vector)
          return JSON.stringify([kind, text, vector])
        })
        appendFileSync(file, `${lines.join('\n')}\n`)
      }
      return texts.map((text) => into.get(text) ?? [])
    }
  return {
    model: inner.model,
    dimension: inner.dimension,
    embed: through(stored, 's', (texts) => inner.embed(texts)),
    embedQueries: through(queries, 'q', (texts) => embedQueries(inner, texts)),
    close: () => inner.close(),
  }
}
const started = Date.now()
// --without w10,w11: readers trained here without those writers' examples (what their examples bring).
const without = optionOf(args, 'without', '').split(',').filter(Boolean)
const reader: FactReader =
  without.length > 0 || args.includes('--train') || args.includes('--trained')
    ? await readerTrainedWithout(without)
    : await createFactReader(embedder, { cacheDir: join(defaultCacheDir(process.env), 'fact-readers') })()

async function readerTrainedWithout(writers: string[]): Promise<FactReader> {
  const messages = labelledMessages().filter(({ writer }) => !writers.includes(writer))
  const sets = trainingSetsOf(
    messages,
    labelledQuestions().filter(({ writer }) => !writers.includes(writer)),
  )
  const saved = join(defaultCacheDir(process.env), 'eval', `readers-trained-${model}.json`)
  // --trained: the readers this harness trained last (the same code and examples), for trying bars without training.
  const models = args.includes('--trained')
    ? (JSON.parse(readFileSync(saved, 'utf8')) as Awaited<ReturnType<typeof trainFactReaders>>)
    : await trainFactReaders(embedder, sets, decisionMessagesOf(messages))
  if (!args.includes('--trained')) writeFileSync(saved, JSON.stringify(models))
  return {
    models,
    read: () => Promise.reject(new Error('read through readFact')),
    meaning: (statement) => meaningOf(models, { ...statement, content: withoutResolvedDates(statement.content) }),
    askedAttribute: (question, vector) => askedAttributeOf(models, question, vector),
  }
}
console.log(`readers ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
const extractor = createBuiltinExtractor()

interface Read {
  statement: ExtractedStatement
  reading: FactReading | null
  slot: FactSlot | null
  vector: number[]
}

// Bars to try, as JSON over the defaults (FACT_BARS, VERSION_BARS): the harness is where a bar is tried first.
const bars: FactReadingBars = { ...defaultBars, ...(JSON.parse(process.env.FACT_BARS ?? '{}') as object) }
const asVersionBars: FactReadingBars = {
  ...versionBars,
  ...(JSON.parse(process.env.VERSION_BARS ?? '{}') as object),
}
const spanVectors = new Map<string, number[]>()
async function embedSpans(texts: string[]): Promise<number[][]> {
  const missing = [...new Set(texts.filter((text) => !spanVectors.has(text)))]
  if (missing.length > 0) {
    const vectors = await embedder.embed(missing)
    missing.forEach((text, index) => spanVectors.set(text, vectors[index] ?? []))
  }
  return texts.map((text) => spanVectors.get(text) ?? [])
}
const read = (statement: { content: string; speaker: string; vector: number[] }, asVersionOf?: string) =>
  // As the services read: without the dates the extractor resolved (createFactReader).
  readFact(
    reader.models,
    { ...statement, content: withoutResolvedDates(statement.content) },
    embedSpans,
    asVersionOf ? { bars: asVersionBars, asVersionOf } : { bars },
  )

async function readChat(item: Case, messages: string[], at: string): Promise<Read[]> {
  const { statements } = await extractor.extract({
    text: chat(item, messages),
    documentType: 'ai-chat-conversation',
    documentCreatedAt: at,
    mode: 'fast',
  })
  const vectors = await embedder.embed(statements.map(({ content }) => content))
  return Promise.all(
    statements.map(async (statement, index) => {
      const vector = vectors[index] ?? []
      const speaker = statement.speaker
      if (speaker === null || isAssistantSpeaker(speaker))
        return { statement, reading: null, slot: null, vector }
      const reading = await read({ content: statement.content, speaker, vector })
      return { statement, reading, slot: reading ? factSlotOfReading(reading, speaker) : null, vector }
    }),
  )
}

/**
 * What supersession makes of the two chats (factSupersession.ts, with every older statement of the speaker a
 * candidate): the older statements each fact the later chat states ends.
 */
async function supersededBy(before: Read[], after: Read[]): Promise<Read[]> {
  const ended = new Set<Read>()
  for (const arriving of after) {
    const { slot, reading, statement } = arriving
    const speaker = statement.speaker
    if (!slot || !reading || !speaker || slot.key.split('|').length !== 2) continue
    for (const candidate of before) {
      if (candidate.statement.speaker !== speaker || ended.has(candidate)) continue
      let version: FactSlot | null = null
      if (candidate.slot?.key === slot.key) version = candidate.slot
      else if (reading.previous && has(candidate.statement.content, reading.previous))
        version = factSlotOfReading(
          { attribute: slot.attribute, value: reading.previous, replaces: true },
          speaker,
        )
      else if (!candidate.slot || candidate.slot.key.split('|').length === 2) {
        const again = await read(
          { content: candidate.statement.content, speaker, vector: candidate.vector },
          slot.attribute,
        )
        version = again ? factSlotOfReading(again, speaker) : null
      }
      if (version?.key === slot.key && version.value !== slot.value) ended.add(candidate)
    }
  }
  return [...ended]
}

const has = (text: string, words: string) => text.toLowerCase().includes(words.toLowerCase())
type Outcome = Record<string, boolean>
const tallies = new Map<string, { n: number; counts: Record<string, number> }>()
function count(group: string, outcome: Outcome) {
  const tally = tallies.get(group) ?? { n: 0, counts: {} }
  tally.n += 1
  for (const [name, value] of Object.entries(outcome))
    tally.counts[name] = (tally.counts[name] ?? 0) + Number(value)
  tallies.set(group, tally)
}

/**
 * Each reader on the statements that name a case's value: the topic (its attribute first), the stance (current for
 * a change's old and new statements, not current for a trap's decoy), the kind (the value's span first of the
 * statement's spans for the attribute) and the role (the value's span read as the value).
 */
async function readersOn(item: Case, reads: Read[], words: string, current: boolean, group: string) {
  const naming = reads.find(
    ({ statement }) =>
      statement.speaker !== null && !isAssistantSpeaker(statement.speaker) && has(statement.content, words),
  )
  if (!naming) return
  const speaker = naming.statement.speaker ?? undefined
  const content = naming.statement.content
  const meaning = reader.meaning({ content, speaker, vector: naming.vector })
  const names = namesOf(item.attribute)
  const topTopic = Object.entries(meaning.topic).sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
  const topStance = Object.entries(meaning.stance).sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
  const outcome: Outcome = {
    topic: names.includes(topTopic),
    stance: current
      ? topStance === 'current' || topStance === 'also'
      : topStance !== 'current' && topStance !== 'also',
  }
  if (current) {
    const attribute = names.find((name) => meaning.topic[name] !== undefined) ?? ''
    const spans = valueSpansOf(content, speaker ? [speaker] : [])
    const at = content.toLowerCase().indexOf(words.toLowerCase())
    const gold = spans.find((span) => span.start === at && span.end === at + words.length)
    outcome.spanOffered = gold !== undefined
    if (gold) {
      const kinds = await embedSpans(spans.map(({ text }) => spanInput(text).embed))
      const kindOfSpan = spans.map(
        (span, index) =>
          classify(reader.models.kind, featuresOf(spanInput(span.text), kinds[index] ?? []))[attribute] ?? 0,
      )
      const goldKind = kindOfSpan[spans.indexOf(gold)] ?? 0
      outcome.kindFirst = kindOfSpan.every((kind) => kind <= goldKind)
      outcome.kindHalf = goldKind >= 0.5
      const [context] = await embedSpans([roleInput(content, gold, speaker).embed])
      const role = classify(reader.models.role, featuresOf(roleInput(content, gold, speaker), context ?? []))
      outcome.roleValue = role.value >= 0.5
    }
  }
  count(group, outcome)
}

for (const item of cases) {
  const names = namesOf(item.attribute)
  const [before, after] = await Promise.all([
    readChat(item, item.before, '2025-01-10T10:00:00Z'),
    readChat(item, item.after, '2025-06-15T10:00:00Z'),
  ])
  const ofAttribute = (reads: Read[]) =>
    reads.filter(({ slot }) => slot !== null && names.includes(slot.attribute))
  const newReads = ofAttribute(after).filter(
    ({ slot }) => has(slot?.value ?? '', item.new) || has(item.new, slot?.value ?? '@'),
  )
  const replacing = newReads.filter(({ slot }) => slot?.key.split('|').length === 2)
  const oldReads = ofAttribute(before).filter(
    ({ slot }) => has(slot?.value ?? '', item.old) || has(item.old, slot?.value ?? '@'),
  )
  if (item.trap) await readersOn(item, after, item.new, false, 'readers decoy')
  else {
    await readersOn(
      item,
      after,
      item.new,
      true,
      `readers new ${part === 'all' ? factsChatPartOf(item.person) : part}`,
    )
    await readersOn(
      item,
      before,
      item.old,
      true,
      `readers old ${part === 'all' ? factsChatPartOf(item.person) : part}`,
    )
  }
  const ended = await supersededBy(before, after)
  const oldAsVersion = ended.some(({ statement }) => has(statement.content, item.old))
  const wronglyEnded = ended.filter(({ statement }) => item.trap || !has(statement.content, item.old)).length
  const [questionVector] = await embedQueries(embedder, [item.question])
  const asked = reader.askedAttribute(item.question, questionVector ?? [])
  const askedRight = asked !== null && names.includes(asked.attribute)
  const decoyRead = ofAttribute(after).some(({ slot }) => slot?.key.split('|').length === 2)
  const outcome: Outcome = item.trap
    ? {
        question: askedRight,
        oldRead: oldReads.length > 0,
        decoyReplaces: decoyRead,
        anyEnded: wronglyEnded > 0,
      }
    : {
        question: askedRight,
        newRead: newReads.length > 0,
        replaces: replacing.length > 0,
        oldRead: oldReads.length > 0,
        superseded: oldAsVersion,
        wrongEnded: wronglyEnded > 0,
      }
  const style = styleOf(item)
  count(item.trap ? 'traps' : 'changes', outcome)
  count(`${item.trap ? 'traps' : 'changes'} ${style}`, outcome)
  if (part === 'all') count(`${item.trap ? 'traps' : 'changes'} ${factsChatPartOf(item.person)}`, outcome)
  if (showCases) {
    const marks = Object.entries(outcome)
      .map(([name, value]) => `${name}=${value ? 1 : 0}`)
      .join(' ')
    console.log(`${item.trap ? 'TRAP ' : ''}${style} ${item.attribute} ${item.old}→${item.new}: ${marks}`)
    for (const [label, reads] of [
      ['before', before],
      ['after', after],
    ] as const)
      for (const { statement, slot } of reads)
        if (!isAssistantSpeaker(statement.speaker))
          console.log(
            `    ${label} ${slot ? `[${slot.key}=${slot.value}]` : '[-]'} ${statement.content.slice(0, 110)}`,
          )
    console.log(`    asked ${asked ? `${asked.attribute} ${asked.probability.toFixed(2)}` : '-'}`)
    // Why a value was not read: the topic and stance of the statement that names it.
    for (const [label, reads, words] of [
      ['new', after, item.new],
      ['old', before, item.old],
    ] as const) {
      const naming = reads.find(({ statement }) => has(statement.content, words))
      if (!naming || naming.slot) continue
      const meaning = reader.meaning({
        content: naming.statement.content,
        speaker: naming.statement.speaker ?? undefined,
        vector: naming.vector,
      })
      const topics = Object.entries(meaning.topic)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([name, p]) => `${name} ${p.toFixed(2)}`)
        .join(', ')
      const stances = Object.entries(meaning.stance)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([name, p]) => `${name} ${p.toFixed(2)}`)
        .join(', ')
      console.log(`    ${label} unread: topic ${topics} | stance ${stances}`)
      const attribute = Object.entries(meaning.topic).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'none'
      const content = naming.statement.content
      const spans = valueSpansOf(content, [naming.statement.speaker ?? ''])
      const kinds = await embedder.embed(spans.map(({ text }) => spanInput(text).embed))
      const scored = spans
        .map((span, index) => ({
          span,
          kind:
            classify(reader.models.kind, featuresOf(spanInput(span.text), kinds[index] ?? []))[attribute] ??
            0,
        }))
        .sort((a, b) => b.kind - a.kind)
        .slice(0, 4)
      const roles = await embedder.embed(scored.map(({ span }) => roleInput(content, span).embed))
      const described = scored.map(({ span, kind }, index) => {
        const role = classify(
          reader.models.role,
          featuresOf(roleInput(content, span, naming.statement.speaker ?? undefined), roles[index] ?? []),
        )
        return `"${span.text}" kind ${kind.toFixed(2)} value ${role.value.toFixed(2)}`
      })
      console.log(`      spans for ${attribute}: ${described.join('; ')}`)
    }
  }
}

console.log(`fact reading on facts-chat part=${part} label=${asUser ? 'user' : 'name'} model=${model}`)
for (const [group, { n, counts }] of [...tallies].sort(([a], [b]) => a.localeCompare(b)))
  console.log(
    `${group.padEnd(16)} n=${String(n).padStart(3)} ` +
      Object.entries(counts)
        .map(([name, value]) => `${name}=${(value / n).toFixed(2)}`)
        .join(' '),
  )
await embedder.close()
