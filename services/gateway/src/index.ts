export { startGatewayService, type RunningGatewayService } from './main.js'
export { buildApp, type AppDependencies } from './app.js'
export { startGateway, type RunningGateway, type GatewayDependencies } from './startGateway.js'
export type { AnticipationStats } from './grpc/anticipationScheduler.js'
