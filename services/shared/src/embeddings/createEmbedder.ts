import type { ServiceConfig } from '../contracts/generated/index.js'
import type { Embedder } from './embeddings.js'
import { createLocalEmbedder } from './localEmbedder.js'
import { createOpenAiEmbedder } from './openAiEmbedder.js'

/** The configured embedder; loadConfig fills modelDir (`<cache>/models`, where `stack:up` puts the weights). */
export async function createEmbedder(config: ServiceConfig['embeddings']): Promise<Embedder> {
  switch (config.provider) {
    case 'local':
      if (config.modelDir === undefined) throw new Error('EMBEDDINGS_MODEL_DIR is not set')
      return createLocalEmbedder({
        modelDir: config.modelDir,
        model: config.model,
        dimension: config.dimension,
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
