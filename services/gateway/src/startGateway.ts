import { checkDependencies, type Engines, type Logger, type ServiceConfig } from '@memory-service/shared'
import { buildApp } from './app.js'
import { startGrpcServer } from './grpc/grpcServer.js'

export interface RunningGateway {
  httpAddress: string
  grpcAddress: string
  close(): Promise<void>
}

/** Listens on the configured REST and gRPC ports; both answer health from the same engine checks. */
export async function startGateway(
  config: ServiceConfig,
  engines: Engines,
  logger: Logger,
): Promise<RunningGateway> {
  const checkReadiness = () => checkDependencies(engines.probes)
  const app = buildApp({ logger: logger.child({ component: 'http' }), checkReadiness })
  const httpAddress = await app.listen({ host: config.http.host, port: config.http.port })
  const grpc = await startGrpcServer(config.grpc.host, config.grpc.port, {
    logger: logger.child({ component: 'grpc' }),
    checkReadiness,
  })
  return {
    httpAddress,
    grpcAddress: grpc.address,
    async close() {
      await Promise.all([app.close(), grpc.close()])
    },
  }
}
