import { entityKey } from '../extraction/entityNames.js'
import { isStopword, wordsOf } from './searchTerms.js'

const questionStart =
  /^(?:what|when|where|who|whom|whose|which|why|how|did|does|do|is|are|was|were|has|have|had|can|could|would|will|should)\b/i

function contentWordCount(text: string): number {
  return wordsOf(text).filter((word) => !isStopword(word)).length
}

// "Caroline and Melanie", "Jon & Gina": two capitalized names joined, each of which a sub-question can ask about.
const namePair =
  /\b([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?)\s+(?:and|&)\s+([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?)\b/u

/**
 * Sub-questions of a multi-part question, without the question itself: separate sentences, clauses that start a new
 * question after "and"/"or"/a comma ("When did she move, and where to?"), and one question per person when it asks
 * about two ("What do Jon and Gina both like?" → about Jon, about Gina). At most `max`, in the order found.
 */
export function subQueriesOf(query: string, max = 3): string[] {
  const found: string[] = []
  const add = (text: string) => {
    const cleaned = text.replace(/\s+/g, ' ').replace(/^[\s,;:-]+|[\s,;:-]+$/g, '')
    if (contentWordCount(cleaned) >= 2 && !found.includes(cleaned) && cleaned !== query.trim())
      found.push(cleaned)
  }
  const sentences = query
    .split(/(?<=[?;!])\s*|(?<=\.)\s+(?=[A-Z])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0)
  for (const sentence of sentences) {
    const clauses = sentence.split(/\s*(?:,\s*(?:and|or)?|\s(?:and|or))\s+(?=\S)/i)
    const questionClauses: string[] = []
    for (const clause of clauses) {
      // A clause that does not start a question continues the previous one ("apples and pears").
      const last = questionClauses.length - 1
      if (last >= 0 && !questionStart.test(clause))
        questionClauses[last] = `${questionClauses[last] ?? ''} and ${clause}`
      else questionClauses.push(clause)
    }
    if (sentences.length > 1 || questionClauses.length > 1) for (const clause of questionClauses) add(clause)
  }
  const pair = namePair.exec(query)
  if (pair?.[1] && pair[2] && !questionStart.test(pair[1])) {
    for (const name of [pair[1], pair[2]]) add(query.replace(pair[0], name).replace(/\s+both\b/i, ''))
  }
  return found.slice(0, max)
}

/**
 * Entity keys a question might name: every run of one to three words that neither starts nor ends with a function
 * word. Most are not entities; the graph lookup keeps only the keys an entity of the instance has, so recall
 * costs nothing in precision.
 */
export function entityKeyCandidatesOf(query: string, max = 60): string[] {
  const tokens = query.match(/[\p{L}\p{N}][\p{L}\p{N}'’.&-]*/gu) ?? []
  const keys = new Set<string>()
  for (let start = 0; start < tokens.length; start += 1) {
    for (let length = 1; length <= 3 && start + length <= tokens.length; length += 1) {
      const words = tokens.slice(start, start + length)
      const first = wordsOf(words[0] ?? '')[0] ?? ''
      const last = wordsOf(words[words.length - 1] ?? '')[0] ?? ''
      if (isStopword(first) || isStopword(last) || questionStart.test(first)) continue
      const key = entityKey(words.join(' '))
      if (key.length >= 2) keys.add(key)
    }
  }
  return [...keys].slice(0, max)
}

/**
 * The question without the names it mentions ("What did Caroline realize after her race?" → "What did realize
 * after her race?"): what was said matters more than who said it when a memory was attributed to someone else, or
 * names the person differently, and a name dominates a short question's embedding. Null when nothing was removed or
 * too little is left.
 */
export function withoutNames(query: string): string | null {
  const stripped = query
    // Capitalized words after the first word, with their possessive; the first word is a question word or a name.
    .replace(/(?<=\S\s+)(?:[A-Z][\p{L}-]+)(?:['’]s\b|['’](?=\s))?/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (stripped === query.trim() || contentWordCount(stripped) < 2) return null
  return stripped
}
