/**
 * The changing fact a statement states, read by models learned from labelled examples (trainingSets.ts), not by
 * phrasings. Four readers read it:
 *
 * 1. topic — which attributes of the catalogue the statement may be about (its vector, by the topic classifier);
 * 2. stance — whether it states the speaker's own current value, or someone else's, a plan, a trip, the past, a
 *    negation, a question or a joke (its vector, by the stance classifier);
 * 3. kind — which of its spans may name a value of each such attribute (the span's vector, by the kind classifier);
 * 4. role — whether a span is the value, the one it replaced, or neither, in the words around it.
 *
 * and a fifth, the decision (factDecision.ts), weighs the four for each candidate — an attribute and a span — as it
 * learned to from their outputs on examples they were not trained on. A wrong fact hides a true memory from default
 * search, a missed one only leaves an old one looking current; the decision's probability says how sure a reading is.
 */
import { classify, likeliest, type SoftmaxClassifier } from './classifier.js'
import { holdsSeveral, type Stance } from './examples.js'
import { decisionFeatures, type Decision } from './factDecision.js'
import {
  featuresOf,
  questionInput,
  roleInput,
  spanInput,
  statementInput,
  type ReaderInput,
} from './readerInputs.js'
import { roles, type Role } from './trainingSets.js'
import { valueSpansOf, type ValueSpan } from './valueSpans.js'

/** The trained readers of one embedding model. */
export interface FactReaderModels {
  topic: SoftmaxClassifier
  stance: SoftmaxClassifier<Stance>
  kind: SoftmaxClassifier
  role: SoftmaxClassifier<Role>
  question: SoftmaxClassifier
  /** A candidate reading of a statement read afresh: its speaker's current value, the one replaced, or neither. */
  decision: SoftmaxClassifier<Decision>
  /** A candidate reading of an older statement read as a version of an attribute stated since. */
  version: SoftmaxClassifier<Decision>
}

/** Embeds texts as stored texts are embedded (not as questions). */
export type EmbedTexts = (texts: string[]) => Promise<ArrayLike<number>[]>

/** The decisions' probabilities a reading must reach (they are learned: 0.5 is "more likely than not"). */
export interface FactReadingBars {
  /** The probability that the span is the speaker's value of the attribute: a reading. */
  value: number
  /**
   * The probability at which a reading replaces the attribute's value (ends the versions before it). A reading
   * below it states its value beside the others, so that a doubtful reading never hides a memory from default
   * search.
   */
  replaces: number
  /** The probability that another span is the value it replaced ("moved from Leeds"). */
  previous: number
}

/**
 * Set on the tuned part of facts-chat (docs/benchmarks.md): at 0.3 the readings of new values rose most there with
 * no trap ending an old value; lower, traps began to (0.2: 0.14 of them).
 */
export const defaultBars: FactReadingBars = { value: 0.3, replaces: 0.3, previous: 0.5 }
/**
 * An older statement read as a version: a reading is a version, whatever it would replace on its own, but only a
 * near-certain one. Set on the tuned parts: at 0.5 a replacing reading ended 29 of LoCoMo's tuned conversations'
 * small talk ("Your support is greatly appreciated." as a work team), at 0.9 one; facts-chat's tuned changes
 * superseded fell from 0.52 to 0.48 (docs/benchmarks.md).
 */
export const versionBars: FactReadingBars = { value: 0.9, replaces: 0, previous: 0.5 }

export interface FactReading {
  attribute: string
  /** The words naming the value, as the statement writes them. */
  value: string
  /** The words naming the value it replaced, when the statement names it ("moved from Leeds"). */
  previous: string | null
  /**
   * It replaces the attribute's value: sure enough (FactReadingBars.replaces), and for an attribute people hold
   * several of (pets, hobbies), only when it names the value it replaced. Otherwise it adds its value beside the
   * others ("we also got a cat").
   */
  replaces: boolean
  confidence: number
}

/** What the topic and stance readers make of a statement's vector. */
export interface StatementMeaning {
  attribute: string | null
  topic: Record<string, number>
  stance: Record<Stance, number>
}

/** The topic and stance of a statement, from its vector and its words (the speaker's name read as "i"). */
export function meaningOf(
  models: Pick<FactReaderModels, 'topic' | 'stance'>,
  statement: { content: string; speaker?: string; vector: ArrayLike<number> },
): StatementMeaning {
  const features = featuresOf(statementInput(statement.content, statement.speaker), statement.vector)
  const topic = classify(models.topic, features)
  const stance = classify(models.stance, features)
  const best = likeliest(topic)
  return { attribute: best.label === 'none' ? null : best.label, topic, stance }
}

/** How many of the likeliest topics are read for a value. */
const topicsRead = 3
/** A topic below this probability is not read for a value. */
const topicFloor = 0.05
/** How many spans, best by kind, are candidates per attribute: the role reader's input is longer to embed. */
const spansPerAttribute = 3
/** A span whose kind reads below this is no candidate. */
const kindFloor = 0.02

const noRole = Object.fromEntries(roles.map((role) => [role, role === 'other' ? 1 : 0])) as Record<
  Role,
  number
>

/** One candidate reading: an attribute, one span of the statement, and the decision's features for the two. */
export interface Candidate {
  attribute: string
  span: ValueSpan
  features: number[]
}

export interface StatementToRead {
  content: string
  /** The speaker's name: never their own value, and the subject of the fact. */
  speaker: string
  vector: ArrayLike<number>
}

/** The attributes a statement is read for: its likeliest topics. */
export function attributesToRead(meaning: StatementMeaning): string[] {
  return Object.entries(meaning.topic)
    .filter(([name, probability]) => name !== 'none' && probability >= topicFloor)
    .sort((a, b) => b[1] - a[1])
    .slice(0, topicsRead)
    .map(([name]) => name)
}

/**
 * The candidate readings of a statement for these attributes: per attribute, its spans likeliest of that kind,
 * each with its role in the words around it — the same in training (decisionTraining.ts) and in reading.
 */
export async function candidatesOf(
  models: Pick<FactReaderModels, 'kind' | 'role'>,
  statement: StatementToRead,
  meaning: StatementMeaning,
  attributes: readonly string[],
  embed: EmbedTexts,
): Promise<Candidate[]> {
  const spans = valueSpansOf(statement.content, [statement.speaker])
  if (spans.length === 0 || attributes.length === 0) return []
  const inputs = spans.map(({ text }) => spanInput(text))
  const vectors = await embed(inputs.map(({ embed: text }) => text))
  const kinds = spans.map((_, index) =>
    classify(models.kind, featuresOf(inputs[index] as ReaderInput, vectors[index] ?? [])),
  )
  const chosen = new Map<number, string[]>()
  for (const attribute of attributes) {
    const ranked = spans
      .map((_, index) => ({ index, kind: kinds[index]?.[attribute] ?? 0 }))
      .filter(({ kind }) => kind >= kindFloor)
      .sort((a, b) => b.kind - a.kind)
      .slice(0, spansPerAttribute)
    for (const { index } of ranked) chosen.set(index, [...(chosen.get(index) ?? []), attribute])
  }
  if (chosen.size === 0) return []
  const indices = [...chosen.keys()]
  const roleInputs = indices.map((index) =>
    roleInput(statement.content, spans[index] as ValueSpan, statement.speaker),
  )
  const contexts = await embed(roleInputs.map(({ embed: text }) => text))
  const roles = new Map(
    indices.map((index, at) => [
      index,
      classify(models.role, featuresOf(roleInputs[at] as ReaderInput, contexts[at] ?? [])),
    ]),
  )
  const candidates: Candidate[] = []
  for (const [index, attributesOfSpan] of chosen) {
    const span = spans[index] as ValueSpan
    const kind = kinds[index] ?? {}
    for (const attribute of attributesOfSpan) {
      const highest = Math.max(...kinds.map((of) => of[attribute] ?? 0))
      candidates.push({
        attribute,
        span,
        features: decisionFeatures({
          topic: meaning.topic,
          attribute,
          stance: meaning.stance,
          kind,
          likeliestSpan: (kind[attribute] ?? 0) >= highest,
          role: roles.get(index) ?? noRole,
          several: holdsSeveral(attribute),
          words: span.text,
        }),
      })
    }
  }
  return candidates
}

const noWords: Map<number, number> = new Map()
/** The decision's probabilities for a candidate. */
export const decide = (head: SoftmaxClassifier<Decision>, candidate: Candidate): Record<Decision, number> =>
  classify(head, { dense: candidate.features, sparse: noWords })

/**
 * The fact a statement states, or null: of its candidate readings, the one the decision finds likeliest to be its
 * speaker's value. `asVersionOf` reads an older statement as a version of an attribute stated since: only that
 * attribute is read, by the version decision (its topic need not be the likeliest, but the stance still counts —
 * "my sister lives in Leeds" is no version of anyone's residence but hers).
 */
export async function readFact(
  models: FactReaderModels,
  statement: StatementToRead,
  embed: EmbedTexts,
  options: { bars?: FactReadingBars; asVersionOf?: string } = {},
): Promise<FactReading | null> {
  const bars = options.bars ?? (options.asVersionOf ? versionBars : defaultBars)
  const meaning = meaningOf(models, statement)
  const attributes = options.asVersionOf ? [options.asVersionOf] : attributesToRead(meaning)
  const candidates = await candidatesOf(models, statement, meaning, attributes, embed)
  const head = options.asVersionOf ? models.version : models.decision
  const decided = candidates.map((candidate) => ({ candidate, decision: decide(head, candidate) }))
  let found: FactReading | null = null
  for (const attribute of attributes) {
    const ofAttribute = decided.filter(({ candidate }) => candidate.attribute === attribute)
    const value = ofAttribute.reduce<(typeof decided)[number] | null>(
      (best, next) => (!best || next.decision.value > best.decision.value ? next : best),
      null,
    )
    if (!value || value.decision.value < bars.value) continue
    if (found && found.confidence >= value.decision.value) continue
    const previous = ofAttribute
      .filter(({ candidate }) => candidate.span !== value.candidate.span)
      .reduce<(typeof decided)[number] | null>(
        (best, next) => (!best || next.decision.previous > best.decision.previous ? next : best),
        null,
      )
    const replaced =
      previous && previous.decision.previous >= bars.previous ? previous.candidate.span.text : null
    const adds =
      holdsSeveral(attribute) && (replaced === null || meaning.stance.also > meaning.stance.current)
    found = {
      attribute,
      value: value.candidate.span.text,
      previous: replaced,
      replaces: !adds && value.decision.value >= bars.replaces,
      confidence: value.decision.value,
    }
  }
  return found
}

/** The attribute a question asks for, or null (its vector embedded as a question). */
export function askedAttributeOf(
  models: FactReaderModels,
  question: string,
  questionVector: ArrayLike<number>,
  bar = 0.5,
): { attribute: string; probability: number } | null {
  const asked = likeliest(classify(models.question, featuresOf(questionInput(question), questionVector)))
  return asked.label === 'none' || asked.probability < bar
    ? null
    : { attribute: asked.label, probability: asked.probability }
}
