/**
 * Every common transcript shape read the same way (issue 55): a person's turn from material nobody here wrote —
 * LoCoMo dev, BEAM dev's user turns, the facts-chat development set — put into a chat with an assistant as `User:`,
 * by the person's name with an assistant labelled `Assistant`, `AI`, `Bot`, `Agent` or a name of its own, and
 * between two named people. In each shape the person's statements are theirs (their first person resolved to them,
 * never to the assistant or the friend), and an assistant's courtesy is no memory.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { extractStatements, isAssistantSpeaker, type ExtractedStatement } from '@memory-service/domain'
import { describe, expect, it } from 'vitest'
import { beamPath, hasBeam, hasLocomo, locomoPath } from './firstPersonSample.js'
import { createRandom } from './knowledgeUpdateSet.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const factsChatPath = resolve(
  process.env.FACTS_CHAT_DIR ?? join(root, '../shared/eval/facts-chat'),
  'facts-chat-dev.json',
)

interface PersonTurn {
  source: 'locomo' | 'beam' | 'facts-chat'
  before: string
  text: string
}

const turnsPerSource = { locomo: 120, beam: 60, 'facts-chat': 120 }
const firstPerson = /\b(?:I|I['’](?:m|ve|ll|d)|[Mm]y|[Mm]e)\b/
// Prose: no code, no table, and no line opening with a plain label ("Activity: …"). In a transcript whose people
// are named, a plain field line inside a message reads like a speaker's line, and nothing in the text tells the two
// apart (docs/decisions.md: memory formation); that shape is not this test's. A bold one ("**Time**: …") is a field
// among plain speakers' labels, and is kept.
const prose = (text: string) =>
  text.length >= 15 &&
  text.length <= 600 &&
  !/```|\|.*\|/.test(text) &&
  !/^\s*(?:\d+\.\s*)?\p{Lu}[\p{L} ]{0,30}:\s/mu.test(text)

function locomoTurns(): PersonTurn[] {
  const samples = JSON.parse(readFileSync(locomoPath, 'utf8')) as { conversation: Record<string, unknown> }[]
  return samples.flatMap((sample) =>
    Object.entries(sample.conversation)
      .filter(([key, value]) => /^session_\d+$/.test(key) && Array.isArray(value))
      .flatMap(([, session]) => {
        const turns = session as { speaker: string; text: string }[]
        return turns.flatMap((turn, index) => {
          const before = turns[index - 2]
          return index >= 2 && before?.speaker === turn.speaker && prose(turn.text) && prose(before.text)
            ? [{ source: 'locomo' as const, before: before.text, text: turn.text }]
            : []
        })
      }),
  )
}

function beamTurns(): PersonTurn[] {
  const conversations = JSON.parse(readFileSync(beamPath, 'utf8')) as {
    id: number | string
    turns: { role: string; content: string }[]
  }[]
  return conversations
    .filter((conversation) => Number(conversation.id) <= 10)
    .flatMap((conversation) => {
      const users = conversation.turns.filter((turn) => turn.role === 'user' && prose(turn.content))
      return users.slice(1).map((turn, index) => ({
        source: 'beam' as const,
        before: users[index]?.content ?? '',
        text: turn.content,
      }))
    })
}

function factsChatTurns(): PersonTurn[] {
  const set = JSON.parse(readFileSync(factsChatPath, 'utf8')) as {
    changes: { before: string[]; after: string[] }[]
    traps: { before: string[]; after: string[] }[]
  }
  return [...set.changes, ...set.traps].flatMap(({ before, after }) =>
    [before, after].flatMap((messages) =>
      messages.slice(1).map((text, index) => ({
        source: 'facts-chat' as const,
        before: messages[index] ?? '',
        text,
      })),
    ),
  )
}

const sources = [
  { name: 'locomo', present: hasLocomo(), read: locomoTurns },
  { name: 'beam', present: hasBeam(), read: beamTurns },
  { name: 'facts-chat', present: existsSync(factsChatPath), read: factsChatTurns },
] as const
for (const { name, present } of sources)
  if (!present) console.log(`transcript shapes: the ${name} turns are skipped: its development set is absent`)

// Each source drawn with a generator of its own: its turns are the same whether or not the other sets are present.
const turns: PersonTurn[] = sources.flatMap(({ name, present, read }) =>
  present ? createRandom(55).shuffle(read()).slice(0, turnsPerSource[name]) : [],
)

const person = 'Odalys'
const friend = 'Teodor'
const courtesy = ['That sounds good, tell me more.', 'Got it, thanks for sharing.', 'Interesting! Go on.']

interface Shape {
  name: string
  /** The person's label, and who answers them. */
  label: string
  other: string
  /** What the person's statements are attributed to. */
  speaker: string
  /** Words that must not become the subject of the person's sentences. */
  others: RegExp
}

const assistantShape = (label: string, called: string): Shape => ({
  name: `${person} with ${label}`,
  label: person,
  other: label,
  speaker: person,
  others: new RegExp(`\\b(?:${called})\\b`),
})

const shapes: Shape[] = [
  {
    name: 'User with Assistant',
    label: 'User',
    other: 'Assistant',
    speaker: 'User',
    others: /\bAssistant\b/,
  },
  assistantShape('Assistant', 'Assistant'),
  assistantShape('AI', 'AI'),
  assistantShape('Bot', 'Bot'),
  assistantShape('Agent', 'Agent'),
  assistantShape('Nova (assistant)', 'Nova|Assistant'),
  {
    name: `${person} with ${friend}`,
    label: person,
    other: friend,
    speaker: person,
    others: new RegExp(`\\b${friend}\\b`),
  },
]

const read = (text: string): ExtractedStatement[] =>
  extractStatements({
    text,
    documentType: 'ai-chat-conversation',
    documentCreatedAt: '2025-06-15T10:00:00Z',
    mode: 'fast',
  })

/** The turn as the only message of its speaker: how its statements read when nothing else is around. */
const alone = (turn: PersonTurn, label: string) => read(`${label}: ${turn.text}`)

if (turns.length === 0)
  console.log('transcript shapes: skipped, no development set is present to draw turns from')
describe.skipIf(turns.length === 0)('every transcript shape', () => {
  it('has at least 200 person turns from the development sets (each present set its share)', () => {
    const expected = sources.reduce((sum, { name, present }) => sum + (present ? turnsPerSource[name] : 0), 0)
    expect(turns.length).toBe(expected)
    if (sources.every(({ present }) => present)) expect(turns.length).toBeGreaterThanOrEqual(200)
  })

  for (const shape of shapes) {
    it(`${shape.name}: the person's turns are theirs, and the reply's courtesy is no memory`, () => {
      const misses: string[] = []
      for (const [index, turn] of turns.entries()) {
        const [first, second] = [courtesy[index % 3] ?? '', courtesy[(index + 1) % 3] ?? '']
        const text = [
          `${shape.label}: ${turn.before}`,
          `${shape.other}: ${first}`,
          `${shape.label}: ${turn.text}`,
          `${shape.other}: ${second}`,
        ].join('\n')
        const statements = read(text)
        const theirs = statements.filter((statement) => statement.speaker === shape.speaker)
        const strays = statements.filter(
          (statement) =>
            statement.speaker !== shape.speaker && !(shape.other === friend && statement.speaker === friend),
        )
        const said = `${turn.before} ${turn.text}`
        const why: string[] = []
        if (strays.length > 0)
          why.push(
            `statements of another speaker: ${strays.map((s) => `${String(s.speaker)}: ${s.content}`).join(' | ')}`,
          )
        if (shape.other !== friend && statements.some((statement) => isAssistantSpeaker(statement.speaker)))
          why.push('the assistant courtesy became a memory')
        for (const statement of theirs) {
          if (shape.others.test(statement.content) && !shape.others.test(said))
            why.push(`names the other side: ${statement.content}`)
          if (statement.content.startsWith(`${shape.label}:`)) why.push(`label kept: ${statement.content}`)
        }
        // Every statement the turn makes on its own, the dialogue makes too: being in a dialogue loses nothing.
        const own = alone(turn, shape.label).map((statement) => statement.content)
        const inDialogue = new Set(theirs.map((statement) => statement.content))
        const lost = own.filter((content) => !inDialogue.has(content))
        if (lost.length > 0 && firstPerson.test(turn.text)) why.push(`lost: ${lost.join(' | ')}`)
        if (why.length > 0) misses.push(`[${turn.source}] ${turn.text.slice(0, 80)} → ${why.join('; ')}`)
      }
      expect(misses, misses.slice(0, 10).join('\n')).toEqual([])
    })
  }
})
