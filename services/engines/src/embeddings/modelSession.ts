import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** One model output: a float tensor's data and shape. */
export interface ModelOutput {
  data: Float32Array
  dims: readonly number[]
}

/**
 * An ONNX inference session as the embedder uses it: int64 inputs of one shape in, one named output back. Either on
 * the caller's thread or on a worker thread of its own; the embedder does not care which.
 */
export interface ModelSession {
  readonly inputNames: readonly string[]
  readonly outputNames: readonly string[]
  run(inputs: Record<string, BigInt64Array>, dims: [number, number], output: string): Promise<ModelOutput>
  release(): Promise<void>
  /** The niceness the model computes at (higher yields more), where the platform tells it. */
  readonly niceness?: number
}

export interface ModelSessionOptions {
  /** Path of the `.onnx` file. */
  model: string
  /** CPU threads per inference. */
  threads: number
  /**
   * `background`: the model's thread runs {@link BACKGROUND_NICENESS} nicer than the process, so that while the cores are
   * contended every thread of normal priority (a write path's acks, a search's question) goes first and the model
   * takes what is left. Only on a worker thread, where the platform lets a thread have a niceness of its own
   * (Linux); elsewhere it computes at normal priority. @default 'normal'
   */
  priority?: ModelPriority
}

export type ModelPriority = 'normal' | 'background'

/**
 * How much nicer than its process a background model thread runs: about a tenth of the CPU share of a normal thread
 * under contention.
 */
export const BACKGROUND_NICENESS = 10

const sessionOptions = (threads: number) => ({
  executionProviders: ['cpu'],
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all' as const,
})

/** On the caller's thread: onnxruntime-node runs inference synchronously, so the event loop waits for each run. */
export async function openSessionInThread(options: ModelSessionOptions): Promise<ModelSession> {
  // Loaded here rather than at the top: importing the shared package must not load a native runtime that only
  // the local provider uses.
  const ort = await import('onnxruntime-node')
  const session = await ort.InferenceSession.create(options.model, sessionOptions(options.threads))
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    async run(inputs, dims, output) {
      const feeds = Object.fromEntries(
        Object.entries(inputs).map(([name, data]) => [name, new ort.Tensor('int64', data, dims)]),
      )
      const tensor = (await session.run(feeds, [output]))[output]
      if (tensor === undefined) throw new Error(`the model returned no ${output}`)
      return { data: tensor.data as Float32Array, dims: tensor.dims }
    },
    release: () => session.release(),
  }
}

/**
 * The worker's whole program. Plain CommonJS run by `eval`, so that it needs no TypeScript loader whether the service
 * runs from its sources or from its build; it only creates the session and runs what it is sent.
 */
const workerProgram = `
const { parentPort, workerData } = require('node:worker_threads')
const ort = require(workerData.runtime)
// Linux gives each thread a niceness of its own, addressed by its thread id; threads onnxruntime starts inherit it.
// The thread starts at the process's niceness and is lowered relative to it.
let niceness
try {
  const os = require('node:os')
  const threadId = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
  niceness = os.getPriority(threadId)
  if (workerData.niceness > 0) os.setPriority(threadId, Math.min(19, niceness + workerData.niceness))
  niceness = os.getPriority(threadId)
} catch {}
ort.InferenceSession.create(workerData.model, workerData.options).then(
  (session) => {
    parentPort.on('message', async ({ id, inputs, dims, output }) => {
      try {
        const feeds = {}
        for (const [name, data] of Object.entries(inputs)) feeds[name] = new ort.Tensor('int64', data, dims)
        const tensor = (await session.run(feeds, [output]))[output]
        if (tensor === undefined) throw new Error('the model returned no ' + output)
        const data = Float32Array.from(tensor.data)
        parentPort.postMessage({ id, data, dims: tensor.dims }, [data.buffer])
      } catch (error) {
        parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) })
      }
    })
    parentPort.postMessage({ ready: true, inputNames: session.inputNames, outputNames: session.outputNames, niceness })
  },
  (error) => parentPort.postMessage({ failed: String(error && error.message ? error.message : error) }),
)
`

type WorkerReply =
  | { ready: true; inputNames: string[]; outputNames: string[]; niceness?: number }
  | { failed: string }
  | { id: number; data: Float32Array; dims: number[] }
  | { id: number; error: string }

/**
 * On a worker thread of its own: the event loop that serves HTTP, gRPC and Kafka keeps running while the model
 * computes (on a two-core machine, one core each). A run costs one message each way (inputs and output transferred,
 * not copied). The worker keeps the process alive only while a run is pending.
 */
/** How long a release waits for the runs under way before it terminates the worker anyway. */
const releaseWaitMs = 10_000

export async function openSessionInWorker(options: ModelSessionOptions): Promise<ModelSession> {
  const worker = new Worker(workerProgram, {
    eval: true,
    workerData: {
      runtime: createRequire(import.meta.url).resolve('onnxruntime-node'),
      model: options.model,
      options: sessionOptions(options.threads),
      niceness: options.priority === 'background' ? BACKGROUND_NICENESS : 0,
    },
  })
  const pending = new Map<
    number,
    { resolve: (output: ModelOutput) => void; reject: (error: Error) => void }
  >()
  let nextId = 0
  let broken: Error | null = null
  const failAll = (error: Error) => {
    broken ??= error
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
    worker.unref()
  }

  const names = await new Promise<{ inputNames: string[]; outputNames: string[]; niceness?: number }>(
    (resolve, reject) => {
      const onError = (error: Error) => reject(error)
      worker.once('error', onError)
      worker.once('message', (reply: WorkerReply) => {
        worker.off('error', onError)
        if ('ready' in reply) resolve(reply)
        else if ('failed' in reply) reject(new Error(reply.failed))
        else reject(new Error('the model worker answered before it was ready'))
      })
    },
  ).catch(async (error: unknown) => {
    await worker.terminate()
    throw error
  })

  worker.on('message', (reply: WorkerReply) => {
    if (!('id' in reply)) return
    const waiting = pending.get(reply.id)
    if (!waiting) return
    pending.delete(reply.id)
    if (pending.size === 0) worker.unref()
    if ('error' in reply) waiting.reject(new Error(reply.error))
    else waiting.resolve({ data: reply.data, dims: reply.dims })
  })
  worker.on('error', (error) => failAll(error))
  worker.on('exit', (code) => failAll(new Error(`the model worker exited (code ${String(code)})`)))
  worker.unref()

  return {
    inputNames: names.inputNames,
    outputNames: names.outputNames,
    ...(names.niceness !== undefined ? { niceness: names.niceness } : {}),
    run(inputs, dims, output) {
      if (broken) return Promise.reject(broken)
      const id = nextId++
      return new Promise<ModelOutput>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        if (pending.size === 1) worker.ref()
        worker.postMessage(
          { id, inputs, dims, output },
          Object.values(inputs).map((column) => column.buffer as ArrayBuffer),
        )
      })
    },
    async release() {
      broken ??= new Error('the model session was released')
      // A run under way finishes first (runs take milliseconds): a worker terminated inside onnxruntime's native run
      // can take the process down, or leave terminate() waiting for good (seen as a process that never stopped).
      for (const deadline = Date.now() + releaseWaitMs; pending.size > 0 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 5))
      failAll(broken)
      await worker.terminate()
    },
  }
}
