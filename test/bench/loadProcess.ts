import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { FairnessJob } from './fairnessLoad.js'
import type { LoadJob } from './ingestLoad.js'
import type { LagJob } from './lagLoad.js'

/**
 * Runs a load module (ingestLoad.ts, lagLoad.ts, fairnessLoad.ts) in a process of its own, as an agent's client would be, with the
 * job as its argument; answers the result it sends back.
 */
export function runLoadProcess<Result>(module: string, job: LoadJob | LagJob | FairnessJob): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL(module, import.meta.url)), [JSON.stringify(job)], {
      execArgv: ['--import', 'tsx', '--conditions=memory-service-source'],
    })
    let result: Result | undefined
    child.on('message', (message) => (result = message as Result))
    child.on('error', reject)
    child.on('exit', (code) =>
      result !== undefined ? resolve(result) : reject(new Error(`${module} exited with ${String(code)}`)),
    )
  })
}
