/**
 * What each changing attribute reads like, for the embedder: short statements as memories word them (third person,
 * a placeholder name), written here to describe the attribute — not taken from any evaluation set. A statement's
 * similarity to an attribute is its cosine with the nearest of that attribute's examples (factMeaning.ts).
 *
 * The `not` examples are what a statement about a place, a company or a pet says when it states no fact of the
 * speaker's own: a trip, a plan, someone else's news. A statement nearer to them than to any attribute is left alone.
 */
import { runInSlices, runToEnd, type TimeSlicing } from '../batching/timeSlices.js'
import { extractStatements } from '../extraction/builtinExtractor.js'
import { factExampleMessages } from './factExamples.js'
import type { MeaningAttribute } from './factMeaning.js'

export const attributeExamples: Record<MeaningAttribute | 'not', readonly string[]> = {
  residence: [
    'Sam lives in Lisbon.',
    'Sam moved to a new city and is settling into the new apartment.',
    'Sam has been living in Chicago for a few months now.',
    'Sam signed the lease on a flat in Berlin.',
    'Sam has made a home in Osaka.',
    'Sam relocated with the family to Denver.',
    'Sam is getting used to the new neighbourhood after the move.',
    'Sam is based in Nairobi these days.',
  ],
  employer: [
    'Sam works at a big bank.',
    'Sam started a new job at a software company.',
    'Sam joined a startup last month.',
    "Sam's employer is the city hospital.",
    'Sam is on the engineering team at a retailer.',
    "Sam's first week at the new company went well.",
    'Sam left the old firm and now works for a consultancy.',
    'The office and the colleagues at the agency Sam works for are great.',
  ],
  occupation: [
    'Sam works as a nurse.',
    'Sam is a software engineer.',
    'Sam got promoted to senior manager.',
    "Sam's job title is data analyst.",
    'Sam became a teacher.',
    'Sam started the new role of head chef.',
  ],
  relationship: [
    'Sam got married.',
    'Sam is engaged.',
    'Sam and their partner broke up.',
    'Sam is single again.',
    'Sam has been dating someone for a year.',
    'Sam got divorced.',
  ],
  partner: [
    "Sam's girlfriend is Maya.",
    'Sam is dating Alex.',
    "Sam's husband is called Tom.",
    'Sam moved in with their boyfriend Leo.',
    "Sam's new partner is Jordan.",
  ],
  pet: [
    'Sam has a dog named Max.',
    'Sam adopted a kitten from the shelter.',
    "Sam's cat keeps scratching the sofa.",
    'Sam got a puppy.',
    'Sam takes the dog for a walk every morning.',
  ],
  school: [
    'Sam studies at the university.',
    "Sam enrolled in a master's programme at a college.",
    'Sam started classes at the new school.',
    'Sam is a student at the institute of technology.',
    'Sam transferred to another university.',
  ],
  car: [
    'Sam drives a Toyota Corolla.',
    'Sam bought a new car.',
    "Sam's car is an old hatchback.",
    'Sam traded in the sedan for an electric SUV.',
  ],
  diet: [
    'Sam is vegetarian.',
    'Sam went vegan.',
    'Sam follows a keto diet.',
    'Sam stopped eating meat.',
    'Sam eats gluten-free now.',
  ],
  phone: [
    'Sam uses an iPhone.',
    'Sam switched to an Android phone.',
    "Sam's phone is a Samsung Galaxy.",
    'Sam upgraded to a new phone.',
  ],
  sport: [
    'Sam plays tennis every week.',
    'Sam took up climbing.',
    'Sam goes running every morning.',
    'Sam joined a football team.',
    'Sam trains for triathlons.',
  ],
  not: [
    'Sam is visiting Paris for the weekend.',
    'Sam is going on a holiday to Spain next month.',
    'Sam is thinking about moving to another city.',
    "Sam's sister got a job at a big company.",
    'A friend of Sam moved abroad.',
    'Sam had a job interview but turned down the offer.',
    "Sam is looking after a neighbour's dog for a week.",
    'Sam would love to live by the sea one day.',
  ],
}

/**
 * Every example as the pipeline sees statements: the descriptions above, and the labelled chat messages of
 * factExamples.ts read by the built-in extractor — the statement that names a message's value is an example of its
 * attribute, the message's other statements of no fact.
 */
export function attributeExampleStatements(): ExampleStatement[] {
  return runToEnd(exampleStatementSteps())
}

/**
 * The same examples, read in time slices: the first document of a process reads them (a second and more of the
 * extractor's work), on the thread that also acknowledges writes and projects turns.
 */
export function attributeExampleStatementsInSlices(slicing: TimeSlicing = {}): Promise<ExampleStatement[]> {
  return runInSlices(exampleStatementSteps(), slicing)
}

type ExampleStatement = { label: MeaningAttribute | 'not'; text: string }

function* exampleStatementSteps(): Generator<void, ExampleStatement[]> {
  const examples: ExampleStatement[] = Object.entries(attributeExamples).flatMap(([label, texts]) =>
    texts.map((text) => ({ label: label as MeaningAttribute | 'not', text })),
  )
  for (const { attribute, text, value } of factExampleMessages) {
    const statements = extractStatements({
      text: `Sam: ${text}`,
      documentType: 'ai-chat-conversation',
      documentCreatedAt: '2024-01-01T12:00:00Z',
      mode: 'fast',
    })
    for (const statement of statements)
      examples.push({
        label:
          attribute !== null &&
          value !== null &&
          statement.content.toLowerCase().includes(value.toLowerCase())
            ? attribute
            : 'not',
        text: statement.content,
      })
    yield
  }
  return examples
}
