import { grpcRequestDuration, secondsSince } from '@memory-service/engines'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'
import type { Logger } from '@memory-service/engines'
import { type Readiness } from '@memory-service/contracts'
import { protoDir } from '@memory-service/contracts/files'
import type { ProtoGrpcType as HealthProto } from '@memory-service/contracts/proto/health'
import type { HealthHandlers } from '@memory-service/contracts/proto/grpc/health/v1/Health'
import type { HealthCheckResponse } from '@memory-service/contracts/proto/grpc/health/v1/HealthCheckResponse'
import type { ProtoGrpcType as EventStreamProto } from '@memory-service/contracts/proto/event_stream'
import type { AnticipationStats } from './anticipationScheduler.js'
import { createEventStreamHandlers, type EventStreamDependencies } from './eventStreamService.js'

/** The same options the generated types were made with (see infra/codegen). */
const loaderOptions: protoLoader.Options = {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [protoDir()],
}

export interface GrpcServerDependencies {
  logger: Logger
  checkReadiness(): Promise<Readiness>
  /** Serves memory.v1.EventStream when given. */
  eventStream?: EventStreamDependencies
  /** How often Watch re-checks readiness and pushes a change. */
  watchIntervalMs?: number
}

type ServingStatus = NonNullable<HealthCheckResponse['status']>

/** Services this server answers health checks for: "" is the whole server. */
const knownServices = new Set(['', 'grpc.health.v1.Health', 'memory.v1.EventStream'])

export function createHealthHandlers(deps: GrpcServerDependencies): HealthHandlers {
  const statusFor = async (service: string): Promise<ServingStatus> => {
    if (!knownServices.has(service)) return 'SERVICE_UNKNOWN'
    const readiness = await deps.checkReadiness()
    return readiness.status === 'ready' ? 'SERVING' : 'NOT_SERVING'
  }
  return {
    Check(call, callback) {
      const startedAt = performance.now()
      const answered = (code: string) =>
        grpcRequestDuration.observe(
          { method: 'grpc.health.v1.Health/Check', status_code: code },
          secondsSince(startedAt),
        )
      statusFor(call.request.service).then(
        (status) => {
          if (status === 'SERVICE_UNKNOWN') {
            answered('NOT_FOUND')
            callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${call.request.service}` })
          } else {
            answered('OK')
            callback(null, { status })
          }
        },
        (error: unknown) => {
          answered('INTERNAL')
          callback({ code: grpc.status.INTERNAL, details: String(error) })
        },
      )
    },
    Watch(call) {
      let last: ServingStatus | undefined
      const push = async (): Promise<void> => {
        const status = await statusFor(call.request.service)
        if (status !== last && !call.cancelled) {
          last = status
          call.write({ status })
        }
      }
      const timer = setInterval(() => void push().catch(() => undefined), deps.watchIntervalMs ?? 5000)
      const stop = (): void => clearInterval(timer)
      call.on('cancelled', stop)
      call.on('close', stop)
      void push().catch((error: unknown) => {
        stop()
        call.destroy(error instanceof Error ? error : new Error(String(error)))
      })
    },
  }
}

export interface GrpcServer {
  /** The bound address, e.g. 127.0.0.1:50051 (the port is real even when 0 was asked for). */
  readonly address: string
  /** What anticipation did since the start (undefined without the event stream or anticipation). */
  anticipationStats(): AnticipationStats | undefined
  close(): Promise<void>
}

export async function startGrpcServer(
  host: string,
  port: number,
  deps: GrpcServerDependencies,
): Promise<GrpcServer> {
  const health = grpc.loadPackageDefinition(
    protoLoader.loadSync('grpc/health/v1/health.proto', loaderOptions),
  ) as unknown as HealthProto
  const server = new grpc.Server()
  server.addService(health.grpc.health.v1.Health.service, createHealthHandlers(deps))
  const eventStream = deps.eventStream ? createEventStreamHandlers(deps.eventStream) : undefined
  if (eventStream) {
    const events = grpc.loadPackageDefinition(
      protoLoader.loadSync('memory/v1/event_stream.proto', loaderOptions),
    ) as unknown as EventStreamProto
    server.addService(events.memory.v1.EventStream.service, eventStream)
  }
  const boundPort = await new Promise<number>((resolvePort, reject) => {
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (error, actual) => {
      if (error) reject(error)
      else resolvePort(actual)
    })
  })
  return {
    address: `${host}:${boundPort}`,
    anticipationStats: () => eventStream?.anticipationStats(),
    close: () =>
      new Promise<void>((resolveClose) => {
        server.tryShutdown(() => resolveClose())
        // A Watch stream never ends on its own; force after a grace period.
        setTimeout(() => {
          server.forceShutdown()
          resolveClose()
        }, 2000).unref()
      }),
  }
}
