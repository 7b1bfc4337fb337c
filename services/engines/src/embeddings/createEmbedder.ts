import type { ServiceConfig } from '@memory-service/contracts'
import type { Embedder } from './embeddings.js'
import { createLocalEmbedder } from './localEmbedder.js'
import type { ModelPriority } from './modelSession.js'
import { createOpenAiEmbedder } from './openAiEmbedder.js'

/**
 * The configured embedder; loadConfig fills modelDir (`<cache>/models`, where `stack:up` puts the weights). The local
 * model runs on a worker thread (see LocalEmbedderOptions.thread) with one onnxruntime thread: a second one answers a lone question faster on an idle machine (4.3 against 6 ms),
 * but while Elasticsearch and Node share the two cores its spinning slows everything after it — bench:search
 * (100 000 memories, same machine, back to back) gave accurate p50 / p95 36.7 / 67.2 ms with one thread against
 * 46.7 / 91.0 with two, and at eight clients 38 against 27 requests/s.
 */
export async function createEmbedder(
  config: ServiceConfig['embeddings'],
  /** The local model's CPU priority (LocalEmbedderOptions.priority); a remote provider has none here. */
  options: { priority?: ModelPriority } = {},
): Promise<Embedder> {
  switch (config.provider) {
    case 'local':
      if (config.modelDir === undefined) throw new Error('EMBEDDINGS_MODEL_DIR is not set')
      return createLocalEmbedder({
        modelDir: config.modelDir,
        model: config.model,
        dimension: config.dimension,
        threads: 1,
        ...(options.priority ? { priority: options.priority } : {}),
      })
    case 'openai':
      if (config.baseUrl === undefined) {
        throw new Error('EMBEDDINGS_BASE_URL is required when EMBEDDINGS_PROVIDER is openai')
      }
      return createOpenAiEmbedder({
        baseUrl: config.baseUrl,
        model: config.model,
        apiKey: config.apiKey,
        dimension: config.dimension,
      })
  }
}
