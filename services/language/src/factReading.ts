/**
 * The changing fact a statement states, read by models learned from labelled examples (trainingSets.ts), not by
 * phrasings. Four readings must agree:
 *
 * 1. topic — the statement is about an attribute of the catalogue (its vector, by the topic classifier);
 * 2. stance — it states the speaker's own current value, not someone else's, a plan, a trip, the past, a negation,
 *    a question or a joke (its vector, by the stance classifier);
 * 3. kind — one of its spans names a value of that attribute (the span's vector, by the kind classifier);
 * 4. role — that span is the current value in the words around it, not the one replaced (the role classifier).
 *
 * A wrong fact hides a true memory from default search, a missed one only leaves an old one looking current: each
 * reading has a bar, and the bars are set on the tuned part of the development sets (docs/benchmarks.md).
 */
import { classify, likeliest, type SoftmaxClassifier } from './classifier.js'
import { holdsSeveral, type Stance } from './examples.js'
import { featuresOf, questionInput, roleInput, spanInput, statementInput } from './readerInputs.js'
import type { Role } from './trainingSets.js'
import { valueSpansOf, type ValueSpan } from './valueSpans.js'

/** The trained readers of one embedding model. */
export interface FactReaderModels {
  topic: SoftmaxClassifier
  stance: SoftmaxClassifier<Stance>
  kind: SoftmaxClassifier
  role: SoftmaxClassifier<Role>
  question: SoftmaxClassifier
}

/** Embeds texts as stored texts are embedded (not as questions). */
export type EmbedTexts = (texts: string[]) => Promise<ArrayLike<number>[]>

export interface FactReadingBars {
  /** The topic's probability at least, and above `none`'s. */
  topic: number
  /** The probability that the statement tells the speaker's own current value (or adds one). */
  current: number
  /** kind × role of the value span. */
  value: number
  /** kind × role of the span read as the value replaced. */
  previous: number
}

export const defaultBars: FactReadingBars = { topic: 0.35, current: 0.4, value: 0.15, previous: 0.3 }
/**
 * The bars an older statement of the same speaker must pass to be read as a version of an attribute a newer one
 * states: lower, since the attribute is known and the statement is among the nearest in meaning to the new one.
 */
export const versionBars: FactReadingBars = JSON.parse(
  process.env.VERSION_BARS ?? '{"topic":0,"current":0.25,"value":0.08,"previous":0.3}',
) as FactReadingBars

export interface FactReading {
  attribute: string
  /** The words naming the value, as the statement writes them. */
  value: string
  /** The words naming the value it replaced, when the statement names it ("moved from Leeds"). */
  previous: string | null
  /** It adds a value of an attribute people hold several of ("we also got a cat"): it replaces nothing. */
  adds: boolean
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
  models: FactReaderModels,
  statement: { content: string; speaker?: string; vector: ArrayLike<number> },
): StatementMeaning {
  const features = featuresOf(statementInput(statement.content, statement.speaker), statement.vector)
  const topic = classify(models.topic, features)
  const stance = classify(models.stance, features)
  const best = likeliest(topic)
  return { attribute: best.label === 'none' ? null : best.label, topic, stance }
}

interface ScoredSpan {
  span: ValueSpan
  kind: number
  role: Record<Role, number>
}

/** How many of the likeliest topics are read for a value. */
const topicsRead = 3
/** A topic is read for a value when its probability is at least this share of the topic bar. */
const topicShare = 0.3
/** How many spans, best by kind, are read for their role: the role reader's input is longer to embed. */
const roleCandidates = 3
/** A span whose kind reads below this is not the attribute's value, whatever its role. */
const kindFloor = 0.05

/** The spans of a statement scored as values of an attribute: kind first, the best few for their role. */
async function scoredSpans(
  models: FactReaderModels,
  content: string,
  attribute: string,
  excluded: readonly string[],
  embed: EmbedTexts,
): Promise<ScoredSpan[]> {
  const spans = valueSpansOf(content, excluded)
  if (spans.length === 0) return []
  const inputs = spans.map(({ text }) => spanInput(text))
  const kinds = await embed(inputs.map(({ embed: text }) => text))
  const byKind = spans
    .map((span, index) => ({
      span,
      kind:
        classify(models.kind, featuresOf(inputs[index] as ReturnType<typeof spanInput>, kinds[index] ?? []))[
          attribute
        ] ?? 0,
    }))
    .filter(({ kind }) => kind >= kindFloor)
    .sort((a, b) => b.kind - a.kind)
    .slice(0, roleCandidates)
  if (byKind.length === 0) return []
  const roles = byKind.map(({ span }) => roleInput(content, span, excluded[0]))
  const contexts = await embed(roles.map(({ embed: text }) => text))
  return byKind.map(({ span, kind }, index) => ({
    span,
    kind,
    role: classify(
      models.role,
      featuresOf(roles[index] as ReturnType<typeof roleInput>, contexts[index] ?? []),
    ),
  }))
}

function best(
  spans: ScoredSpan[],
  role: Role,
  except?: ValueSpan,
): { span: ValueSpan; score: number } | null {
  let found: { span: ValueSpan; score: number } | null = null
  for (const { span, kind, role: roles } of spans) {
    if (except && span.start === except.start && span.end === except.end) continue
    const score = kind * roles[role]
    if (!found || score > found.score) found = { span, score }
  }
  return found
}

export interface StatementToRead {
  content: string
  /** The speaker's name: never their own value, and the subject of the fact. */
  speaker: string
  vector: ArrayLike<number>
}

/**
 * The fact a statement states, or null. `asVersionOf` reads an older statement as a version of an attribute stated
 * since: its topic need not be the likeliest, only its value of that attribute is read (the stance still counts —
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
  // The likeliest topics, each read for its value: the attribute is the one whose reading is surest, so "lives in
  // Manchester" is a residence even where the topic reader leans to the neighbourhood.
  const attributes = options.asVersionOf
    ? [options.asVersionOf]
    : Object.entries(meaning.topic)
        .filter(([name, probability]) => name !== 'none' && probability >= bars.topic * topicShare)
        .sort((a, b) => b[1] - a[1])
        .slice(0, topicsRead)
        .map(([name]) => name)
  let found: FactReading | null = null
  for (const attribute of attributes) {
    const topic = meaning.topic[attribute] ?? 0
    const current = meaning.stance.current + (holdsSeveral(attribute) ? meaning.stance.also : 0)
    // A past statement is a version too: "I lived in Leeds" ended, so it can be the older one.
    const stated = options.asVersionOf ? current + meaning.stance.past : current
    if (stated < bars.current) continue
    const spans = await scoredSpans(models, statement.content, attribute, [statement.speaker], embed)
    const value = best(spans, 'value')
    if (!value || value.score < bars.value) continue
    const confidence = topic * stated * value.score
    if (!options.asVersionOf && topic * value.score < bars.topic * bars.value) continue
    if (found && found.confidence >= confidence) continue
    const previous = best(spans, 'previous', value.span)
    found = {
      attribute,
      value: value.span.text,
      previous: previous && previous.score >= bars.previous ? previous.span.text : null,
      adds: holdsSeveral(attribute) && meaning.stance.also > meaning.stance.current,
      confidence,
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
