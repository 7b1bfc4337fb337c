import type { AnticipationStats } from './grpc/anticipationScheduler.js'
import type { EventStreamDependencies } from './grpc/eventStreamService.js'
import { checkDependencies, exposeConsumerLag, type Engines, type Logger } from '@memory-service/engines'
import {
  consumerGroupsToWatch,
  createConsumerLagReader,
  type ControlPlane,
  type EventRecorder,
} from '@memory-service/log'
import { serviceConsumerGroups } from '@memory-service/domain'
import { type ServiceConfig } from '@memory-service/contracts'
import { type TenancyCommands, type DocumentIngestor, type MemoryEditor } from '@memory-service/commands'
import {
  type IngestionJobs,
  type MemoryExports,
  type MemoryHistory,
  type MemoryStore,
} from '@memory-service/read-models'
import { buildApp, type AppDependencies } from './app.js'
import { startGrpcServer } from './grpc/grpcServer.js'
import { createBulkBacklog } from './http/bulkBacklog.js'
import { createRateLimiter } from './http/rateLimiter.js'

export interface RunningGateway {
  httpAddress: string
  grpcAddress: string
  anticipationStats(): AnticipationStats | undefined
  close(): Promise<void>
}

export interface GatewayDependencies {
  engines: Engines
  control: ControlPlane
  tenancy: TenancyCommands
  events: EventRecorder
  documents: DocumentIngestor
  jobs: IngestionJobs
  memories: { store: MemoryStore; editor: MemoryEditor; history: MemoryHistory; exports: MemoryExports }
  search: AppDependencies['search']
  analytics: AppDependencies['analytics']
  configs: AppDependencies['configs']
  conversations: AppDependencies['conversations']
  erasure: AppDependencies['erasure']
  profiles: AppDependencies['profiles']
  webhooks: AppDependencies['webhooks']
  /** Pushed context after user turns, on event streams that subscribed. */
  anticipation?: EventStreamDependencies['anticipation']
  recordUsage?: AppDependencies['recordUsage']
  /** The gateway that owns the in-process ClickHouse, when this one does not (analytics reads go there). */
  analyticsOwnerUrl?: string
  /** How many gateway processes share the rate limits (see createRateLimiter). */
  gatewayCount?: () => number
  /** The rate limits' clock (milliseconds since the epoch); tests move it instead of waiting for buckets to refill. */
  clock?: () => number
}

/** Listens on the configured REST and gRPC ports; both answer health from the same engine checks. */
export async function startGateway(
  config: ServiceConfig,
  deps: GatewayDependencies,
  logger: Logger,
): Promise<RunningGateway> {
  const checkReadiness = () => checkDependencies(deps.engines.probes)
  // /readyz also reports the consumer lag of the pipeline and projections (informational, bounded in time); the
  // gRPC health check, polled by Watch, stays on the dependency checks alone.
  const consumerLag = createConsumerLagReader(deps.engines.kafka)
  const stopLagMetrics = exposeConsumerLag(() => consumerLag.read())
  const bulkLane = consumerGroupsToWatch.filter(
    (watched) => watched.group === serviceConsumerGroups.pipelineBulk,
  )
  const bulkBacklog = createBulkBacklog(async () => {
    const [lag] = await consumerLag.read(bulkLane)
    return lag && 'lag' in lag ? lag.lag : null
  })
  const checkReadinessWithLag = async () => {
    const [readiness, consumers] = await Promise.all([checkReadiness(), consumerLag.read()])
    return { ...readiness, consumers }
  }
  // REST and gRPC calls of one key draw from the same bucket.
  const rateLimiter = createRateLimiter({
    ...(deps.gatewayCount ? { gatewayCount: deps.gatewayCount } : {}),
    ...(deps.clock ? { now: deps.clock } : {}),
  })
  const app = buildApp({
    logger: logger.child({ component: 'http' }),
    checkReadiness: checkReadinessWithLag,
    control: deps.control,
    tenancy: deps.tenancy,
    events: deps.events,
    documents: deps.documents,
    bulkBacklog,
    jobs: deps.jobs,
    memories: deps.memories,
    search: deps.search,
    analytics: deps.analytics,
    configs: deps.configs,
    conversations: deps.conversations,
    erasure: deps.erasure,
    profiles: deps.profiles,
    webhooks: deps.webhooks,
    ...(deps.recordUsage ? { recordUsage: deps.recordUsage } : {}),
    ...(deps.analyticsOwnerUrl ? { analyticsOwnerUrl: deps.analyticsOwnerUrl } : {}),
    rateLimiter,
  })
  const httpAddress = await app.listen({ host: config.http.host, port: config.http.port })
  const grpc = await startGrpcServer(config.grpc.host, config.grpc.port, {
    logger: logger.child({ component: 'grpc' }),
    checkReadiness,
    eventStream: {
      control: deps.control,
      events: deps.events,
      rateLimiter,
      logger: logger.child({ component: 'event-stream' }),
      ...(deps.anticipation ? { anticipation: deps.anticipation } : {}),
    },
  })
  return {
    httpAddress,
    grpcAddress: grpc.address,
    anticipationStats: () => grpc.anticipationStats(),
    async close() {
      stopLagMetrics()
      await Promise.all([app.close(), grpc.close()])
      await consumerLag.close()
    },
  }
}
