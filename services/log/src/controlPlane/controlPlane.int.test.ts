import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { eventually, testConfig, testLogger, uniqueName } from '../../../../test/support/testEngines.js'
import { createKafka } from '@memory-service/engines'
import { createGroupPresence } from '../kafka/groupPresence.js'
import { createTopicAdmin } from '@memory-service/engines'
import { createSchemaCodec } from '@memory-service/engines'
import { createControlEventFactory } from '@memory-service/domain'
import { controlEventSchemas, createControlPlane } from './controlPlane.js'
import { createTenancyCommands } from '@memory-service/commands'

const config = testConfig()
const logger = testLogger()
const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'control-plane-int', logger })
const topic = uniqueName('mem.test-control.v1')
const admin = await createTopicAdmin(kafka)
await admin.ensureTopics([{ name: topic, partitions: 1, config: { 'retention.ms': '-1' } }])
const codec = () => createSchemaCodec(config.schemaRegistry.url)

// The topic's subjects are new: registering them is the file's setup, not part of what a test measures or waits on
// (a loaded CI machine once spent the first test's whole minute before its first append).
beforeAll(async () => {
  await codec().register(controlEventSchemas(topic))
}, 120_000)

afterAll(async () => {
  await admin.deleteTopics([topic])
  await admin.close()
})

describe('control plane on Kafka', () => {
  it('lets a writer read its own write, and a second process rebuild the same state from the topic', async () => {
    // A run that times out says where it was waiting.
    let step = 'writer start'
    onTestFailed(() => console.log(`control plane test stopped at: ${step}`))
    const writer = await createControlPlane({ kafka, codec: codec(), logger, topic })
    const tenancy = createTenancyCommands(writer, createControlEventFactory())
    step = 'create instance'
    const created = await tenancy.createInstance(
      { clientId: 'cli_0123456789abcdef', name: 'int', tier: 'free' },
      'int',
    )
    step = 'rotate key'
    const rotated = await tenancy.rotateKey(created.api_key.key_id, 'int')
    expect(writer.state.keysById.get(created.api_key.key_id)?.status).toBe('rotated')

    step = 'reader start'
    const reader = await createControlPlane({ kafka, codec: codec(), logger, topic })
    step = 'checks'
    expect(reader.state.instances.get(created.instance.instance_id)).toEqual(created.instance)
    expect(reader.state.keysById.get(rotated.key_id)).toMatchObject({
      status: 'active',
      permissions: rotated.permissions,
    })
    expect(reader.state.keysById.get(created.api_key.key_id)).toMatchObject({
      status: 'rotated',
      replaced_by: rotated.key_id,
    })
    await Promise.all([writer.close(), reader.close()])
  })

  it('creates a development instance only while the control topic has no instance', async () => {
    const emptyTopic = uniqueName('mem.test-control-empty.v1')
    await admin.ensureTopics([{ name: emptyTopic, partitions: 1, config: {} }])
    const control = await createControlPlane({ kafka, codec: codec(), logger, topic: emptyTopic })
    const tenancy = createTenancyCommands(control, createControlEventFactory())
    const created = await tenancy.ensureDevelopmentInstance('int')
    expect(created?.instance).toMatchObject({ name: 'development', tier: 'pro' })
    expect(created?.api_key.key).toMatch(/^msk_/)
    expect(await tenancy.ensureDevelopmentInstance('int')).toBeUndefined()
    await control.close()
    await admin.deleteTopics([emptyTopic])
  })

  it('answers an out-of-range change with INVALID_INPUT naming the field, not as an outage', async () => {
    const control = await createControlPlane({ kafka, codec: codec(), logger, topic })
    const tenancy = createTenancyCommands(control, createControlEventFactory())
    await expect(
      tenancy.createInstance(
        {
          clientId: 'cli_0123456789abcdef',
          name: 'huge',
          tier: 'enterprise',
          rateLimit: { requests_per_minute: 10_000_000, burst: 10 },
        },
        'int',
      ),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { 'rate_limit.requests_per_minute': 'must be <= 1000000' } },
    })
    await control.close()
  })

  it('replaces a reader whose group join never completes, and still catches up', async () => {
    // What there is to catch up with does not depend on the tests before.
    const writer = await createControlPlane({ kafka, codec: codec(), logger, topic })
    const created = await createTenancyCommands(writer, createControlEventFactory()).createInstance(
      { clientId: 'cli_0123456789abcdef', name: 'to-catch-up', tier: 'free' },
      'int',
    )
    await writer.close()
    let readersMade = 0
    const firstJoinHangs = Object.create(kafka) as typeof kafka
    firstJoinHangs.consumer = (config) => {
      const consumer = kafka.consumer(config)
      readersMade += 1
      if (readersMade === 1) consumer.run = () => new Promise<void>(() => undefined)
      return consumer
    }
    const control = await createControlPlane({
      kafka: firstJoinHangs,
      codec: codec(),
      logger,
      topic,
      readerStartTimeoutMs: 3_000,
    })
    expect(readersMade).toBe(2)
    expect(control.state.instances.get(created.instance.instance_id)).toEqual(created.instance)
    await control.close()
  })

  it('follows the topic again after kafkajs stops its reader for good, applying no event twice', async () => {
    // kafkajs's own crash path (seen when Kafka restarts: "Failed to find group coordinator"): the consumer is
    // disconnected, then CRASH is emitted with restart: false, and kafkajs does not start it again.
    const crashListeners: ((event: {
      payload: { error: Error; groupId: string; restart: boolean }
    }) => void)[] = []
    let reader: ReturnType<typeof kafka.consumer> | undefined
    const crashable = Object.create(kafka) as typeof kafka
    crashable.consumer = (consumerConfig) => {
      const consumer = kafka.consumer(consumerConfig)
      const on = consumer.on.bind(consumer)
      consumer.on = ((name: string, listener: never) => {
        if (name === consumer.events.CRASH) crashListeners.push(listener)
        return on(name as never, listener)
      }) as typeof consumer.on
      reader = consumer
      return consumer
    }
    const notApplied: unknown[] = []
    const watched = Object.create(logger) as typeof logger
    watched.child = ((bindings: Parameters<typeof logger.child>[0]) => {
      const child = logger.child(bindings)
      const warn = child.warn.bind(child)
      child.warn = (...args: Parameters<typeof child.warn>) => {
        if (args.includes('control event not applied')) notApplied.push(args[0])
        warn(...args)
      }
      return child
    }) as unknown as typeof logger.child
    const writer = await createControlPlane({ kafka, codec: codec(), logger, topic })
    const follower = await createControlPlane({ kafka: crashable, codec: codec(), logger: watched, topic })
    const tenancy = createTenancyCommands(writer, createControlEventFactory())
    const before = await tenancy.createInstance(
      { clientId: 'cli_0123456789abcdef', name: 'before-crash', tier: 'free' },
      'int',
    )
    await eventually(async () => follower.state.instances.get(before.instance.instance_id))

    await reader?.disconnect()
    for (const listener of crashListeners)
      listener({
        payload: { error: new Error('Failed to find group coordinator'), groupId: 'x', restart: false },
      })
    const after = await tenancy.createInstance(
      { clientId: 'cli_0123456789abcdef', name: 'after-crash', tier: 'free' },
      'int',
    )
    await eventually(async () => follower.state.instances.get(after.instance.instance_id), 30_000)
    // Its own writes are read back again too.
    const followerTenancy = createTenancyCommands(follower, createControlEventFactory())
    const rotated = await followerTenancy.rotateKey(after.api_key.key_id, 'int')
    expect(follower.state.keysById.get(rotated.key_id)?.status).toBe('active')
    expect(notApplied).toEqual([])
    await Promise.all([writer.close(), follower.close()])
  })

  it('answers 503 SERVICE_UNAVAILABLE when the event log cannot take the write', async () => {
    const control = await createControlPlane({ kafka, codec: codec(), logger, topic })
    const events = createControlEventFactory()
    await control.close()
    const event = events.instanceCreated({
      clientId: 'cli_0123456789abcdef',
      name: 'late',
      tier: 'free',
      rateLimit: { requests_per_minute: 60, burst: 10 },
    })
    await expect(control.append([event], 'int-fault')).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { retry_after_seconds: 5, reason: 'kafka_unavailable' },
    })
  })

  it('counts the live members of a process group, so gateways can share a rate limit', async () => {
    const groupId = uniqueName('gateway-presence')
    const first = await createGroupPresence(kafka, { groupId, topic, logger, refreshMs: 200 })
    const second = await createGroupPresence(kafka, { groupId, topic, logger, refreshMs: 200 })
    await eventually(async () => (first.count() === 2 && second.count() === 2 ? true : undefined), 30_000)
    await second.close()
    await eventually(async () => (first.count() === 1 ? true : undefined), 30_000)
    await first.close()
  })
})
