import { randomBytes } from 'node:crypto'
import type { ConfigVersionRecord, ControlEventFactory } from '@memory-service/domain'
import type { ControlPlane } from '@memory-service/log'
import type { Embedder, LogAndProjections, Logger } from '@memory-service/engines'
import type { PolicyLookup } from '@memory-service/domain'
import { rebuildProjection } from '@memory-service/read-models'

export interface ConfigRebuilds {
  close(): Promise<void>
}

/** A running rebuild reports every couple of seconds; one silent for this long has lost its process. */
const stalledAfterMs = 60_000

/**
 * Runs the projection rebuilds that applying a configuration version asks for (its `rebuild`), one at a time, each
 * re-projecting the version's instance in place from the log. Progress goes to the control topic, so every
 * gateway shows it on the version. The first process to report claims a rebuild (the log orders the claims); a
 * rebuild whose runner went silent is taken over.
 */
export function startConfigRebuilds(deps: {
  engines: LogAndProjections
  control: ControlPlane
  events: ControlEventFactory
  embedder: Embedder
  policyOf: PolicyLookup
  logger: Logger
  pollMs?: number
}): ConfigRebuilds {
  const runner = `projectors-${String(process.pid)}-${randomBytes(4).toString('hex')}`
  const log = deps.logger.child({ component: 'config-rebuilds', runner })
  let stopped = false
  let running: Promise<void> = Promise.resolve()

  const report = async (
    version: ConfigVersionRecord,
    change: Omit<
      Parameters<ControlEventFactory['configRebuildChanged']>[0],
      'instanceId' | 'configId' | 'runner'
    >,
  ): Promise<boolean> => {
    const event = deps.events.configRebuildChanged({
      instanceId: version.instance_id,
      configId: version.config_id,
      runner,
      ...change,
    })
    const [applied] = await deps.control.append([event], `config-rebuild-${version.config_id}`)
    return applied ?? false
  }

  const claimable = (version: ConfigVersionRecord): 'claim' | 'takeover' | undefined => {
    const rebuild = version.rebuild
    if (rebuild?.status === 'pending') return 'claim'
    if (
      rebuild?.status === 'running' &&
      rebuild.runner !== runner &&
      Date.now() - Date.parse(rebuild.updated_at ?? rebuild.started_at ?? '') > stalledAfterMs
    )
      return 'takeover'
    return undefined
  }

  async function run(version: ConfigVersionRecord, how: 'claim' | 'takeover'): Promise<void> {
    const projections = version.rebuild?.projections ?? []
    const [first] = projections
    if (!first) return
    if (!(await report(version, { status: 'running', projection: first, takeover: how === 'takeover' })))
      return
    log.info({ config_id: version.config_id, projections, how }, 'configuration rebuild started')
    try {
      for (const projection of projections) {
        // Only this instance's memories change with its configuration: they are re-projected in place, and no
        // other instance's data is touched (a configuration cannot change the served embedding model).
        const rebuilt = await rebuildProjection(deps.engines, {
          projection,
          instanceId: version.instance_id,
          // The other instances are served meanwhile: the re-projection takes half the time it could.
          idleShare: 1,
          start: { from: 'beginning' },
          embedder: deps.embedder,
          logger: log,
          policyOf: deps.policyOf,
          onProgress: async ({ events, behind }) => {
            await report(version, { status: 'running', projection, events_read: events, behind })
          },
        })
        await report(version, { status: 'completed', projection, events_read: rebuilt.events, behind: 0 })
      }
      await report(version, { status: 'completed' })
      log.info({ config_id: version.config_id, projections }, 'configuration rebuild completed')
    } catch (error) {
      // Stopped mid-way (the process is closing its engines): left running, so another process takes it over.
      if (stopped) return
      log.error({ err: error, config_id: version.config_id }, 'configuration rebuild failed')
      await report(version, { status: 'failed', error: (error as Error).message.slice(0, 2000) }).catch(
        (reportError: unknown) => log.error({ err: reportError }, 'rebuild failure not recorded'),
      )
    }
  }

  async function sweep(): Promise<void> {
    for (const version of deps.control.state.configs.byId.values()) {
      if (stopped) return
      const how = claimable(version)
      if (how) await run(version, how)
    }
  }

  let busy = false
  const timer = setInterval(() => {
    // One sweep at a time: a rebuild takes as long as reading the log does.
    if (busy) return
    busy = true
    running = sweep()
      .catch((error: unknown) => {
        log.error({ err: error }, 'configuration rebuild sweep failed')
      })
      .finally(() => {
        busy = false
      })
  }, deps.pollMs ?? 1000)

  return {
    async close() {
      stopped = true
      clearInterval(timer)
      // A rebuild in progress is not waited for: it fails when the engines close and is taken over later.
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 2000))])
    },
  }
}
