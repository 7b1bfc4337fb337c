/** Sentences chat speakers start without a subject ("Love it!", "Dyed my hair"): the "I" put back. */
import { finiteVerbs, irregularPastVerbs, isPastForm, tokensOf, type Token } from './thirdPerson.js'

/** Base verbs of feeling and thinking that chat speakers start sentences with, subject dropped ("Love it!"). */
const droppedSubjectVerbs = new Set(
  'love hope think guess need want wish feel hate miss wonder agree appreciate enjoy bet reckon plan prefer adore suppose doubt believe'.split(
    ' ',
  ),
)

/** Adjectives about oneself that open subjectless chat sentences ("Glad to hear it", "So excited!"). */
const droppedSubjectAdjectives = new Set(
  'glad happy excited thrilled stoked proud grateful thankful sad tired exhausted bored scared nervous stressed swamped busy keen ready sorry lucky blessed pumped psyched amazed curious worried relieved honored honoured'.split(
    ' ',
  ),
)

const intensifiers = new Set(
  'so super really pretty very totally just still also always never definitely honestly truly absolutely'.split(
    ' ',
  ),
)

const notDroppedSubjectPast = new Set(
  'based compared related given supposed called named located interested tired bored need indeed red bed'.split(
    ' ',
  ),
)

/** Index of the first token after the first clause break (",", " – ", ";"…), or the token count. */
function firstClauseEnd(tokens: readonly Token[], sentence: string): number {
  const breakAt = tokens.findIndex(
    (token, index) =>
      index > 0 && /[,;:–—.!?]|\s-\s/.test(sentence.slice(tokens[index - 1]?.end ?? 0, token.start)),
  )
  return breakAt < 0 ? tokens.length : breakAt
}

/** The first clause has no finite verb: "Researching adoption agencies – …" vs "Taking care of ourselves is vital". */
function firstClauseLacksVerb(tokens: readonly Token[], clauseEnd: number): boolean {
  return !tokens.slice(0, clauseEnd).some((token, index) => {
    if (finiteVerbs.has(token.lower) || /^\p{L}+'s$/u.test(token.lower)) return true
    // "…hearing the gratitude fills me with joy": an -s word before an object is the clause's verb.
    const next = index + 1 < clauseEnd ? (tokens[index + 1]?.lower ?? '') : ''
    return index > 0 && /[^su]s$/.test(token.lower) && objectStarters.has(next)
  })
}

const placesBeenTo = new Set('to there here in at away back out home'.split(' '))

const personalSubjects = new Set(
  "i i'm i've i'll i'd we we're we've we'll we'd he he's she she's they they're they've".split(' '),
)

const objectStarters = new Set('me us you him her them it my our your his their the a an so'.split(' '))

/**
 * Restores the subject chat speakers drop ("Dyed my hair last week", "Glad to be part of it", "Still working on
 * it", "Can't wait!") as first person, for `speakInThirdPerson` to name the speaker. Imperatives ("Check this
 * out") and questions are left alone: only past verbs, feeling/thinking verbs, self-describing adjectives,
 * subjectless gerund clauses and negated modals signal a dropped "I".
 */
export function restoreDroppedSubject(sentence: string): string {
  if (/\?\s*$/.test(sentence)) return sentence
  const tokens = tokensOf(sentence)
  let first = 0
  while (tokens[first] && intensifiers.has(tokens[first]?.lower ?? '') && tokens[first + 1]) first++
  const lead = tokens[0]
  const head = tokens[first]
  if (!lead || !head || !/^\p{Lu}/u.test(lead.text)) return sentence
  const word = head.lower
  const insertAt = lead.start
  const withPrefix = (prefix: string) => {
    const rest = sentence.slice(insertAt)
    return `${sentence.slice(0, insertAt)}${prefix} ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`
  }
  if (/^(?:can't|cannot|couldn't|won't|didn't|haven't|wasn't)$/.test(word)) return withPrefix('I')
  if (word === 'been') {
    let next = first + 1
    while (tokens[next] && intensifiers.has(tokens[next]?.lower ?? '')) next++
    const after = tokens[next]?.lower ?? ''
    // "Been running", "Been so busy", "Always been curious", "Been to Paris" say what the speaker did; "Been a
    // long week for me", "Been ages" what "it" was.
    if (/^[a-z]{3,}(?:ing|ed)$/.test(after) || droppedSubjectAdjectives.has(after) || placesBeenTo.has(after))
      return withPrefix("I've")
    return sentence
  }
  // "gotta" is "(I've) got to", "gonna" "(I'm) going to", "wanna" "(I) want to".
  if (word === 'gonna' || word === 'wanna' || word === 'gotta')
    return withPrefix(word === 'gonna' ? "I'm" : word === 'gotta' ? "I've" : 'I')
  if (droppedSubjectAdjectives.has(word)) return withPrefix("I'm")
  if (droppedSubjectVerbs.has(word)) return withPrefix('I')
  if (/^[a-z]{3,}ing$/.test(word)) {
    const clauseEnd = firstClauseEnd(tokens, sentence)
    // "Taking in kids in need – you're so kind" praises what the listener does, not what the speaker does.
    const remarksOnListener = tokens
      .slice(clauseEnd)
      .some((token) => /^(?:you|you're|your)$/.test(token.lower))
    // "Taking your tip, I'm repainting…": the opening phrase belongs to the subject that follows it.
    const subjectFollows = personalSubjects.has(tokens[clauseEnd]?.lower ?? '')
    if (!remarksOnListener && !subjectFollows && firstClauseLacksVerb(tokens, clauseEnd))
      return withPrefix("I'm")
  }
  const isPast =
    irregularPastVerbs.has(word) || (/^[a-z]{2,}ed$/.test(word) && !notDroppedSubjectPast.has(word))
  // A capitalized "-ed" word followed by a verb is a name ("Jared went"), not a subjectless past verb.
  const next = tokens[first + 1]?.lower ?? ''
  // "Made me think", "Took us hours": the dropped subject is "it", not the speaker.
  const followedByVerb = finiteVerbs.has(next) || isPastForm(next) || ['and', 'me', 'us'].includes(next)
  if (isPast && !followedByVerb && word !== 'did' && word !== 'was' && word !== 'were') return withPrefix('I')
  return sentence
}
