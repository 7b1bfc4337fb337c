import type { Readiness } from '@memory-service/contracts'

export type DependencyName = Readiness['checks'][number]['name']
export type DependencyCheckResult = Readiness['checks'][number]

/** A real client call against one dependency that resolves to a version string, or throws. */
export type DependencyProbe = () => Promise<string>

export async function runDependencyCheck(
  name: DependencyName,
  probe: DependencyProbe,
  timeoutMs = 5000,
): Promise<DependencyCheckResult> {
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    })
    const version = await Promise.race([probe(), timeout])
    return { name, status: 'up', version, latency_ms: Math.round(performance.now() - started) }
  } catch (error) {
    return {
      name,
      status: 'down',
      latency_ms: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    }
  } finally {
    clearTimeout(timer)
  }
}

export async function checkDependencies(
  probes: Partial<Record<DependencyName, DependencyProbe>>,
): Promise<Readiness> {
  const checks = await Promise.all(
    Object.entries(probes).map(([name, probe]) => runDependencyCheck(name as DependencyName, probe)),
  )
  return { status: checks.every((check) => check.status === 'up') ? 'ready' : 'not_ready', checks }
}
