/**
 * A softmax classifier over features (features.ts): multinomial logistic regression, the one model every reader of
 * this package is made of (which attribute a statement is about, whether it says the speaker's own current value,
 * what kind of value a span names, what role it plays, what a question asks). Trained here, deterministically: the
 * same labelled features always give the same weights, so a shipped model can be checked against its examples by
 * hash.
 */
import type { Features } from './features.js'

/** One training example: its features and its label. */
export interface LabelledFeatures<Label extends string = string> {
  label: Label
  features: Features
}

/**
 * Labels and their weights: per label a row of `dense` weights for the dense features, `sparse` for the hashed
 * buckets, and the bias last. Stored as base64 float32, a row after another, to keep the shipped files small.
 */
export interface SoftmaxClassifier<Label extends string = string> {
  labels: Label[]
  dense: number
  sparse: number
  weights: string
}

export interface TrainingOptions {
  /** Passes over the examples. */
  epochs?: number
  /** Examples per step. */
  batchSize?: number
  learningRate?: number
  /** L2 penalty on the weights (not the bias). */
  l2?: number
  /** Weigh each label by the inverse of its count, so a frequent label does not drown the rare ones. */
  balanced?: boolean
}

/** A fixed-seed shuffle (a linear congruential generator): the same examples are always visited in the same order. */
function shuffled(count: number, seed: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index)
  let state = seed >>> 0
  for (let index = count - 1; index > 0; index--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    const other = state % (index + 1)
    const kept = order[index] as number
    order[index] = order[other] as number
    order[other] = kept
  }
  return order
}

function scoresInto(
  into: Float64Array,
  weights: Float32Array | Float64Array,
  width: number,
  dense: number,
  features: Features,
): void {
  const classes = into.length
  let highest = -Infinity
  const vector = features.dense
  for (let label = 0; label < classes; label++) {
    const row = label * width
    let sum = weights[row + width - 1] ?? 0
    for (let index = 0; index < dense; index++) sum += (weights[row + index] ?? 0) * (vector[index] ?? 0)
    for (const [bucket, value] of features.sparse) sum += (weights[row + dense + bucket] ?? 0) * value
    into[label] = sum
    if (sum > highest) highest = sum
  }
  let total = 0
  for (let label = 0; label < classes; label++) {
    const value = Math.exp((into[label] ?? 0) - highest)
    into[label] = value
    total += value
  }
  for (let label = 0; label < classes; label++) into[label] = (into[label] ?? 0) / total
}

/**
 * Trains by mini-batch gradient descent with Adam, from zero weights, visiting the examples in a fixed-seed order
 * for a fixed number of epochs: no random start and no early stop, so training is a pure function of the examples
 * and options.
 */
export function trainSoftmax<Label extends string>(
  examples: readonly LabelledFeatures<Label>[],
  sparse: number,
  options: TrainingOptions = {},
): SoftmaxClassifier<Label> {
  const steps = trainingSteps(examples, sparse, options)
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}

/**
 * The same training one batch at a time: it yields after each step, so a process that trains beside its work (a
 * model without shipped readers) can give its event loop a turn in between (runInSlices).
 */
export function* trainingSteps<Label extends string>(
  examples: readonly LabelledFeatures<Label>[],
  sparse: number,
  options: TrainingOptions = {},
): Generator<void, SoftmaxClassifier<Label>> {
  const epochs = options.epochs ?? 30
  const batchSize = options.batchSize ?? 32
  const learningRate = options.learningRate ?? 0.01
  const l2 = options.l2 ?? 1e-4
  const [beta1, beta2, epsilon] = [0.9, 0.999, 1e-8]
  const labels = [...new Set(examples.map(({ label }) => label))].sort()
  const dense = examples[0]?.features.dense.length ?? 0
  const width = dense + sparse + 1
  const classes = labels.length
  const weights = new Float64Array(classes * width)
  const moment = new Float64Array(classes * width)
  const energy = new Float64Array(classes * width)
  const gradient = new Float64Array(classes * width)
  const target = examples.map(({ label }) => labels.indexOf(label))
  const counts = labels.map((_, index) => target.filter((value) => value === index).length)
  const meanCount = examples.length / Math.max(1, classes)
  const exampleWeight = target.map((index) =>
    options.balanced === false ? 1 : meanCount / Math.max(1, counts[index] ?? 1),
  )
  const scores = new Float64Array(classes)
  // The hashed buckets a batch's examples hold: only they, the dense weights and the biases are updated (a lazy
  // Adam: a bucket no example of the batch has keeps its weight and moments), which keeps a step's cost to what the
  // batch touches instead of every bucket of every label.
  const touched = new Uint8Array(sparse)
  const buckets: number[] = []
  let step = 0
  for (let epoch = 0; epoch < epochs; epoch++) {
    const order = shuffled(examples.length, 7919 + epoch)
    for (let from = 0; from < order.length; from += batchSize) {
      const batch = order.slice(from, from + batchSize)
      for (const position of batch) {
        const { features } = examples[position] as LabelledFeatures<Label>
        for (const bucket of features.sparse.keys())
          if (touched[bucket] === 0) {
            touched[bucket] = 1
            buckets.push(bucket)
          }
        scoresInto(scores, weights, width, dense, features)
        const weight = (exampleWeight[position] ?? 0) / batch.length
        for (let label = 0; label < classes; label++) {
          const error = ((scores[label] ?? 0) - (target[position] === label ? 1 : 0)) * weight
          const row = label * width
          for (let index = 0; index < dense; index++)
            gradient[row + index] = (gradient[row + index] ?? 0) + error * (features.dense[index] ?? 0)
          for (const [bucket, value] of features.sparse)
            gradient[row + dense + bucket] = (gradient[row + dense + bucket] ?? 0) + error * value
          gradient[row + width - 1] = (gradient[row + width - 1] ?? 0) + error
        }
      }
      step += 1
      const correction1 = 1 - beta1 ** step
      const correction2 = 1 - beta2 ** step
      const update = (index: number, penalized: boolean) => {
        const g = (gradient[index] ?? 0) + (penalized ? l2 * (weights[index] ?? 0) : 0)
        gradient[index] = 0
        moment[index] = beta1 * (moment[index] ?? 0) + (1 - beta1) * g
        energy[index] = beta2 * (energy[index] ?? 0) + (1 - beta2) * g * g
        weights[index] =
          (weights[index] ?? 0) -
          (learningRate * ((moment[index] ?? 0) / correction1)) /
            (Math.sqrt((energy[index] ?? 0) / correction2) + epsilon)
      }
      for (let label = 0; label < classes; label++) {
        const row = label * width
        for (let index = 0; index < dense; index++) update(row + index, true)
        for (const bucket of buckets) update(row + dense + bucket, true)
        update(row + width - 1, false)
      }
      for (const bucket of buckets) touched[bucket] = 0
      buckets.length = 0
      yield
    }
  }
  return { labels, dense, sparse, weights: encodeWeights(Float32Array.from(weights)) }
}

function encodeWeights(weights: Float32Array): string {
  return Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength).toString('base64')
}

const decoded = new WeakMap<SoftmaxClassifier, Float32Array>()

function weightsOf(classifier: SoftmaxClassifier): Float32Array {
  let weights = decoded.get(classifier)
  if (!weights) {
    // Copied out of Buffer's pool, whose offsets need not be aligned for a Float32Array.
    weights = new Float32Array(Uint8Array.from(Buffer.from(classifier.weights, 'base64')).buffer)
    decoded.set(classifier, weights)
  }
  return weights
}

/** The probability of each label for these features. */
export function classify<Label extends string>(
  classifier: SoftmaxClassifier<Label>,
  features: Features,
): Record<Label, number> {
  const width = classifier.dense + classifier.sparse + 1
  const scores = new Float64Array(classifier.labels.length)
  scoresInto(scores, weightsOf(classifier), width, classifier.dense, features)
  return Object.fromEntries(classifier.labels.map((label, index) => [label, scores[index] ?? 0])) as Record<
    Label,
    number
  >
}

/** The likeliest label and its probability. */
export function likeliest<Label extends string>(
  probabilities: Record<Label, number>,
): {
  label: Label
  probability: number
} {
  let best: { label: Label; probability: number } | null = null
  for (const [label, probability] of Object.entries(probabilities) as [Label, number][])
    if (!best || probability > best.probability) best = { label, probability }
  if (!best) throw new Error('a classifier has at least one label')
  return best
}
