/**
 * What the decision (factDecision.ts) is trained on: the candidate readings of each labelled message, as a memory
 * words it, by readers that were not trained on that message's writer. The examples' writers are split into two
 * folds; readers trained on one fold read the other's messages, so the decision learns how far the readers are to
 * be trusted on words they have not seen — as they are on every statement the service reads.
 *
 * A candidate is labelled by the message: its span is the `value` when the message states that value of that
 * attribute as the writer's own (the decision), or as theirs then (the version: current or past); `previous` when it
 * is the value the message says was replaced; otherwise `none` (another attribute, another span, someone else's
 * value, a plan, a trip, a negation, a question, a joke).
 */
import type { LabelledFeatures } from './classifier.js'
import { labelledMessages, type LabelledMessage, type Stance } from './examples.js'
import type { Decision } from './factDecision.js'
import {
  attributesToRead,
  candidatesOf,
  meaningOf,
  type EmbedTexts,
  type FactReaderModels,
} from './factReading.js'
import { exampleSpeakers, quotedBy, saidBy, userLabel, userRole } from './thirdPerson.js'
import type { TrainingItem, TrainingSets } from './trainingSets.js'
import type { ValueSpan } from './valueSpans.js'

/** A labelled message as a memory words it (the writer named), with where its value and the replaced one are. */
export interface DecisionMessage {
  content: string
  speaker: string
  attribute: string | null
  stance: Stance | 'none'
  value: ValueSpan | null
  previous: ValueSpan | null
  writer: string
}

export interface DecisionSets {
  decision: LabelledFeatures<Decision>[]
  version: LabelledFeatures<Decision>[]
}

/** Folds the writers are split into. */
export const decisionFolds = 2

/** The fold of a writer: writers in a fixed order, every other one. */
export function foldOf(writer: string, writers: readonly string[]): number {
  return Math.max(0, [...writers].sort().indexOf(writer)) % decisionFolds
}

function spanIn(text: string, words: string | null): ValueSpan | null {
  if (words === null) return null
  const start = text.indexOf(words)
  return start < 0 ? null : { text: words, start, end: start + words.length }
}

/**
 * The labelled messages as memories word them, in turn: by one of the example speakers' names, as the user's, and
 * kept in their own words after a name or the user's label.
 */
export function decisionMessagesOf(
  messages: readonly LabelledMessage[] = labelledMessages(),
): DecisionMessage[] {
  return messages.map(({ text, attribute, value, previous, stance, writer }, index) => {
    const name = exampleSpeakers[index % exampleSpeakers.length] as string
    const form = index % 4
    // The user's statements carry the label as their speaker, whether reworded ("The user…") or quoted.
    const speaker = form === 1 || form === 3 ? userLabel : name
    const content =
      form === 0 ? saidBy(text, name) : form === 1 ? saidBy(text, userRole) : quotedBy(text, speaker)
    return {
      content,
      speaker,
      attribute,
      stance,
      value: spanIn(content, value),
      previous: spanIn(content, previous),
      writer,
    }
  })
}

/** The training items of the writers outside a fold. */
export function setsOutside(sets: TrainingSets, fold: number, writers: readonly string[]): TrainingSets {
  const outside = <Label extends string>(items: TrainingItem<Label>[]) =>
    items.filter(({ writer }) => foldOf(writer, writers) !== fold)
  return {
    topic: outside(sets.topic),
    stance: outside(sets.stance),
    kind: outside(sets.kind),
    role: outside(sets.role),
    question: outside(sets.question),
  }
}

const same = (a: ValueSpan | null, b: ValueSpan) => a !== null && a.start === b.start && a.end === b.end

/** The decision's and the version's labelled candidates of one message, read by readers that never saw it. */
export async function decisionExamplesOf(
  models: Pick<FactReaderModels, 'topic' | 'stance' | 'kind' | 'role'>,
  message: DecisionMessage,
  embed: EmbedTexts,
): Promise<DecisionSets> {
  const [vector] = await embed([message.content])
  const statement = { content: message.content, speaker: message.speaker, vector: vector ?? [] }
  const meaning = meaningOf(models, statement)
  const ownNow = message.stance === 'current' || message.stance === 'also'
  const ownThen = ownNow || message.stance === 'past'
  const labelOf = (attribute: string, span: ValueSpan, own: boolean): Decision => {
    if (attribute !== message.attribute) return 'none'
    if (own && same(message.value, span)) return 'value'
    if (message.stance === 'current' && same(message.previous, span)) return 'previous'
    return 'none'
  }
  const fresh = await candidatesOf(models, statement, meaning, attributesToRead(meaning), embed)
  const asVersion =
    message.attribute === null
      ? []
      : await candidatesOf(models, statement, meaning, [message.attribute], embed)
  return {
    decision: fresh.map(({ attribute, span, features }) => ({
      label: labelOf(attribute, span, ownNow),
      features: { dense: features, sparse: new Map() },
    })),
    version: asVersion.map(({ attribute, span, features }) => ({
      label: labelOf(attribute, span, ownThen),
      features: { dense: features, sparse: new Map() },
    })),
  }
}
