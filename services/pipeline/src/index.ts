export { startPipelineService, type PipelineServiceOptions } from './main.js'
export {
  startPipeline,
  PIPELINE_GROUP,
  PIPELINE_BULK_GROUP,
  type PipelineDependencies,
  type RunningPipeline,
} from './startPipeline.js'
export { createDocumentPipeline, type PipelinePorts, type DocumentOutcome } from './documentPipeline.js'
export { createExtractor } from './extractor.js'
