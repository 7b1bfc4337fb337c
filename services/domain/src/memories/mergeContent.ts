import { areNearDuplicates, tokenSetOf } from '../extraction/nearDuplicates.js'
import { splitSentences } from '../extraction/sentences.js'

export type MergeStrategy = 'replace' | 'append' | 'smart-merge'

/** Leading tokens two statements must share to be about the same thing ("Caroline lives in …"). */
const sharedSubjectTokens = 3

function leadingTokens(sentence: string): string {
  return sentence
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean)
    .slice(0, sharedSubjectTokens)
    .join(' ')
}

/**
 * Two statements conflict when they say something different about the same subject and predicate: the same
 * leading words ("Caroline lives in") with a different rest ("Lisbon" vs "Porto").
 */
function conflicts(older: string, newer: string): boolean {
  const lead = leadingTokens(older)
  return (
    lead.split(' ').length === sharedSubjectTokens &&
    lead === leadingTokens(newer) &&
    tokenSetOf(older).size > 0
  )
}

/**
 * The content of a memory after a PATCH (spec: Endpoints → Memories, rule 4). `replace` takes the new text;
 * `append` keeps the original and adds the new text after it; `smart-merge` keeps every original sentence the new
 * text neither repeats nor contradicts, then the new sentences: duplicates collapse, and on a conflict the newer
 * statement wins.
 */
export function mergeContent(existing: string, incoming: string, strategy: MergeStrategy): string {
  const newer = incoming.trim()
  switch (strategy) {
    case 'replace':
      return newer
    case 'append':
      return existing.trim().length === 0 ? newer : `${existing.trim()} ${newer}`
    case 'smart-merge': {
      const incomingSentences = splitSentences(newer)
      const kept = splitSentences(existing).filter(
        (sentence) =>
          !incomingSentences.some(
            (candidate) => areNearDuplicates(sentence, candidate) || conflicts(sentence, candidate),
          ),
      )
      return [...kept, ...incomingSentences].join(' ')
    }
  }
}
