/**
 * Gold third-person rewrites of the first-person sample (firstPersonSample.ts), written by an editor who never saw
 * our rules. Neither data set's text may be committed, so thirdPersonGold.json holds, per sentence id, only word
 * edit scripts against the original sentence (which words to replace by which); the expected rewrites are rebuilt
 * here from the sentences read out of the data sets at run time. makeThirdPersonGold.ts writes the file.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hasBeam, hasLocomo, sentencesById } from './firstPersonSample.js'

export const goldPath = join(dirname(fileURLToPath(import.meta.url)), 'thirdPersonGold.json')

/** Replace `remove` words of the original from word `at` by `insert` (words; `{speaker}` stands for the name). */
export interface WordEdit {
  at: number
  remove: number
  insert: string[]
}

export interface GoldEntry {
  id: string
  /** sha256 of the original sentence (12 hex): the sentence the edits apply to. */
  sentenceHash: string
  /** The preferred rewrite first, then the other acceptable ones. */
  rewrites: WordEdit[][]
  note?: string
}

export type Source = 'locomo' | 'beam'

export interface GoldCase {
  id: string
  source: Source
  speaker: string
  sentence: string
  /** The preferred rewrite first. */
  rewrites: string[]
  note?: string
}

const speakerMark = '{speaker}'

export const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12)

const wordsOf = (text: string) => text.trim().split(/\s+/).filter(Boolean)

/** The word edits that turn `original` into `rewrite`: a word-level longest common subsequence, gaps as edits. */
export function editsBetween(original: string, rewrite: string, speaker: string): WordEdit[] {
  const from = wordsOf(original)
  const to = wordsOf(rewrite)
  // common[i][j]: length of the longest common subsequence of from[i..] and to[j..].
  const common = Array.from({ length: from.length + 1 }, () => new Array<number>(to.length + 1).fill(0))
  const at = (i: number, j: number) => common[i]?.[j] ?? 0
  for (let i = from.length - 1; i >= 0; i--)
    for (let j = to.length - 1; j >= 0; j--) {
      const row = common[i]
      if (row) row[j] = from[i] === to[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1))
    }
  const edits: WordEdit[] = []
  let i = 0
  let j = 0
  let open: WordEdit | null = null
  const close = () => {
    if (open) edits.push(open)
    open = null
  }
  while (i < from.length || j < to.length) {
    if (i < from.length && j < to.length && from[i] === to[j]) {
      close()
      i++
      j++
    } else if (j < to.length && (i === from.length || at(i, j + 1) >= at(i + 1, j))) {
      open ??= { at: i, remove: 0, insert: [] }
      open.insert.push((to[j] ?? '').replaceAll(speaker, speakerMark))
      j++
    } else {
      open ??= { at: i, remove: 0, insert: [] }
      open.remove++
      i++
    }
  }
  close()
  return edits
}

export function applyEdits(original: string, edits: readonly WordEdit[], speaker: string): string {
  const words = wordsOf(original)
  const out: string[] = []
  let cursor = 0
  for (const edit of edits) {
    out.push(
      ...words.slice(cursor, edit.at),
      ...edit.insert.map((word) => word.replaceAll(speakerMark, speaker)),
    )
    cursor = edit.at + edit.remove
  }
  out.push(...words.slice(cursor))
  return out.join(' ')
}

export const sourceOf = (id: string): Source => (id.startsWith('beam:') ? 'beam' : 'locomo')

/** Tuning half (even) or held-out half (odd), by a hash of the id. */
export const halfOf = (id: string): 'tune' | 'held-out' =>
  parseInt(createHash('sha256').update(id).digest('hex').slice(0, 2), 16) % 2 === 0 ? 'tune' : 'held-out'

export const readGoldEntries = (): GoldEntry[] => JSON.parse(readFileSync(goldPath, 'utf8')) as GoldEntry[]

export interface LoadedGold {
  cases: GoldCase[]
  /** Sources whose data set is absent here, with the reason. */
  skipped: { source: Source; reason: string }[]
  /** Ids whose sentence is no longer the one the edits were made against (the data set or the splitter changed). */
  changed: string[]
}

/** The gold rewrites rebuilt from the data sets present on this machine. */
export function loadThirdPersonGold(): LoadedGold {
  const skipped: LoadedGold['skipped'] = []
  if (!hasLocomo()) skipped.push({ source: 'locomo', reason: 'LoCoMo dev is absent (../shared/eval/locomo)' })
  if (!hasBeam()) skipped.push({ source: 'beam', reason: 'BEAM dev is absent (~/.cache/beam-100k-dev.json)' })
  const sentences = sentencesById()
  const cases: GoldCase[] = []
  const changed: string[] = []
  for (const entry of readGoldEntries()) {
    const source = sourceOf(entry.id)
    if (skipped.some((skip) => skip.source === source)) continue
    const original = sentences.get(entry.id)
    if (!original || hashOf(original.sentence) !== entry.sentenceHash) {
      changed.push(entry.id)
      continue
    }
    cases.push({
      id: entry.id,
      source,
      speaker: original.speaker,
      sentence: original.sentence,
      rewrites: entry.rewrites.map((edits) => applyEdits(original.sentence, edits, original.speaker)),
      ...(entry.note ? { note: entry.note } : {}),
    })
  }
  return { cases, skipped, changed }
}

/** Compared with whitespace collapsed and the first letter's case ignored. */
export function normalizeRewrite(text: string): string {
  const collapsed = text.trim().replace(/\s+/g, ' ')
  return collapsed.charAt(0).toLowerCase() + collapsed.slice(1)
}

export function matchesGold(output: string, rewrites: readonly string[]): boolean {
  const normalized = normalizeRewrite(output)
  return rewrites.some((rewrite) => normalizeRewrite(rewrite) === normalized)
}

export interface Score {
  matched: number
  total: number
}

export const accuracy = ({ matched, total }: Score) => (total === 0 ? Number.NaN : matched / total)

/** Matches per source and per half, and the cases that missed. */
export function scoreRewrites(
  cases: readonly GoldCase[],
  rewrite: (sentence: string, speaker: string) => string,
): { scores: Map<string, Score>; misses: { gold: GoldCase; output: string }[] } {
  const scores = new Map<string, Score>()
  const misses: { gold: GoldCase; output: string }[] = []
  const count = (key: string, matched: boolean) => {
    const score = scores.get(key) ?? { matched: 0, total: 0 }
    score.total++
    if (matched) score.matched++
    scores.set(key, score)
  }
  for (const gold of cases) {
    const output = rewrite(gold.sentence, gold.speaker)
    const matched = matchesGold(output, gold.rewrites)
    for (const key of ['all', gold.source, halfOf(gold.id), `${gold.source}/${halfOf(gold.id)}`])
      count(key, matched)
    if (!matched) misses.push({ gold, output })
  }
  return { scores, misses }
}
