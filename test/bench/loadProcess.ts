import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { LoadJob, LoadResult } from './ingestLoad.js'

/** Runs one load job in a process of its own (ingestLoad.ts), as an agent's client would be; answers its result. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./ingestLoad.ts', import.meta.url)), [JSON.stringify(job)], {
      execArgv: ['--import', 'tsx', '--conditions=memory-service-source'],
    })
    let result: LoadResult | undefined
    child.on('message', (message) => (result = message as LoadResult))
    child.on('error', reject)
    child.on('exit', (code) =>
      result
        ? resolve(result)
        : reject(new Error(`load process for ${job.name} exited with ${String(code)}`)),
    )
  })
}
