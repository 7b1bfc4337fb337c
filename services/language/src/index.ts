export { classify, likeliest, trainSoftmax } from './classifier.js'
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
export { askedAttributeOf, defaultBars, meaningOf, readFact } from './factReading.js'
export type {
  EmbedTexts,
  FactReaderModels,
  FactReading,
  FactReadingBars,
  StatementMeaning,
  StatementToRead,
} from './factReading.js'
export { trainingSetsOf } from './trainingSets.js'
export type { Role, TrainingItem, TrainingSets } from './trainingSets.js'
export { contextOf, overlaps, valueSpansOf } from './valueSpans.js'
export type { ValueSpan } from './valueSpans.js'
export {
  generatedDirectory,
  prebuiltReaders,
  prebuiltReadersFile,
  readerTraining,
  readersHash,
  trainReader,
} from './prebuiltReaders.js'
export type { BuiltReaders } from './prebuiltReaders.js'
export { entityKey, isKnownOrganization, isWorldCity } from './names.js'
