export { classify, likeliest, trainingSteps, trainSoftmax } from './classifier.js'
export type { LabelledFeatures, SoftmaxClassifier, TrainingOptions } from './classifier.js'
export {
  featuresOf,
  questionInput,
  roleInput,
  spanInput,
  statementInput,
  sparseWidth,
} from './readerInputs.js'
export type { ReaderInput, ReaderName } from './readerInputs.js'
export {
  attributeCatalogue,
  attributeNames,
  holdsSeveral,
  isAttributeName,
  labelledMessages,
  labelledQuestions,
  stances,
} from './examples.js'
export type { AttributeDefinition, LabelledMessage, LabelledQuestion, Stance } from './examples.js'
export {
  askedAttributeOf,
  attributesToRead,
  candidatesOf,
  decide,
  defaultBars,
  meaningOf,
  readFact,
  versionBars,
} from './factReading.js'
export type { Candidate } from './factReading.js'
export { decisionFeatures, decisionWidth } from './factDecision.js'
export type { CandidateReading, Decision } from './factDecision.js'
export {
  decisionExamplesOf,
  decisionFolds,
  decisionMessagesOf,
  foldOf,
  setsOutside,
} from './decisionTraining.js'
export type { DecisionMessage, DecisionSets } from './decisionTraining.js'
export type {
  EmbedTexts,
  FactReaderModels,
  FactReading,
  FactReadingBars,
  StatementMeaning,
  StatementToRead,
} from './factReading.js'
export { roles, trainingSetsOf, trainingSetSteps } from './trainingSets.js'
export type { Role, TrainingItem, TrainingSets } from './trainingSets.js'
export { commonNounsOf, contextOf, overlaps, valueSpansOf } from './valueSpans.js'
export type { ValueSpan } from './valueSpans.js'
export {
  generatedDirectory,
  decisionTraining,
  prebuiltReaders,
  readersVersion,
  prebuiltReadersFile,
  readerTraining,
  builtReadersOf,
  readersHash,
  trainingSetsHash,
  trainReader,
} from './prebuiltReaders.js'
export type { BuiltReaders } from './prebuiltReaders.js'
export { entityKey, isKnownOrganization, isWorldCity } from './names.js'
