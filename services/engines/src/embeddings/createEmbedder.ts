import type { ServiceConfig } from '@memory-service/contracts'
import type { Embedder } from './embeddings.js'
import { createLocalEmbedder } from './localEmbedder.js'
import { createOpenAiEmbedder } from './openAiEmbedder.js'

/** The configured embedder; loadConfig fills modelDir (`<cache>/models`, where `stack:up` puts the weights). */
export async function createEmbedder(
  config: ServiceConfig['embeddings'],
  options: { purpose?: 'documents' | 'queries' } = {},
): Promise<Embedder> {
  switch (config.provider) {
    case 'local':
      if (config.modelDir === undefined) throw new Error('EMBEDDINGS_MODEL_DIR is not set')
      return createLocalEmbedder({
        modelDir: config.modelDir,
        model: config.model,
        dimension: config.dimension,
        // A search waits for its one short question: two threads answer it in about 60% of the time (4 against
        // 6.6 ms on this two-core machine). Documents are embedded in batches, where one thread keeps the other
        // core free for the rest of the service.
        threads: options.purpose === 'queries' ? 2 : 1,
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
