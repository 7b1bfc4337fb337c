/**
 * First-person sentences from material nobody here wrote — LoCoMo dev turns (../shared/eval/locomo) and the user
 * turns of BEAM dev (conversations 1–10, converted into the cache by ../shared/eval/beam/make-beam.mjs) — sampled
 * deterministically, to test the third-person rewrite on what speakers really say (thirdPersonGold.ts).
 *
 * Neither data set's text is committed: a sentence is named by where it comes from (its turn and its position among
 * the turn's sentences) and read from the data set when a test or the evaluation runs.
 */
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { splitSentences } from '@memory-service/domain'
import { createRandom } from './knowledgeUpdateSet.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const locomoPath = resolve(
  process.env.LOCOMO_DIR ?? join(root, '../shared/eval/locomo'),
  'locomo-dev.json',
)
export const beamPath = process.env.BEAM_DATA ?? join(homedir(), '.cache', 'beam-100k-dev.json')

export interface SentenceSource {
  /** `locomo:<sample>:<dia_id>:<n>` or `beam:<conversation>:<chat_id>:<n>` (n: the sentence's place in its turn). */
  id: string
  speaker: string
  sentence: string
  /** The whole turn, for a reader who wants the sentence's context. */
  turn: string
}

const firstPerson = /\b(?:I|I['’](?:m|ve|ll|d)|[Mm]y|[Mm]e|[Mm]ine|[Mm]yself)\b/
/** Code, markup and tables are not what a speaker says about themself. */
const notProse = /[`{}<>|=#_\\]|https?:|\*\*/

function usable(sentence: string): boolean {
  return (
    sentence.length >= 20 && sentence.length <= 240 && firstPerson.test(sentence) && !notProse.test(sentence)
  )
}

interface LocomoTurn {
  speaker: string
  dia_id: string
  text: string
}

function locomoSentences(): SentenceSource[] {
  const samples = JSON.parse(readFileSync(locomoPath, 'utf8')) as {
    sample_id: string
    conversation: Record<string, unknown>
  }[]
  return samples.flatMap((sample) =>
    Object.entries(sample.conversation)
      .filter(([key, value]) => /^session_\d+$/.test(key) && Array.isArray(value))
      .flatMap(([, session]) =>
        (session as LocomoTurn[]).flatMap((turn) =>
          splitSentences(turn.text).flatMap((sentence, position) =>
            usable(sentence)
              ? [
                  {
                    id: `locomo:${sample.sample_id}:${turn.dia_id}:${String(position)}`,
                    speaker: turn.speaker,
                    sentence,
                    turn: turn.text,
                  },
                ]
              : [],
          ),
        ),
      ),
  )
}

interface BeamConversation {
  id: number | string
  turns: { chat_id: number; role: string; content: string }[]
}

function beamSentences(): SentenceSource[] {
  const conversations = JSON.parse(readFileSync(beamPath, 'utf8')) as BeamConversation[]
  return conversations
    .filter((conversation) => Number(conversation.id) <= 10)
    .flatMap((conversation) =>
      conversation.turns
        .filter((turn) => turn.role === 'user')
        .flatMap((turn) =>
          splitSentences(turn.content).flatMap((sentence, position) =>
            usable(sentence)
              ? [
                  {
                    id: `beam:${String(conversation.id)}:${String(turn.chat_id)}:${String(position)}`,
                    speaker: 'User',
                    sentence,
                    turn: turn.content,
                  },
                ]
              : [],
          ),
        ),
    )
}

export const hasLocomo = () => existsSync(locomoPath)
export const hasBeam = () => existsSync(beamPath)

/** The sample: `locomo` sentences from LoCoMo dev and `beam` from BEAM dev, in a fixed seeded order. */
export function sampleFirstPersonSentences(
  counts: { locomo: number; beam: number },
  seed = 30,
): SentenceSource[] {
  const random = createRandom(seed)
  const locomo = hasLocomo() ? random.shuffle(locomoSentences()).slice(0, counts.locomo) : []
  const beam = hasBeam() ? random.shuffle(beamSentences()).slice(0, counts.beam) : []
  return [...locomo, ...beam]
}

/** Every sentence by id, for tests that name their sentences. */
export function sentencesById(): Map<string, SentenceSource> {
  const all = [...(hasLocomo() ? locomoSentences() : []), ...(hasBeam() ? beamSentences() : [])]
  return new Map(all.map((source) => [source.id, source]))
}
