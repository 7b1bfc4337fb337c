/**
 * `npm run gen:fact-readers [-- model …]`: trains the fact readers (services/language) of each installed local
 * embedding model, or of the ones named, and writes them into services/language/generated/, so that the services
 * start without training them. Run after changing the examples (services/language/data/examples) or how the readers
 * read: a unit test fails while a shipped reader was trained on other examples.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import {
  createLocalEmbedder,
  defaultCacheDir,
  localEmbeddingModelNames,
  trainFactReaders,
} from '@memory-service/engines'
import {
  prebuiltReadersFile,
  readersHash,
  trainingSetsHash,
  trainingSetsOf,
  type BuiltReaders,
} from '@memory-service/language'

const modelDir = process.env.EMBEDDINGS_MODEL_DIR ?? join(defaultCacheDir(process.env), 'models')
const named = process.argv.slice(2)
const models = (named.length > 0 ? named : localEmbeddingModelNames).filter((model) =>
  existsSync(join(modelDir, model, 'model.onnx')),
)
if (models.length === 0) {
  console.error(`no local model installed in ${modelDir}: run npm run stack:up first`)
  process.exit(2)
}
const sets = trainingSetsOf()
for (const model of models) {
  const started = Date.now()
  const embedder = await createLocalEmbedder({
    modelDir,
    model,
    dimension: 384,
    thread: 'caller',
    threads: 2,
  })
  const readers = await trainFactReaders(embedder, sets)
  await embedder.close()
  const built: BuiltReaders = {
    model: embedder.model,
    hash: readersHash(embedder.model),
    setsHash: trainingSetsHash(embedder.model, sets),
    readers,
  }
  const file = prebuiltReadersFile(embedder.model)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(built)}\n`)
  console.log(`${model}: trained in ${((Date.now() - started) / 1000).toFixed(1)} s, wrote ${file}`)
}
