/**
 * The pipeline worker's composition root: the configured extractor and the process's embedding model, the
 * projection policy from the control plane, and the worker over the documents topic. The CLI runs it alone
 * (`memory-service start pipeline`) or beside the other services.
 */
import { sharedEmbedder, type Embedder, type ProcessRuntime } from '@memory-service/engines'
import { sharedControlPlane } from '@memory-service/log'
import { createPolicyLookup } from '@memory-service/commands'
import type { Extractor } from '@memory-service/domain'
import { createExtractor, createFactDecider } from './extractor.js'
import { startPipeline } from './startPipeline.js'

export interface PipelineServiceOptions {
  /** Wraps the pipeline's models (tests inject faults through it). */
  models?: (models: { extractor: Extractor; embedder: Embedder }) => {
    extractor: Extractor
    embedder: Embedder
  }
}

export async function startPipelineService(
  runtime: ProcessRuntime,
  options: PipelineServiceOptions = {},
): Promise<void> {
  const { config } = runtime
  const logger = runtime.logger.child({ component: 'pipeline' })
  const served = { model: config.embeddings.model, dimension: config.embeddings.dimension }
  const policyOf = createPolicyLookup(await sharedControlPlane(runtime), served)
  const models = (options.models ?? ((given) => given))({
    extractor: createExtractor(config),
    embedder: await sharedEmbedder(runtime),
  })
  const pipeline = await startPipeline(
    runtime.engines,
    {
      config,
      ...models,
      factDecider: createFactDecider(config),
      storedInVector: (instanceId, memory) => policyOf(instanceId).vector(memory),
    },
    logger,
  )
  runtime.onClose(() => pipeline.close())
}
