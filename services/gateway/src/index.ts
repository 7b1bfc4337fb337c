export { buildApp, type AppDependencies } from './app.js'
export { startGrpcServer, createHealthHandlers, type GrpcServer } from './grpc/grpcServer.js'
export { startGateway, type RunningGateway } from './startGateway.js'
export { authenticateCall, toGrpcError } from './grpc/grpcAuth.js'
