/**
 * What each reader is trained on, built from the labelled examples alone (no rule of the extractor touches them, so
 * a change of the extractor cannot change a reader):
 *
 * - topic: a message → the attribute it is about, or `none`;
 * - stance: a message about an attribute → whether it states the writer's own current value, or which case that
 *   changes nothing it is (someone else's, a plan, a trip, the past, a negation, a question, a joke, an addition);
 * - kind: a span → the attribute whose value it names, or `none` ("Glasgow" a residence, "KPMG" an employer, "the
 *   flat" nothing);
 * - role: a span in its words around → the writer's current `value`, the `previous` one it replaced, or `other`;
 * - question: a question about a person → the attribute it asks for, or `none`.
 */
import {
  labelledMessages,
  labelledQuestions,
  stances,
  type LabelledMessage,
  type LabelledQuestion,
  type Stance,
} from './examples.js'
import {
  questionInput,
  roleInput,
  spanInput,
  statementInput,
  type ReaderInput,
  type ReaderName,
} from './readerInputs.js'
import { exampleSpeakers, quotedBy, saidBy, userLabel, userRole } from './thirdPerson.js'
import { overlaps, valueSpansOf, type ValueSpan } from './valueSpans.js'

export interface TrainingItem<Label extends string = string> {
  input: ReaderInput
  label: Label
  /** Who wrote the example: readers are checked on writers they were not trained on. */
  writer: string
}

/**
 * What a span is in the words around it: the speaker's current `value`, the `previous` one it replaced, a value in
 * one of the stances that change nothing (someone else's, planned, on a trip, past, denied, asked, joked, added
 * beside others), or `other` words. A sentence's vector blurs a long message; the words around the span say
 * whose and when ("my cousin got the job at Safaricom", "sent my application to Google").
 */
export type Role = 'value' | 'previous' | 'other' | Exclude<Stance, 'current'>
export const roles: readonly Role[] = [
  'value',
  'previous',
  'other',
  ...stances.filter((stance): stance is Exclude<Stance, 'current'> => stance !== 'current'),
]

/** Spans that are no value, per message: enough to learn what is not one without outnumbering what is. */
const otherSpansPerMessage = 5
/** Spans that cut a value short or run past it ("University of Cape", "Dude the Specialized Allez"), per value. */
const partSpansPerValue = 2

export type TrainingSets = { [Reader in ReaderName]: TrainingItem<Reader extends 'role' ? Role : string>[] }

function spanOf(text: string, words: string | null): ValueSpan | null {
  if (words === null) return null
  const start = text.indexOf(words)
  return start < 0 ? null : { text: words, start, end: start + words.length }
}

/** Spans that overlap a labelled value without being it: a value is read whole, or not at all. */
function partSpans(text: string, value: ValueSpan | null): ValueSpan[] {
  if (!value) return []
  return valueSpansOf(text)
    .filter((span) => overlaps(span, value) && (span.start !== value.start || span.end !== value.end))
    .slice(0, partSpansPerValue)
}

/** Spans of a message that are neither its value nor the one replaced, the first few (deterministic). */
function otherSpans(text: string, labelled: (ValueSpan | null)[]): ValueSpan[] {
  return valueSpansOf(text)
    .filter((span) => !labelled.some((words) => words !== null && overlaps(span, words)))
    .slice(0, otherSpansPerMessage)
}

export function trainingSetsOf(
  messages: readonly LabelledMessage[] = labelledMessages(),
  questions: readonly LabelledQuestion[] = labelledQuestions(),
): TrainingSets {
  const steps = trainingSetSteps(messages, questions)
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}

/** The same, a message at a time (seconds of part-of-speech tagging in all): it yields after each. */
export function* trainingSetSteps(
  messages: readonly LabelledMessage[] = labelledMessages(),
  questions: readonly LabelledQuestion[] = labelledQuestions(),
): Generator<void, TrainingSets> {
  const sets: TrainingSets = { topic: [], stance: [], kind: [], role: [], question: [] }
  for (const [index, message] of messages.entries()) {
    const { text, attribute, stance, writer } = message
    // As written, and as memories word it: the writer by a name (one of several in turn) and as the user.
    const speaker = exampleSpeakers[index % exampleSpeakers.length] as string
    const told = saidBy(text, speaker)
    const asUser = saidBy(text, userRole)
    // Kept in their own words after a name or the user's label, every other message each.
    const quoter = index % 2 === 0 ? speaker : userLabel
    const quoted = quotedBy(text, quoter)
    for (const [words, by] of [
      [text, undefined],
      [told, speaker],
      [asUser, userRole],
      [quoted, quoter],
    ] as const) {
      sets.topic.push({ input: statementInput(words, by), label: attribute ?? 'none', writer })
      if (attribute !== null && stance !== 'none')
        sets.stance.push({ input: statementInput(words, by), label: stance, writer })
    }
    const value = spanOf(text, message.value)
    const previous = spanOf(text, message.previous)
    for (const span of [value, previous])
      if (span && attribute !== null)
        sets.kind.push({ input: spanInput(span.text), label: attribute, writer })
    const others = otherSpans(text, [value, previous])
    const parts = [...partSpans(text, value), ...partSpans(text, previous)]
    for (const span of [...others, ...parts])
      sets.kind.push({ input: spanInput(span.text), label: 'none', writer })
    if (attribute !== null && stance !== 'none' && value) {
      const roles: [ValueSpan, Role][] = [
        [value, stance === 'current' ? 'value' : stance],
        ...(previous && stance === 'current' ? [[previous, 'previous'] as [ValueSpan, Role]] : []),
        ...[...others, ...parts].map((span): [ValueSpan, Role] => [span, 'other']),
      ]
      for (const [span, role] of roles) {
        sets.role.push({ input: roleInput(text, span), label: role, writer })
        // The same span in the message as a memory words it, found again after the rewrite.
        const at = told.indexOf(span.text, Math.max(0, span.start - 40))
        if (at >= 0)
          sets.role.push({
            input: roleInput(told, { text: span.text, start: at, end: at + span.text.length }, speaker),
            label: role,
            writer,
          })
        const shift = quoted.length - text.length
        sets.role.push({
          input: roleInput(
            quoted,
            { text: span.text, start: span.start + shift, end: span.end + shift },
            quoter,
          ),
          label: role,
          writer,
        })
      }
    }
    yield
  }
  for (const { text, attribute, writer } of questions)
    sets.question.push({ input: questionInput(text), label: attribute ?? 'none', writer })
  return sets
}
