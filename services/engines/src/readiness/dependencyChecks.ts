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

export interface DependencyWaitOptions {
  /** How long the dependencies get to answer, all at once, before the caller gives up (default 60 s). */
  withinMs?: number
  /** Between two rounds of probes (default 2 s). */
  pauseMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /** Each round that found a dependency down, before the pause. */
  onNotReady?: (readiness: Readiness, round: number) => void
}

/**
 * The dependencies probed round after round until all answer or `withinMs` has passed; answers the last round. A
 * process starting beside a busy stack (an engine still starting, a node busy with a long request past the probe's
 * 5 s) waits for it instead of exiting at the first probe that missed.
 */
export async function waitForDependencies(
  probes: Partial<Record<DependencyName, DependencyProbe>>,
  options: DependencyWaitOptions = {},
): Promise<Readiness> {
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const deadline = now() + (options.withinMs ?? 60_000)
  for (let round = 1; ; round += 1) {
    const readiness = await checkDependencies(probes)
    if (readiness.status === 'ready' || now() >= deadline) return readiness
    options.onNotReady?.(readiness, round)
    await sleep(Math.min(options.pauseMs ?? 2_000, deadline - now()))
  }
}
