/**
 * What each reader reads, the same in training and in reading: the text its sentence vector is embedded from, and
 * its hashed features (features.ts). One definition for both, so a reader is never trained on other inputs than it
 * meets.
 */
import {
  characterFeatures,
  hashedCharacters,
  hashedWords,
  joined,
  roleWordFeatures,
  spanFlagFeatures,
  spanFlags,
  wordFeatures,
  type Features,
  type SparseFeatures,
} from './features.js'
import { contextOf, type ValueSpan } from './valueSpans.js'

export type ReaderName = 'topic' | 'stance' | 'kind' | 'role' | 'question'

/** What a reader is given: the text it embeds, and its sparse features. */
export interface ReaderInput {
  embed: string
  sparse: SparseFeatures
}

/** Sparse buckets of each reader. */
export const sparseWidth: Record<ReaderName, number> = {
  topic: hashedWords,
  stance: hashedWords,
  kind: hashedCharacters + hashedWords + spanFlags,
  role: hashedWords,
  question: hashedWords,
}

/** A statement, for the topic and stance readers: its words with the speaker read as "i". */
export const statementInput = (text: string, speaker?: string): ReaderInput => ({
  embed: text,
  sparse: wordFeatures(text, speaker),
})

/**
 * A span, for the kind reader: its characters and words ("Dr. Lindqvist", "Basic-Fit", "iPhone 15"), and whether the
 * gazetteers know it as a city or an organization.
 */
export const spanInput = (span: string): ReaderInput => ({
  embed: span,
  sparse: joined(
    characterFeatures(span),
    wordFeatures(span, undefined, hashedCharacters),
    spanFlagFeatures(span, hashedCharacters + hashedWords),
  ),
})

/** A span in its statement, for the role reader: the words around it, and what they mean together. */
export const roleInput = (text: string, span: ValueSpan, speaker?: string): ReaderInput => ({
  embed: contextOf(text, span),
  sparse: roleWordFeatures(text, span, speaker),
})

/** A question, for the question reader. */
export const questionInput = (question: string): ReaderInput => ({
  embed: question,
  sparse: wordFeatures(question),
})

/** The features of an input, with its text's vector. */
export const featuresOf = (input: ReaderInput, vector: ArrayLike<number>): Features => ({
  dense: vector,
  sparse: input.sparse,
})
