/**
 * The decision over a candidate reading — an attribute of the catalogue and a span of the statement — from what the
 * other readers make of it: its topic, its stance, the span's kind and its role. A softmax over these few numbers
 * says whether the span is the speaker's value of the attribute, the value it replaced, or neither. It is learned
 * like the other readers, from the labelled examples, on the readers' outputs for examples they were not trained on
 * (decisionTraining.ts), so that how much each reading counts — and where a reading is sure enough — is learned from
 * data instead of set by hand as bars on a product of probabilities.
 *
 * Two decisions share the features: `decision` reads a statement afresh (is this its speaker's current value of the
 * attribute?); `version` reads an older statement as a version of an attribute known to have changed since (did it
 * state a value of that attribute the speaker held then — current or past at the time, not someone else's, a plan
 * or a trip?).
 */
import type { Stance } from './examples.js'
import type { Role } from './trainingSets.js'

export type Decision = 'value' | 'previous' | 'none'

/** What the readers make of one candidate: an attribute and one span of the statement. */
export interface CandidateReading {
  /** The topic reader's probabilities over the catalogue and `none`. */
  topic: Readonly<Record<string, number>>
  attribute: string
  stance: Readonly<Record<Stance, number>>
  /** The kind reader's probabilities for the span. */
  kind: Readonly<Record<string, number>>
  /** The span is the likeliest of the statement's spans to be a value of the attribute. */
  likeliestSpan: boolean
  role: Readonly<Record<Role, number>>
  /** People hold several values of the attribute at once. */
  several: boolean
  words: string
}

const epsilon = 1e-4
const logOf = (probability: number) => Math.log(probability + epsilon) / 10

/** The decision's dense features of a candidate: the readers' probabilities, their logs, and a few of the span's. */
export function decisionFeatures(candidate: CandidateReading): number[] {
  const { topic, attribute, stance, kind, role } = candidate
  const topicOf = topic[attribute] ?? 0
  const highestTopic = Math.max(...Object.values(topic))
  const kindOf = kind[attribute] ?? 0
  const otherKind = Math.max(
    0,
    ...Object.entries(kind)
      .filter(([label]) => label !== attribute && label !== 'none')
      .map(([, probability]) => probability),
  )
  const current = stance.current + (candidate.several ? stance.also : 0)
  const words = candidate.words.trim().split(/\s+/).length
  return [
    topicOf,
    logOf(topicOf),
    topicOf >= highestTopic ? 1 : 0,
    topic.none ?? 0,
    stance.current,
    stance.also,
    stance.other_person,
    stance.plan,
    stance.trip,
    stance.past,
    stance.negation,
    stance.question,
    stance.hypothetical,
    logOf(current),
    kindOf,
    logOf(kindOf),
    kind.none ?? 0,
    otherKind,
    candidate.likeliestSpan ? 1 : 0,
    role.value,
    role.previous,
    role.other,
    role.other_person,
    role.plan,
    role.trip,
    role.past,
    role.negation,
    role.question,
    role.hypothetical,
    role.also,
    logOf(role.value),
    logOf(role.previous),
    candidate.several ? 1 : 0,
    Math.min(words, 4) / 4,
    /^\p{Lu}/u.test(candidate.words) ? 1 : 0,
    topicOf * kindOf,
    kindOf * role.value,
    current * kindOf,
  ]
}

/** The number of features decisionFeatures gives. */
export const decisionWidth = 38
