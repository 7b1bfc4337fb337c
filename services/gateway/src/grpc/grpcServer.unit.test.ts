import { protoDir as contractProtoDir } from '@memory-service/contracts/files'
import { afterEach, describe, expect, it } from 'vitest'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'
import { createLogger } from '@memory-service/engines'
import { type Readiness } from '@memory-service/contracts'
import type { ProtoGrpcType } from '@memory-service/contracts/proto/health'
import type { HealthClient } from '@memory-service/contracts/proto/grpc/health/v1/Health'
import type { HealthCheckResponse__Output } from '@memory-service/contracts/proto/grpc/health/v1/HealthCheckResponse'
import { startGrpcServer, type GrpcServer } from './grpcServer.js'

const protoDir = contractProtoDir()
const proto = grpc.loadPackageDefinition(
  protoLoader.loadSync('grpc/health/v1/health.proto', {
    includeDirs: [protoDir],
    enums: String,
    defaults: true,
  }),
) as unknown as ProtoGrpcType

const ready: Readiness = { status: 'ready', checks: [] }
const notReady: Readiness = {
  status: 'not_ready',
  checks: [{ name: 'kafka', status: 'down', latency_ms: 1 }],
}

let server: GrpcServer | undefined
let client: HealthClient | undefined
afterEach(async () => {
  client?.close()
  await server?.close()
})

async function start(readiness: () => Readiness): Promise<HealthClient> {
  server = await startGrpcServer('127.0.0.1', 0, {
    logger: createLogger({ level: 'silent', name: 'test' }),
    checkReadiness: async () => readiness(),
    watchIntervalMs: 50,
  })
  client = new proto.grpc.health.v1.Health(server.address, grpc.credentials.createInsecure())
  return client
}

function check(health: HealthClient, service: string): Promise<HealthCheckResponse__Output> {
  return new Promise((resolveCheck, reject) => {
    health.Check({ service }, (error, response) => {
      if (error) reject(error)
      else if (response) resolveCheck(response)
    })
  })
}

describe('gRPC health service', () => {
  it('answers SERVING when every engine is ready and NOT_SERVING when one is down', async () => {
    let current = ready
    const health = await start(() => current)
    expect(await check(health, '')).toEqual({ status: 'SERVING' })
    current = notReady
    expect(await check(health, '')).toEqual({ status: 'NOT_SERVING' })
  })

  it('answers NOT_FOUND for a service it does not serve', async () => {
    const health = await start(() => ready)
    await expect(check(health, 'memory.v1.Nothing')).rejects.toMatchObject({ code: grpc.status.NOT_FOUND })
  })

  it('streams a status change to a watcher', async () => {
    let current = ready
    const health = await start(() => current)
    const statuses: string[] = []
    const call = health.Watch({ service: '' })
    await new Promise<void>((resolveWatch, reject) => {
      call.on('data', (message: HealthCheckResponse__Output) => {
        statuses.push(message.status)
        if (statuses.length === 1) current = notReady
        if (statuses.length === 2) resolveWatch()
      })
      call.on('error', reject)
    })
    call.cancel()
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING'])
  })
})
