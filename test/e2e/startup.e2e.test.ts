/**
 * The product as a user starts it: the CLI process with every service, against the real stack, through the
 * public REST and gRPC ports.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryClient } from '@memory-service/client'
import { deployment } from '@memory-service/domain'
import type { ProtoGrpcType } from '@memory-service/contracts/proto/health'
import type { HealthCheckResponse__Output } from '@memory-service/contracts/proto/grpc/health/v1/HealthCheckResponse'

const topic = deployment.topic
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
let service: ChildProcess
let output = ''
let restUrl = ''
let grpcAddress = ''

beforeAll(async () => {
  service = spawn(resolve(root, 'node_modules/.bin/memory-service'), ['start'], {
    cwd: root,
    // Port 0: the OS picks free ports, and the CLI prints the addresses it got.
    // Its own ClickHouse directory: the in-process engine locks its directory against every other process.
    env: {
      ...process.env,
      HTTP_PORT: '0',
      GRPC_PORT: '0',
      LOG_LEVEL: 'warn',
      CLICKHOUSE_DATA_PATH: mkdtempSync(join(tmpdir(), 'memory-service-e2e-chdb-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  service.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 90_000
  while (!/gRPC\s+\S+/.test(output)) {
    if (service.exitCode !== null)
      throw new Error(`memory-service exited with ${service.exitCode}:\n${output}`)
    if (Date.now() > deadline) throw new Error(`memory-service did not report ready:\n${output}`)
    await new Promise((done) => setTimeout(done, 200))
  }
  restUrl = /REST\s+(\S+)/.exec(output)?.[1] ?? ''
  grpcAddress = /gRPC\s+(\S+)/.exec(output)?.[1] ?? ''
})

afterAll(async () => {
  if (service.exitCode === null) {
    const exited = new Promise((done) => service.once('exit', done))
    service.kill('SIGTERM')
    await exited
  }
})

describe('memory-service start', () => {
  it('prints the REST and gRPC addresses once every service is ready', () => {
    expect(output).toMatch(/Memory Service ready: gateway, pipeline, projectors/)
    expect(restUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(grpcAddress).toMatch(/^127\.0\.0\.1:\d+$/)
  })

  it('reports all five engines up, each with what its real client call returned', async () => {
    const readiness = await createMemoryClient({ baseUrl: restUrl }).readiness()
    expect(readiness.status).toBe('ready')
    expect(readiness.checks.map((check) => [check.name, check.status]).sort()).toEqual([
      ['clickhouse', 'up'],
      ['elasticsearch', 'up'],
      ['kafka', 'up'],
      ['neo4j', 'up'],
      ['schema_registry', 'up'],
    ])
    const versions = Object.fromEntries(readiness.checks.map((check) => [check.name, check.version]))
    expect(versions.elasticsearch).toMatch(/^9\.\d+\.\d+$/)
    expect(versions.neo4j).toMatch(/^5\.26\.\d+ community$/)
    expect(versions.clickhouse).toMatch(/^\d+\.\d+/)
  })

  it('reports the consumer lag of the pipeline and of each projection beside the checks', async () => {
    const readiness = await createMemoryClient({ baseUrl: restUrl }).readiness()
    expect(
      readiness.consumers?.map((entry) => [entry.group, entry.topics?.map((topic) => topic.topic)]),
    ).toEqual([
      [deployment.group('memory-pipeline'), [topic('mem.documents.v1')]],
      [deployment.group('memory-pipeline-bulk'), [topic('mem.documents-bulk.v1')]],
      [
        deployment.group('memory-projector-jobs'),
        [topic('mem.documents.v1'), topic('mem.documents-bulk.v1'), topic('mem.ingestion-jobs.v1')],
      ],
      [deployment.group('memory-projector-vector'), [topic('mem.memories.v1')]],
      [deployment.group('memory-projector-graph'), [topic('mem.memories.v1')]],
      [deployment.group('memory-projector-analytics'), [topic('mem.usage.v1')]],
      [
        deployment.group('memory-projector-conversations'),
        [topic('mem.conversation-events.v1'), topic('mem.conversations.v1')],
      ],
    ])
    for (const entry of readiness.consumers ?? []) {
      expect(entry.error).toBeUndefined()
      expect(entry.lag).toBe(entry.topics?.reduce((sum, topic) => sum + topic.lag, 0))
      expect(entry.lag).toBeGreaterThanOrEqual(0)
      expect(typeof entry.no_committed_offsets).toBe('boolean')
    }
  })

  it('answers every REST response with a correlation id, and errors with the spec body', async () => {
    const response = await fetch(`${restUrl}/v1/unknown`)
    expect(response.status).toBe(404)
    expect(response.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(await response.json()).toEqual({
      error: 'No route GET /v1/unknown',
      code: 'NOT_FOUND',
      details: { method: 'GET', path: '/v1/unknown' },
    })
  })

  it('serves the standard gRPC health check as SERVING', async () => {
    const proto = grpc.loadPackageDefinition(
      protoLoader.loadSync('grpc/health/v1/health.proto', {
        includeDirs: [resolve(root, 'proto')],
        enums: String,
      }),
    ) as unknown as ProtoGrpcType
    const client = new proto.grpc.health.v1.Health(grpcAddress, grpc.credentials.createInsecure())
    const response = await new Promise<HealthCheckResponse__Output | undefined>((done, reject) => {
      client.Check({ service: '' }, (error, reply) => (error ? reject(error) : done(reply)))
    })
    client.close()
    expect(response).toEqual({ status: 'SERVING' })
  })

  it('created the declared topics before reporting ready', async () => {
    const { createKafka, createTopicAdmin, createLogger, loadEngineDeclarations } =
      await import('@memory-service/engines')
    const admin = await createTopicAdmin(
      createKafka({
        brokers: ['127.0.0.1:9092'],
        clientId: 'e2e',
        logger: createLogger({ level: 'silent', name: 'e2e' }),
      }),
    )
    const declared = loadEngineDeclarations().topics
    const topics = await admin.describeTopics(declared.map((topic) => topic.name))
    await admin.close()
    expect([...topics.keys()].sort()).toEqual(declared.map((topic) => topic.name).sort())
  })

  it('shuts down cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((done) => service.once('exit', (code) => done(code)))
    service.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
