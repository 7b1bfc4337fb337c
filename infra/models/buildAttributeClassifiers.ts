/**
 * `npm run gen:attributes [-- model …]`: builds the attribute classifier (services/engines/src/embeddings/
 * attributeReader.ts) of each installed local embedding model, or of the ones named, and writes them into
 * attributeClassifiers.ts, so that the services start without building it. Run after changing the examples
 * (services/domain/src/memories/factPrototypes.ts, factExamples.ts): a unit test fails while a shipped classifier
 * was built for other examples.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  attributeExamplesHash,
  buildAttributeClassifier,
  createLocalEmbedder,
  defaultCacheDir,
  localEmbeddingModelNames,
} from '@memory-service/engines'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const modelDir = process.env.EMBEDDINGS_MODEL_DIR ?? join(defaultCacheDir(process.env), 'models')
const named = process.argv.slice(2)
const models = (named.length > 0 ? named : localEmbeddingModelNames).filter((model) =>
  existsSync(join(modelDir, model, 'model.onnx')),
)
if (models.length === 0) {
  console.error(`no local model installed in ${modelDir}: run npm run stack:up first`)
  process.exit(2)
}
const built = []
for (const model of models) {
  const started = Date.now()
  const embedder = await createLocalEmbedder({
    modelDir,
    model,
    dimension: 384,
    thread: 'caller',
    threads: 2,
  })
  const classifier = await buildAttributeClassifier(embedder)
  built.push({ model: embedder.model, hash: attributeExamplesHash(embedder.model), classifier })
  await embedder.close()
  console.log(`${model}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
const file = join(root, 'services/engines/src/embeddings/attributeClassifiers.ts')
writeFileSync(
  file,
  `/**
 * Attribute classifiers built ahead for the local models (\`npm run gen:attributes\` writes this file after the
 * examples change; a unit test checks each one's hash against the examples). A model or set of examples without one
 * here has its classifier built at run time (attributeReader.ts).
 */
import type { AttributeClassifier } from '@memory-service/domain'

export const prebuiltAttributeClassifiers: readonly { model: string; hash: string; classifier: AttributeClassifier }[] =
  ${JSON.stringify(built)}
`,
)
console.log(`wrote ${file}`)
