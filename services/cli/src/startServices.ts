import {
  createLogger,
  createProcessRuntime,
  isTracing,
  startMetricsListener,
  startTracing,
  type Logger,
} from '@memory-service/engines'
import { deployment } from '@memory-service/domain'
import type { CreatedInstance, ServiceConfig } from '@memory-service/contracts'
import { startGatewayService, type AnticipationStats } from '@memory-service/gateway'
import { startPipelineService, type PipelineServiceOptions } from '@memory-service/pipeline'
import { startAnalyticsProjection, startProjectorsService } from '@memory-service/projectors'

export const serviceNames = ['gateway', 'pipeline', 'projectors'] as const
export type ServiceName = (typeof serviceNames)[number]

export function isServiceName(value: string): value is ServiceName {
  return (serviceNames as readonly string[]).includes(value)
}

/**
 * The order services start in, whatever order they were named in: what reads the log first, what writes to it
 * last. A process stops its services in the reverse order, so the gateway stops taking events first and the
 * pipeline finishes its documents while the projectors it waits for still run (stopped before them, it waited 30 s
 * per document in flight for projections that could not come).
 */
export function startOrder(names: readonly ServiceName[]): ServiceName[] {
  const downstreamFirst: readonly ServiceName[] = ['projectors', 'pipeline', 'gateway']
  return downstreamFirst.filter((name) => names.includes(name))
}

export interface RunningServices {
  addresses: { http?: string; grpc?: string }
  /** What the gateway's anticipation did since the start, when this process runs a gateway. */
  anticipationStats(): AnticipationStats | undefined
  /** The development instance created because the control topic held none (its key is shown only here). */
  developmentInstance?: CreatedInstance
  close(): Promise<void>
}

/**
 * Runs the named services in this process: one runtime (engine clients, provisioning, what the services share)
 * and each service's own composition root. Stops what started if one of them fails to start.
 */
export async function startServices(
  config: ServiceConfig,
  names: readonly ServiceName[],
  logger: Logger = createLogger({ level: config.log.level, name: 'memory-service' }),
  options: {
    bootstrapDevelopmentInstance?: boolean
    pipelineModels?: PipelineServiceOptions['models']
    /** The gateway's rate-limit clock (milliseconds since the epoch), for tests that move time. */
    clock?: () => number
  } = {},
): Promise<RunningServices> {
  // The in-process ClickHouse admits one process per data directory: only a process that runs its users opens it
  // (so a pipeline worker can run beside `npm start`), and not one told that another gateway owns it
  // (CLICKHOUSE_OWNER_URL: the cluster topology). A ClickHouse server (CLICKHOUSE_URL) is open to every process.
  const usesClickhouse = names.includes('gateway') || names.includes('projectors')
  const ownsClickhouse =
    usesClickhouse && (config.clickhouse.url !== undefined || config.clickhouse.ownerUrl === undefined)
  const runtime = await createProcessRuntime(config, logger, { clickhouse: ownsClickhouse })
  logger.info(
    {
      services: names,
      namespace: deployment.namespace || '(default)',
      clickhouse: ownsClickhouse
        ? (config.clickhouse.url ?? 'in-process')
        : `owned by ${String(config.clickhouse.ownerUrl)}`,
    },
    'starting',
  )
  // Traces leave the process only when a collector is named; a test that installed its own exporter keeps it.
  const otlpEndpoint = config.telemetry.otlpEndpoint
  if (otlpEndpoint !== undefined && !isTracing()) {
    const tracing = startTracing({ serviceName: config.telemetry.serviceName, export: { otlpEndpoint } })
    runtime.onClose(() => tracing.shutdown())
    logger.info({ otlpEndpoint }, 'traces exported over OTLP')
  }
  const running: RunningServices = {
    addresses: {},
    anticipationStats: () => undefined,
    close: () => runtime.close(),
  }
  try {
    for (const name of startOrder(names)) {
      switch (name) {
        case 'gateway': {
          const gateway = await startGatewayService(runtime, {
            ...(options.bootstrapDevelopmentInstance ? { bootstrapDevelopmentInstance: true } : {}),
            ...(options.clock ? { clock: options.clock } : {}),
          })
          running.addresses = gateway.addresses
          running.anticipationStats = () => gateway.anticipationStats()
          if (gateway.developmentInstance) running.developmentInstance = gateway.developmentInstance
          break
        }
        case 'pipeline':
          await startPipelineService(
            runtime,
            options.pipelineModels ? { models: options.pipelineModels } : {},
          )
          break
        case 'projectors':
          await startProjectorsService(runtime)
          break
      }
    }
    // A gateway serves /metrics on its HTTP port; a process without one listens for Prometheus on its own.
    if (!names.includes('gateway')) {
      const listener = await startMetricsListener(config.telemetry.metricsPort, logger)
      if (listener) runtime.onClose(() => listener.close())
    }
    // A gateway that owns the in-process engine without the projectors beside it keeps usage current itself: the
    // projector processes of its deployment leave the analytics projection to the owner.
    if (ownsClickhouse && config.clickhouse.url === undefined && !names.includes('projectors'))
      await startAnalyticsProjection(runtime)
    return running
  } catch (error) {
    await runtime.close()
    throw error
  }
}
