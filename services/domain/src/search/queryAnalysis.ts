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

// How an answer should look, said in the question: not what it is about. "Mention ONLY and ONLY five items.",
// "Answer in two sentences." — a whole sentence of instructions.
const answerFormSentence =
  /(?:^|(?<=[.?!]\s*))\s*(?:please\s+)?(?:mention|list|name|give|include|answer|respond|reply|keep|limit|use)\b[^.?!]*?\b(?:items?|points?|things?|words?|sentences?|bullets?|examples?|steps?)\b[^.?!]*[.?!]?/giu

// The request around the topic: "Can you walk me through", "give me a comprehensive summary of how".
const requestOpening =
  /^\s*(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:list|walk\s+me\s+through|tell\s+me|remind\s+me\s+of|give\s+me|provide(?:\s+me\s+with)?|show\s+me|outline|recap|summari[sz]e|describe)\b\s*/iu
const summaryOf =
  /\b(?:a|an)\s+(?:(?:clear|brief|short|quick|comprehensive|complete|full|detailed|overall|concise)\s+)*(?:summary|overview|recap|timeline|rundown)\s+of\b\s*/giu
// "the order in which I brought up", "in order": the answer is a sequence, the topic is what follows.
const orderOfMentions =
  /\b(?:(?:in\s+)?(?:the\s+)?(?:chronological\s+)?order\s+in\s+which|in\s+(?:chronological\s+)?order\s+how)\s+I\s+(?:first\s+)?(?:brought\s+up|mentioned|discussed|raised|asked\s+about|talked\s+about|worked\s+on|covered)\b\s*/giu
const inOrder = /,?\s*\bin\s+(?:chronological\s+)?order\b(?=\s*[,.?!]|\s*$)/giu
const overConversations =
  /,?\s*\b(?:throughout|across|over|during|in)\s+(?:all\s+)?(?:of\s+)?(?:our|my|the|these)\s+(?:previous\s+|past\s+|earlier\s+|different\s+|many\s+)?(?:conversations?|discussions?|chats?|sessions?|talks?|exchanges?|messages?|requests?)\b/giu
const overTime =
  /,?\s*\b(?:over\s+time|over\s+the\s+(?:past|last)\s+(?:few\s+|several\s+|couple\s+of\s+)?(?:days|weeks|months|years))\b/giu
const untilNow = /,?\s*\b(?:so\s+far|along\s+the\s+way)\b/giu
// "across my weather app conversations", "across my questions": a history named with its topic, which stays.
const acrossNamedConversations =
  /\b(?:throughout|across)\s+(?:all\s+)?(?:of\s+)?(?:(?:our|my|the|these)\s+)?(?:[\p{L}-]+\s+){0,3}(?:conversations?|discussions?|chats?|sessions?|requests?|questions?|messages?)\b/giu
// "different aspects of", "different concepts related to": the items the answer lists, not their topic.
const itemsOf =
  /\b(?:the\s+)?(?:different|various|main|key)\s+(?:[\p{L}-]+\s+)?(?:aspects|concepts|ways|areas|parts|topics|things|steps|stages|points)\s+(?:of|related\s+to|about|in|that)\s+/giu

/**
 * The topic of a question that also says how to answer it ("Can you list the order in which I brought up different
 * aspects of my budget tracker throughout our conversations? Mention ONLY and ONLY three items." → "my budget
 * tracker"). Words about the answer's form match every message of a conversation alike, so they only blur what
 * the question is about. The question itself when nothing was removed or nothing is left.
 */
export function topicOf(query: string): string {
  const topic = query
    .replace(answerFormSentence, ' ')
    .replace(requestOpening, '')
    .replace(orderOfMentions, '')
    .replace(summaryOf, '')
    .replace(itemsOf, '')
    .replace(overConversations, '')
    .replace(overTime, '')
    .replace(untilNow, '')
    .replace(inOrder, '')
    .replace(/\s+([,.?!])/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:-]+|[\s,;:-]+$/g, '')
    .trim()
  const asked = query.replace(/\s+/g, ' ').trim()
  return topic !== asked && contentWordCount(topic) >= 1 ? topic : query.trim()
}

/**
 * A question about a whole history rather than one statement: the order things came up in, a summary of how
 * something went, something counted or compared across sessions. Its answer draws on many messages, each of which
 * says a little.
 */
export function asksAcrossConversations(query: string): boolean {
  return [
    orderOfMentions,
    summaryOf,
    acrossNamedConversations,
    overTime,
    /\bsummari[sz]e\b/giu,
    /\bhow\s+(?:many\s+times|often)\s+(?:did|have)\s+I\b/giu,
  ].some((pattern) => {
    pattern.lastIndex = 0
    return pattern.test(query)
  })
}

/**
 * A question about what the asker themself said ("the order in which I brought up…", "how many times did I mention…",
 * "what did I say I was using…"): the user's own turns hold the answer, not the replies to them.
 */
export function asksWhatTheySaid(query: string): boolean {
  return /\bI\s+(?:first\s+)?(?:brought\s+up|bring\s+up|mentioned|mention|raised|told\s+you|said|say|reported|talked\s+about)\b/iu.test(
    query,
  )
}

/**
 * A question about what the assistant said before ("How did you recommend structuring my week?", "your earlier
 * advice"): the replies hold the answer, so they are not weighed down as a first-person question's are. "What would
 * you suggest?" asks for new advice, not about the old.
 */
export function asksWhatTheAssistantSaid(query: string): boolean {
  return /\b(?:did|had)\s+you\s+(?:\w+\s+)?(?:recommend|suggest|say|tell|advise|propose|mention|explain|describe|outline)\b|\byou\s+(?:recommended|suggested|said|told|advised|proposed|mentioned|explained|described|outlined)\b|\byour\s+(?:earlier\s+|previous\s+|last\s+)?(?:advice|suggestions?|recommendations?|explanation)\b/iu.test(
    query,
  )
}
