/**
 * Removes statements that say the same thing twice ("Caroline went to the group." / "Caroline went to the group
 * yesterday."), which chat turns and transcripts produce whenever someone repeats themselves.
 */

/** Token-set Jaccard similarity at or above which two statements count as the same. */
export const NEAR_DUPLICATE_JACCARD = 0.85
/** A statement whose tokens all appear in another, longer one is a duplicate when at most this many tokens differ. */
export const NEAR_DUPLICATE_EXTRA_TOKENS = 2

// A negation is a small difference that changes the meaning: "is happy" and "is not happy" are not duplicates.
const negations = new Set(['not', 'no', 'never', "n't", 'nor', 'without', 'none', 'nothing'])

/** Lower case, diacritics folded, punctuation dropped, contractions split so "don't" carries its "n't". */
export function tokenSetOf(text: string): Set<string> {
  const normalized = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/n't\b/g, " n't")
  return new Set(normalized.match(/n't|[\p{L}\p{N}]+/gu) ?? [])
}

/** Tokens of `a` missing from `b`. */
function differenceOf(a: ReadonlySet<string>, b: ReadonlySet<string>): string[] {
  return [...a].filter((token) => !b.has(token))
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0
  for (const token of a) if (b.has(token)) shared++
  return shared
}

/** Whether two token sets are near duplicates (see the module constants); symmetric. */
function areNearDuplicateSets(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return a.size === b.size
  const [smaller, larger] = a.size <= b.size ? [a, b] : [b, a]
  // Sizes alone rule out most candidate pairs before any token is compared.
  const sizesAllowJaccard = smaller.size >= NEAR_DUPLICATE_JACCARD * larger.size
  if (!sizesAllowJaccard && larger.size - smaller.size > NEAR_DUPLICATE_EXTRA_TOKENS) return false
  const shared = overlap(smaller, larger)
  const similar =
    shared / (a.size + b.size - shared) >= NEAR_DUPLICATE_JACCARD ||
    (shared === smaller.size && larger.size - smaller.size <= NEAR_DUPLICATE_EXTRA_TOKENS)
  if (!similar) return false
  return ![...differenceOf(a, b), ...differenceOf(b, a)].some((token) => negations.has(token))
}

export function areNearDuplicates(first: string, second: string): boolean {
  return areNearDuplicateSets(tokenSetOf(first), tokenSetOf(second))
}

/**
 * Keeps the most informative item (most distinct tokens, then longest text, then earliest) and drops every item that
 * repeats one already kept, best first. Survivors keep their input order. An item is dropped only for repeating a
 * survivor: of "Jon opened a dance studio in Paris last spring", "… in Paris" and "Jon opened a dance studio", the
 * last stays — it repeats only the middle one, which went.
 *
 * Candidates come from prefix filtering, so long documents are not compared pairwise: with tokens ordered rarest
 * first, a set x with Jaccard ≥ t to y shares a token with y among its first |x| − ⌈t·|x|⌉ + 1, and a set contained
 * in y shares its rarest token with y (the larger is better, so it is kept first). Only survivors are indexed, so
 * a thousand turns alike ("Benchmark turn 17: I moved to Lisbon…", a compaction of a repetitive conversation) cost
 * one probe each against the one survivor, not each against all the others.
 */
export function removeNearDuplicates<T>(items: readonly T[], textOf: (item: T) => string): T[] {
  if (items.length < 2) return [...items]
  const texts = items.map(textOf)
  const sets = texts.map(tokenSetOf)
  const frequency = new Map<string, number>()
  for (const set of sets) for (const token of set) frequency.set(token, (frequency.get(token) ?? 0) + 1)
  const rarestFirst = (set: ReadonlySet<string>) =>
    [...set].sort((a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
  const bestFirst = (a: number, b: number) =>
    (sets[b]?.size ?? 0) - (sets[a]?.size ?? 0) || (texts[b]?.length ?? 0) - (texts[a]?.length ?? 0) || a - b

  const kept = new Set<number>()
  const postings = new Map<string, number[]>()
  for (const index of texts.map((_text, index) => index).sort(bestFirst)) {
    const set = sets[index] ?? new Set<string>()
    const prefixLength = Math.max(1, set.size - Math.ceil(NEAR_DUPLICATE_JACCARD * set.size) + 1)
    const candidates = new Set<number>()
    for (const token of rarestFirst(set).slice(0, prefixLength))
      for (const other of postings.get(token) ?? []) candidates.add(other)
    if ([...candidates].some((other) => areNearDuplicateSets(set, sets[other] ?? new Set()))) continue
    kept.add(index)
    for (const token of set) {
      const list = postings.get(token)
      if (list) list.push(index)
      else postings.set(token, [index])
    }
  }
  return items.filter((_item, index) => kept.has(index))
}
