/**
 * Global setup of the int and e2e projects: reuse a running stack, or start one (natively, or from
 * infra/compose.yaml with testcontainers when a Docker engine is reachable) and stop what was started at the end.
 * The stack CLI runs as a child process: it is the same command a user runs, and it resolves workspace sources
 * the way tsx does.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { dockerEngineReachable } from '../../infra/stack/environment.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

function stackCommand(args: string[]): void {
  execFileSync(
    join(root, 'node_modules/.bin/tsx'),
    ['--conditions=memory-service-source', 'infra/stack/main.ts', ...args],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
}

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.MEMORY_SERVICE_STACK !== 'native' && dockerEngineReachable()) {
    const { DockerComposeEnvironment, Wait } = await import('testcontainers')
    console.log('[test stack] Docker engine found: starting infra/compose.yaml with testcontainers')
    const environment = await new DockerComposeEnvironment(join(root, 'infra'), 'compose.yaml')
      .withWaitStrategy('elasticsearch-1', Wait.forHealthCheck())
      .up()
    return async () => {
      await environment.down()
    }
  }
  const scratch = mkdtempSync(join(tmpdir(), 'memory-service-stack-'))
  stackCommand(['up', '--secured', '--record', join(scratch, 'up.json')])
  const { started } = JSON.parse(readFileSync(join(scratch, 'up.json'), 'utf8')) as { started: string[] }
  rmSync(scratch, { recursive: true, force: true })
  return async () => {
    if (started.length === 0 || process.env.MEMORY_SERVICE_KEEP_STACK === '1') return
    stackCommand(['down', '--only', started.join(',')])
  }
}
