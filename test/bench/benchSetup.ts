/** What every benchmark starts with: its own configuration, the services, and an instance with no rate limit. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createControlEventFactory } from '@memory-service/domain'
import { createControlPlane } from '@memory-service/log'
import { connectLog, createElasticsearchClient, type SchemaCodec } from '@memory-service/engines'
import { createLogger, loadConfig } from '@memory-service/engines'
import { createTenancyCommands } from '@memory-service/commands'
import { type CreatedInstance } from '@memory-service/contracts'
import type { Kafka } from 'kafkajs'
import { startServices, type RunningServices, type ServiceName } from '@memory-service/cli'

export const runId = Date.now().toString(36)

export const benchConfig = loadConfig({
  ...process.env,
  HTTP_PORT: '0',
  GRPC_PORT: '0',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_GROUP: `bench-${runId}`,
  CLICKHOUSE_DATA_PATH: mkdtempSync(join(tmpdir(), 'memory-service-bench-')),
})
export const benchLogger = createLogger({ level: 'warn', name: 'bench' })

export interface BenchInstance {
  instance: CreatedInstance['instance']
  apiKey: string
}

export interface Bench {
  services: RunningServices
  kafka: Kafka
  codec: SchemaCodec
  instance: CreatedInstance['instance']
  apiKey: string
  baseUrl: string
  /** True when `reuse` named an instance whose key still authenticates, and that instance is used. */
  reused: boolean
  newInstance: (name: string) => Promise<BenchInstance>
  close: () => Promise<void>
}

/**
 * `reuse`: an instance and key from an earlier run (a benchmark that keeps its data between runs); used when the key
 * still authenticates, otherwise a new instance is created as without it.
 */
export async function startBench(
  name: string,
  services: ServiceName[],
  options: { reuse?: { instanceId: string; apiKey: string } } = {},
): Promise<Bench> {
  const config = benchConfig
  const logger = benchLogger
  const running = await startServices(config, services, logger)
  // The log's clients as the services have them: the codec opens what they sealed (a memory's content).
  const elasticsearch = createElasticsearchClient(config.elasticsearch)
  const { kafka, schemaCodec: codec } = connectLog(config, logger, 'bench', elasticsearch)
  const control = await createControlPlane({ kafka, codec, logger })
  const baseUrl = running.addresses.http ?? ''
  const close = async () => {
    await control.close()
    await running.close()
    await elasticsearch.close()
  }
  if (options.reuse) {
    // The gateway has read the whole control topic before it serves: a key it does not know now is gone.
    const known = await fetch(
      `${baseUrl}/dashboard/instances/${encodeURIComponent(options.reuse.instanceId)}`,
      { headers: { authorization: `Bearer ${options.reuse.apiKey}` } },
    )
    if (known.status === 200) {
      const instance = (await known.json()) as CreatedInstance['instance']
      return {
        services: running,
        kafka,
        codec,
        instance,
        apiKey: options.reuse.apiKey,
        baseUrl,
        reused: true,
        newInstance,
        close,
      }
    }
  }
  const { instance, apiKey } = await newInstance(name)
  return { services: running, kafka, codec, instance, apiKey, baseUrl, reused: false, newInstance, close }

  /** A further instance (a benchmark of several customers), known to the gateway once this resolves. */
  async function newInstance(instanceName: string): Promise<BenchInstance> {
    const factory = createControlEventFactory()
    const created = await createTenancyCommands(control, factory).createInstance(
      {
        clientId: factory.newClientId(),
        name: instanceName,
        tier: 'enterprise',
        rateLimit: { requests_per_minute: 1_000_000, burst: 100_000 },
      },
      'bench',
    )
    // The gateway knows the instance once it has read it from the control topic.
    for (;;) {
      const ready = await fetch(`${baseUrl}/dashboard/instances`, {
        headers: { authorization: `Bearer ${created.api_key.key}` },
      })
      if (ready.status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    return { instance: created.instance, apiKey: created.api_key.key }
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}
