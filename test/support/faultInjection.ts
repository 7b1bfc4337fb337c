/**
 * Faults injected into the pipeline's models for e2e tests, triggered by markers in the document text, so every
 * other document goes through the real extractor and the real embedding model.
 */
import { EmbeddingError, embedQueries, type Embedder } from '@memory-service/engines'
import { ExtractionError, type Extractor } from '@memory-service/domain'

export const faultMarkers = {
  /** The extractor is unavailable every time (transient): retried, then dead-lettered; the job fails. */
  extractionUnavailable: 'FAULT_EXTRACTION_UNAVAILABLE',
  /** The extractor answers with output that breaks the contract: not retried, dead-lettered; the job fails. */
  malformedExtraction: 'FAULT_MALFORMED_EXTRACTION',
  /** Embedding any statement carrying this marker fails (transient): that statement is lost, the rest stored. */
  embeddingUnavailable: 'FAULT_EMBEDDING_UNAVAILABLE',
} as const

export function withInjectedFaults(models: { extractor: Extractor; embedder: Embedder }): {
  extractor: Extractor
  embedder: Embedder
} {
  const { extractor, embedder } = models
  return {
    extractor: {
      name: extractor.name,
      async extract(input, signal) {
        if (input.text.includes(faultMarkers.extractionUnavailable)) {
          throw new ExtractionError(
            'EXTRACTION_UNAVAILABLE',
            'injected: extraction service unavailable',
            true,
          )
        }
        if (input.text.includes(faultMarkers.malformedExtraction)) {
          // Deliberately outside the contract: the pipeline must refuse it, not store it.
          return { statements: [{ content: '', confidence: 7 }] } as unknown as Awaited<
            ReturnType<Extractor['extract']>
          >
        }
        return extractor.extract(input, signal)
      },
    },
    embedder: {
      model: embedder.model,
      dimension: embedder.dimension,
      async embed(texts, signal) {
        if (texts.some((text) => text.includes(faultMarkers.embeddingUnavailable))) {
          throw new EmbeddingError('EMBEDDING_UNAVAILABLE', 'injected: embedding model unavailable', true)
        }
        return embedder.embed(texts, signal)
      },
      embedQueries: (texts, signal) => embedQueries(embedder, texts, signal),
      close: () => embedder.close(),
    },
  }
}
