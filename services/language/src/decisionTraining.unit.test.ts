import { describe, expect, it } from 'vitest'
import { trainSoftmax } from './classifier.js'
import { decisionExamplesOf, decisionMessagesOf, foldOf, setsOutside } from './decisionTraining.js'
import type { LabelledMessage } from './examples.js'
import { decisionWidth } from './factDecision.js'
import type { FactReaderModels } from './factReading.js'
import { featuresOf, sparseWidth, type ReaderName } from './readerInputs.js'
import { trainingSetsOf, type TrainingItem } from './trainingSets.js'

const message = (
  text: string,
  attribute: string | null,
  value: string | null,
  stance: LabelledMessage['stance'],
  writer: string,
  previous: string | null = null,
): LabelledMessage => ({ text, attribute, value, previous, stance, writer })

const messages: LabelledMessage[] = [
  message(
    'we moved to Leeds from Bristol in May and I love it',
    'residence',
    'Leeds',
    'current',
    'a',
    'Bristol',
  ),
  message('the trams in Porto are always late, I take them every day', 'residence', 'Porto', 'current', 'a'),
  message('my sister just moved to Lisbon for work', 'residence', 'Lisbon', 'other_person', 'b'),
  message('thinking of moving to Berlin next year', 'residence', 'Berlin', 'plan', 'b'),
  message('first week at Monzo done, the team is lovely', 'employer', 'Monzo', 'current', 'a'),
  message('I applied to Deloitte last night, fingers crossed', 'employer', 'Deloitte', 'plan', 'b'),
  message('haha no way', null, null, 'none', 'c'),
]

/** Readers trained on these few messages' words alone (every vector is the same): enough to rank their spans. */
function readersOf(examples: LabelledMessage[]) {
  const sets = trainingSetsOf(examples, [])
  const trained = <Label extends string>(name: ReaderName, items: TrainingItem<Label>[]) =>
    trainSoftmax(
      items.map(({ input, label }) => ({ label, features: featuresOf(input, [0]) })),
      sparseWidth[name],
      { epochs: 60 },
    )
  return {
    topic: trained('topic', sets.topic),
    stance: trained('stance', sets.stance) as FactReaderModels['stance'],
    kind: trained('kind', sets.kind),
    role: trained('role', sets.role),
  }
}
const sameVector = (texts: string[]) => Promise.resolve(texts.map(() => [0]))

describe("the decision's training", () => {
  it('words each message as memories do, in turn, and finds its value and the replaced one again', () => {
    const worded = decisionMessagesOf(messages)
    expect(worded.slice(0, 4).map(({ content, speaker }) => [speaker, content])).toEqual([
      ['Nadia', 'we moved to Leeds from Bristol in May and Nadia love it'],
      ['User', 'the trams in Porto are always late, the user take them every day'],
      ['Chen', 'Chen said: my sister just moved to Lisbon for work'],
      ['User', 'User said: thinking of moving to Berlin next year'],
    ])
    for (const { content, value, previous } of worded) {
      if (value) expect(content.slice(value.start, value.end)).toBe(value.text)
      if (previous) expect(content.slice(previous.start, previous.end)).toBe(previous.text)
    }
    expect(worded[0]?.previous?.text).toBe('Bristol')
  })

  it("splits the writers into two folds, and a fold's readers are trained on the other fold only", () => {
    const writers = ['a', 'b', 'c']
    expect(writers.map((writer) => foldOf(writer, writers))).toEqual([0, 1, 0])
    const sets = trainingSetsOf(messages, [])
    const outside = setsOutside(sets, 0, writers)
    expect(outside.topic.length).toBeGreaterThan(0)
    expect(outside.topic.every(({ writer }) => writer === 'b')).toBe(true)
  })

  it("labels a candidate the value only when the message states it as the writer's own, and names the replaced one", async () => {
    const readers = readersOf(messages)
    const [moved, , sister, planned] = decisionMessagesOf(messages)
    const labelsOf = async (worded: typeof moved, head: 'decision' | 'version') => {
      const examples = (await decisionExamplesOf(readers, worded as NonNullable<typeof moved>, sameVector))[
        head
      ]
      expect(examples.every(({ features }) => features.dense.length === decisionWidth)).toBe(true)
      return examples.map(({ label }) => label)
    }
    const ownMove = await labelsOf(moved, 'version')
    expect(ownMove).toContain('value')
    expect(ownMove).toContain('previous')
    // Someone else's move and a plan: the same kind of words, never the writer's value.
    expect(await labelsOf(sister, 'version')).not.toContain('value')
    expect(await labelsOf(planned, 'version')).not.toContain('value')
  })
})
