/**
 * Global setup of the int and e2e projects: reuse a running stack, or start one (natively, or from
 * infra/compose.yaml with testcontainers when a Docker engine is reachable) and stop what was started at the end.
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { dockerEngineReachable } from '../../infra/stack/environment.js'
import { stackDown, stackUp } from '../../infra/stack/stack.js'

const progress = (message: string): void => console.log(`[test stack] ${message}`)

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.MEMORY_SERVICE_STACK !== 'native' && dockerEngineReachable()) {
    const { DockerComposeEnvironment, Wait } = await import('testcontainers')
    const infraDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../infra')
    progress(`Docker engine found: starting ${infraDir}/compose.yaml with testcontainers`)
    const environment = await new DockerComposeEnvironment(infraDir, 'compose.yaml')
      .withWaitStrategy('elasticsearch-1', Wait.forHealthCheck())
      .up()
    return async () => {
      await environment.down()
    }
  }
  const { started } = await stackUp(progress)
  return async () => {
    if (started.length === 0 || process.env.MEMORY_SERVICE_KEEP_STACK === '1') return
    await stackDown(progress, started)
  }
}
