import { randomBytes } from 'node:crypto'
import { createLogger, isErasedContent, loadConfig, type Logger } from '@memory-service/engines'
import { type ServiceConfig } from '@memory-service/contracts'

/** The configuration every test process runs with: the local stack's addresses unless the environment says otherwise. */
export function testConfig(overrides: Partial<NodeJS.ProcessEnv> = {}): ServiceConfig {
  return loadConfig({ ...process.env, ...overrides })
}

/** Topic, index, database and group names carry a random suffix so test files never see each other's data. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`
}

export function testLogger(): Logger {
  return createLogger({ level: testConfig().log.level, name: 'test' })
}

/** Polls until `check` returns a value (not undefined) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      const value = await check()
      if (value !== undefined) return value
    } catch (error) {
      lastError = error
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(
    `condition not met within ${timeoutMs} ms${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
  )
}

/**
 * Every record of a topic up to its current end, decoded: a fresh consumer group reads from the first offset and
 * stops once each partition reached the end offset seen at the call. With `keys`, only the records with one of those
 * keys are decoded and returned (another test's records, a poison record, are passed by).
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names what the topic holds
export async function readTopicToEnd<T>(
  kafka: import('kafkajs').Kafka,
  codec: import('@memory-service/engines').SchemaCodec,
  topic: string,
  options: { keys?: ReadonlySet<string> } = {},
): Promise<{ value: T; headers: Record<string, string>; partition: number; offset: string }[]> {
  const admin = kafka.admin()
  await admin.connect()
  const ends = await admin.fetchTopicOffsets(topic)
  await admin.disconnect()
  const remaining = new Map(
    ends.filter((end) => end.high !== end.low).map((end) => [end.partition, BigInt(end.high) - 1n]),
  )
  const records: { value: T; headers: Record<string, string>; partition: number; offset: string }[] = []
  if (remaining.size === 0) return records
  const delivered = new Set<string>()
  const consumer = kafka.consumer({ groupId: uniqueName('read-to-end') })
  await consumer.connect()
  await consumer.subscribe({ topics: [topic], fromBeginning: true })
  await new Promise<void>((resolve, reject) => {
    consumer
      .run({
        eachMessage: async (payload) => {
          const { partition, message } = payload
          const last = remaining.get(partition)
          if (last === undefined || BigInt(message.offset) > last) return
          // A group of its own that lost its session while decoding (a loaded machine) rejoins and is handed records
          // it already read: a record is one offset of one partition, however often it is delivered.
          const position = `${partition}:${message.offset}`
          if (delivered.has(position)) return
          delivered.add(position)
          await payload.heartbeat()
          const wanted = !options.keys || options.keys.has(message.key?.toString() ?? '')
          // A record of a user erased by another test is passed by, as every consumer of the log passes it.
          const value =
            message.value && wanted
              ? await codec.decode<T>(message.value).catch((error: unknown) => {
                  if (isErasedContent(error)) return undefined
                  throw error
                })
              : undefined
          if (value !== undefined) {
            records.push({
              value,
              headers: Object.fromEntries(
                Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
              ),
              partition,
              offset: message.offset,
            })
          }
          if (BigInt(message.offset) >= last) remaining.delete(partition)
          if (remaining.size === 0) resolve()
        },
      })
      .catch(reject)
  })
  await consumer.disconnect()
  return records
}

/**
 * A gateway of its own (free ports, its own rate-limit group), with the pipeline worker and projectors when asked,
 * and a new instance with a generous enterprise
 * limit, usable once the gateway has read it from the control topic.
 */
export async function startGatewayWithInstance(
  name: string,
  options: {
    withWorkers?: boolean
    /** Configuration variables for this file's services (a fast webhook retry schedule, say). */
    env?: Partial<NodeJS.ProcessEnv>
    /** Where the services log (a file the test reads afterwards, say); the test logger by default. */
    logger?: Logger
  } = {},
) {
  const { startServices } = await import('../../services/cli/src/startServices.js')
  const { withInjectedFaults } = await import('./faultInjection.js')
  const shared = {
    ...(await import('@memory-service/engines')),
    ...(await import('@memory-service/log')),
    ...(await import('@memory-service/domain')),
    ...(await import('@memory-service/commands')),
  }
  const rateLimitGroup = uniqueName('gateways')
  const config = testConfig({
    HTTP_PORT: '0',
    GRPC_PORT: '0',
    RATE_LIMIT_GROUP: rateLimitGroup,
    PIPELINE_RETRY_BASE_MS: '20',
    PIPELINE_MAX_ATTEMPTS: '3',
    ...options.env,
  })
  const logger = options.logger ?? testLogger()
  // Through the same connection the services use (a secured listener, when the file's env asks for one).
  const { kafka, schemaCodec: codec, keyring } = shared.connectLog(config, logger, `${name}-e2e`)
  // The pipeline and projectors run in their production consumer groups, with faults injected by text markers.
  const gateway = await startServices(
    config,
    options.withWorkers ? ['gateway', 'pipeline', 'projectors'] : ['gateway'],
    logger,
    { pipelineModels: withInjectedFaults },
  )
  const control = await shared.createControlPlane({ kafka, codec, logger })
  const events = shared.createControlEventFactory()
  const tenancy = shared.createTenancyCommands(control, events)
  const untilUsable = (key: string, baseUrl = gateway.addresses.http ?? '') =>
    eventually(async () => {
      const response = await fetch(`${baseUrl}/dashboard/instances`, {
        headers: { authorization: `Bearer ${key}` },
      })
      return response.status !== 401 ? true : undefined
    })
  // A new key is known to the gateway once its projection has read the control event; a test that uses the
  // key at once would otherwise race that projection (a 401 under load).
  const createInstance = async (instanceName: string) => {
    const created = await tenancy.createInstance(
      {
        clientId: events.newClientId(),
        name: instanceName,
        tier: 'enterprise',
        rateLimit: { requests_per_minute: 1_000_000, burst: 100_000 },
      },
      `${name}-setup`,
    )
    await untilUsable(created.api_key.key)
    return created
  }
  const instance = await createInstance(name)
  return {
    config,
    rateLimitGroup,
    logger,
    kafka,
    codec,
    /** The data keys the services seal with (a user's usage pseudonym, say). */
    keyring,
    gateway,
    control,
    tenancy,
    instance,
    createInstance,
    untilUsable,
    async close() {
      await control.close()
      await gateway.close()
    },
  }
}
