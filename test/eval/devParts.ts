/**
 * Every development set in two parts: one we tune on and one we only check (issue 55). A lever that lifts the tuned
 * part and not the checked one is not kept. The parts are fixed here, once, so that every run and every stop splits
 * the same way:
 *
 * - facts-chat (one person per case): by a hash of the person's name, so neither part is chosen by what it holds;
 * - LoCoMo dev: by conversation (conv-26 and conv-30 tuned, conv-41, conv-42 and conv-43 checked);
 * - BEAM dev: conversations 1–5 tuned, 6–10 checked.
 *
 * `writePart` writes a part in the set's own format into the cache, for the set's own runner to read.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultCacheDir } from '@memory-service/engines'

export type DevPart = 'tune' | 'check' | 'all'
export const devParts: readonly DevPart[] = ['tune', 'check', 'all']

export const isDevPart = (value: string): value is DevPart => (devParts as readonly string[]).includes(value)

/** The part a facts-chat person belongs to: the first byte of the name's sha256, even → tune, odd → check. */
export function factsChatPartOf(person: string): Exclude<DevPart, 'all'> {
  const first = createHash('sha256').update(person.normalize('NFC')).digest()[0] ?? 0
  return first % 2 === 0 ? 'tune' : 'check'
}

export const locomoTuneConversations: readonly string[] = ['conv-26', 'conv-30']
/** BEAM dev conversations 1–5 (their order in the converted file) are tuned on, 6–10 only checked. */
export const beamTuneCount = 5

interface FactsChatCase {
  person: string
}
interface FactsChatSet {
  changes: FactsChatCase[]
  traps: FactsChatCase[]
}

/** The cases of one part of the facts-chat set (the set's own format). */
export function factsChatPart<T extends FactsChatSet>(set: T, part: DevPart): T {
  if (part === 'all') return set
  const keep = (item: FactsChatCase) => factsChatPartOf(item.person) === part
  return { ...set, changes: set.changes.filter(keep), traps: set.traps.filter(keep) }
}

/** The conversations of one part of LoCoMo dev (a list of samples with `sample_id`). */
export function locomoPart<T extends { sample_id: string }>(samples: readonly T[], part: DevPart): T[] {
  if (part === 'all') return [...samples]
  const tuned = (sample: T) => locomoTuneConversations.includes(sample.sample_id)
  return samples.filter((sample) => (part === 'tune' ? tuned(sample) : !tuned(sample)))
}

/** The conversations of one part of BEAM dev (the converted file's list, in its order). */
export function beamPart<T>(conversations: readonly T[], part: DevPart): T[] {
  if (part === 'all') return [...conversations]
  return part === 'tune' ? conversations.slice(0, beamTuneCount) : conversations.slice(beamTuneCount)
}

/** Writes a part of a set into the cache and returns its path; `all` returns the set's own file. */
export function writePart(
  set: string,
  source: string,
  part: DevPart,
  select: (data: unknown, part: DevPart) => unknown,
): string {
  if (part === 'all') return source
  const dir = join(defaultCacheDir(process.env), 'eval', 'parts')
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${set}-${part}.json`)
  writeFileSync(path, JSON.stringify(select(JSON.parse(readFileSync(source, 'utf8')), part)))
  return path
}
