import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  clickhouseDataPath,
  createClickhouseClient,
  createClickhouseStore,
  createLogger,
  connectEngines,
  loadConfig,
  runDependencyCheck,
  type DependencyCheckResult,
  type DependencyProbe,
  type Engines,
} from '@memory-service/engines'
import { consumerGroupsToWatch, consumerLag, type ConsumerGroupLag } from '@memory-service/log'
import { createKafka } from '@memory-service/engines'
import { type ServiceConfig } from '@memory-service/contracts'
import { ensureEmbeddingModels } from '../models/fetchModels.js'
import { cacheDir, commandExists, dockerEngineReachable, findJdks, pickJdk, type Jdk } from './environment.js'
import { isAlive, launch, readPid, stopProcess } from './processes.js'
import { securedServers, servers, type ServerContext, type ServerDefinition } from './servers.js'

const composeFile = resolve(dirname(fileURLToPath(import.meta.url)), '../compose.yaml')
const serviceUser = 'memory-service'

export type Progress = (message: string) => void

interface Layout {
  stateDir: string
  cacheDir: string
  logDir: string
  runDir: string
}

function layout(config: ServiceConfig): Layout {
  return {
    stateDir: config.stateDir,
    cacheDir: cacheDir(),
    logDir: join(config.stateDir, 'logs'),
    runDir: join(config.stateDir, 'run'),
  }
}

/** The local default address of each server; anything else is an external server that stack:up must not start. */
function configuredAddress(
  server: ServerDefinition,
  config: ServiceConfig,
): { address: string; local: boolean } {
  if (server.standalone) return { address: server.standalone.address, local: true }
  switch (server.dependency) {
    case 'kafka':
      return {
        address: config.kafka.brokers.join(','),
        local: config.kafka.brokers.join(',') === '127.0.0.1:9092',
      }
    case 'elasticsearch':
      return {
        address: config.elasticsearch.url,
        local: /^http:\/\/(127\.0\.0\.1|localhost):9200\/?$/.test(config.elasticsearch.url),
      }
    case 'neo4j':
      return {
        address: config.neo4j.uri,
        local: /^bolt:\/\/(127\.0\.0\.1|localhost):7687\/?$/.test(config.neo4j.uri),
      }
    case 'schema_registry':
      return {
        address: config.schemaRegistry.url,
        local: /^http:\/\/(127\.0\.0\.1|localhost):8081\//.test(config.schemaRegistry.url),
      }
    case 'clickhouse':
      return { address: config.clickhouse.url ?? 'in-process', local: config.clickhouse.url === undefined }
  }
}

function serverContext(server: ServerDefinition, paths: Layout, jdk: Jdk, progress: Progress): ServerContext {
  return {
    maven: { repository: join(paths.cacheDir, 'm2'), progress },
    installDir: join(paths.stateDir, 'servers', `${server.installName ?? server.name}-${server.version}`),
    dataDir: join(paths.stateDir, 'data', server.name),
    logDir: paths.logDir,
    tlsDir: join(paths.stateDir, 'tls'),
    downloadsDir: join(paths.cacheDir, 'downloads'),
    jdk,
    serviceUser:
      process.getuid?.() === 0 && (server.installName ?? server.name) === 'elasticsearch'
        ? serviceUser
        : undefined,
  }
}

/** What a native start needs from the machine; injectable so the message can be tested without changing it. */
export interface MachineProbe {
  commandExists(command: string): boolean
  jdks: Jdk[]
}

/** Everything a native start needs that this machine lacks, as sentences a user can act on. */
export function missingPrerequisites(machine: MachineProbe = { commandExists, jdks: findJdks() }): string[] {
  const missing: string[] = []
  if (!machine.commandExists('mvn'))
    missing.push('Maven (`mvn`) to download the servers from Maven Central: apt-get install maven')
  if (!machine.commandExists('unzip')) missing.push('`unzip` to unpack Elasticsearch: apt-get install unzip')
  if (!machine.commandExists('tar')) missing.push('`tar` to unpack the schema registry')
  for (const server of servers) {
    if (!pickJdk(machine.jdks, server.java)) {
      const range = server.java.max ? `${server.java.min}–${server.java.max}` : `${server.java.min} or newer`
      const found = machine.jdks.length
        ? machine.jdks.map((jdk) => `${jdk.major} (${jdk.home})`).join(', ')
        : 'none'
      missing.push(
        `a JDK ${range} for ${server.name} ${server.version} (found: ${found}); install one or set JAVA_HOME`,
      )
    }
  }
  return missing
}

async function waitUntilReady(
  server: ServerDefinition,
  engines: ProbedEngines,
  pid: number,
  progress: Progress,
  logFile: string,
): Promise<DependencyCheckResult> {
  const started = Date.now()
  let lastReport = started
  for (;;) {
    const check = await runDependencyCheck(server.dependency, engines.probe(server), 5000)
    if (check.status === 'up') return check
    if (!isAlive(pid)) throw new Error(`${server.name} exited during start-up; see ${logFile}`)
    if (Date.now() - started > server.startupTimeoutMs) {
      throw new Error(
        `${server.name} not ready after ${server.startupTimeoutMs / 1000}s (${check.error}); see ${logFile}`,
      )
    }
    if (Date.now() - lastReport >= 5000) {
      progress(`${server.name}: starting… ${Math.round((Date.now() - started) / 1000)}s`)
      lastReport = Date.now()
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

function ensureServiceUser(): void {
  try {
    execFileSync('id', [serviceUser], { stdio: 'ignore' })
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', serviceUser])
  }
}

export interface UpResult {
  /** Servers this call started (a test run stops only these). */
  started: string[]
  mode: 'native' | 'docker' | 'external'
}

function wantsDocker(env: NodeJS.ProcessEnv): boolean {
  return env.MEMORY_SERVICE_STACK !== 'native' && dockerEngineReachable()
}

/**
 * Clients for the readiness probes of the servers the stack runs. ClickHouse is not one of them (it runs inside the
 * service process, which owns its data directory), so it is not opened.
 */
type ProbedEngines = Engines & { probe(server: ServerDefinition): DependencyProbe }

async function connectForProbes(env: NodeJS.ProcessEnv) {
  const config = loadConfig(env)
  const paths = layout(config)
  const logger = createLogger({ level: 'silent', name: 'stack' })
  const connected = await connectEngines(config, logger, { clickhouse: false })
  const probe = (server: ServerDefinition): DependencyProbe =>
    server.standalone?.probe(join(paths.stateDir, 'tls')) ??
    connected.probes[server.dependency] ??
    (() => Promise.reject(new Error(`the stack does not run ${server.dependency}`)))
  const engines: ProbedEngines = { ...connected, probe }
  return { config, paths, engines }
}

/** The servers of the stack; with `secured`, the secured nodes too (`stack:up --secured`). */
const stackServers = (secured: boolean) => (secured ? [...servers, ...securedServers] : servers)

/** Installs (first use) and starts every server that is not already answering; idempotent and resumable. */
export async function stackUp(
  progress: Progress,
  env: NodeJS.ProcessEnv = process.env,
  options: { secured?: boolean } = {},
): Promise<UpResult> {
  const { config, paths, engines } = await connectForProbes(env)
  const wanted = stackServers(options.secured ?? false)
  try {
    const pending: ServerDefinition[] = []
    const external: string[] = []
    const checks = await Promise.all(
      wanted.map((server) => runDependencyCheck(server.dependency, engines.probe(server), 3000)),
    )
    for (const [index, server] of wanted.entries()) {
      const check = checks[index]
      if (!check) continue
      const { address, local } = configuredAddress(server, config)
      if (check.status === 'up') progress(`${server.name}: already up at ${address} (${check.version})`)
      else if (!local)
        external.push(`${server.name} is configured at ${address} but does not answer: ${check.error}`)
      else pending.push(server)
    }
    if (external.length > 0) {
      throw new Error(
        `External servers are not reachable (stack:up starts only local ones):\n  ${external.join('\n  ')}`,
      )
    }
    await ensureEmbeddingModels(progress, env)
    if (pending.length === 0) return { started: [], mode: 'external' }

    if (wantsDocker(env)) {
      for (const server of pending.filter((candidate) => candidate.standalone))
        progress(`${server.name}: not in ${composeFile}; the secured nodes start natively only`)
      progress(`Docker engine found: starting ${composeFile}`)
      execFileSync('docker', ['compose', '-f', composeFile, 'up', '-d', '--wait'], { stdio: 'inherit' })
      return { started: pending.map((server) => server.name), mode: 'docker' }
    }

    const missing = missingPrerequisites()
    if (missing.length > 0) {
      throw new Error(
        `Cannot start the local stack: no Docker engine is reachable, and this machine lacks:\n  - ${missing.join('\n  - ')}`,
      )
    }
    for (const dir of [
      paths.stateDir,
      paths.logDir,
      paths.runDir,
      join(paths.stateDir, 'servers'),
      join(paths.stateDir, 'data'),
    ]) {
      mkdirSync(dir, { recursive: true, mode: 0o755 })
    }
    if (process.getuid?.() === 0) ensureServiceUser()

    const jdks = findJdks()
    const launched: { server: ServerDefinition; pid: number; logFile: string; ctx: ServerContext }[] = []
    for (const server of pending) {
      const jdk = pickJdk(jdks, server.java)
      if (!jdk) throw new Error(`No JDK for ${server.name}`)
      const ctx = serverContext(server, paths, jdk, progress)
      const marker = join(ctx.installDir, '.installed')
      if (!existsSync(marker)) {
        progress(`${server.name}: installing ${server.version} (first use; cached in ${paths.cacheDir})`)
        await server.install(ctx)
        writeFileSync(marker, new Date().toISOString())
      }
      const pidFile = join(paths.runDir, `${server.name}.pid`)
      const logFile = join(paths.logDir, `${server.name}.log`)
      const running = readPid(pidFile)
      if (running !== undefined && isAlive(running)) {
        progress(`${server.name}: process ${running} is running but not answering yet; waiting for it`)
        launched.push({ server, pid: running, logFile, ctx })
        continue
      }
      server.configure(ctx)
      const pid = launch(server.launch(ctx), logFile, pidFile)
      progress(`${server.name}: started ${server.version} on Java ${jdk.major} (pid ${pid}, log ${logFile})`)
      launched.push({ server, pid, logFile, ctx })
    }
    const results = await Promise.allSettled(
      launched.map(async ({ server, pid, logFile, ctx }) => {
        const check = await waitUntilReady(server, engines, pid, progress, logFile)
        server.afterReady?.(ctx)
        progress(`${server.name}: ready (${check.version}) in ${check.latency_ms} ms probe`)
      }),
    )
    const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected')
    if (failures.length > 0) throw new Error(failures.map((failure) => String(failure.reason)).join('\n'))
    return { started: launched.map(({ server }) => server.name), mode: 'native' }
  } finally {
    await engines.close()
  }
}

/** Stops the servers this stack started (all of them unless names are given). */
export async function stackDown(progress: Progress, names?: string[], env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(env)
  const paths = layout(config)
  if (wantsDocker(env) && names === undefined) {
    execFileSync('docker', ['compose', '-f', composeFile, 'down'], { stdio: 'inherit' })
  }
  for (const server of [...servers, ...securedServers].reverse()) {
    if (names !== undefined && !names.includes(server.name)) continue
    const result = await stopProcess(join(paths.runDir, `${server.name}.pid`))
    progress(`${server.name}: ${result}`)
  }
}

export interface ServerStatus {
  name: string
  state: 'up' | 'down'
  version: string
  address: string
  ports: string
  pid: string
  detail: string
}

export async function stackStatus(
  env: NodeJS.ProcessEnv = process.env,
  options: { secured?: boolean } = {},
): Promise<ServerStatus[]> {
  const { config, paths, engines } = await connectForProbes(env)
  try {
    const rows = await Promise.all(
      stackServers(options.secured ?? false).map(async (server): Promise<ServerStatus> => {
        const check = await runDependencyCheck(server.dependency, engines.probe(server), 5000)
        const pid = readPid(join(paths.runDir, `${server.name}.pid`))
        const { address, local } = configuredAddress(server, config)
        return {
          name: server.name,
          state: check.status,
          version: local ? server.version : 'external',
          address,
          ports: Object.entries(server.ports)
            .map(([name, port]) => `${name} ${port}`)
            .join(', '),
          pid: pid !== undefined && isAlive(pid) ? String(pid) : '-',
          detail:
            check.status === 'up'
              ? `${check.version ?? ''}${local ? `; log ${join(paths.logDir, `${server.name}.log`)}` : ''}`
              : (check.error ?? ''),
        }
      }),
    )
    rows.push(await clickhouseStatus(config))
    return rows
  } finally {
    await engines.close()
  }
}

async function clickhouseStatus(config: ServiceConfig): Promise<ServerStatus> {
  const inProcess = config.clickhouse.url === undefined
  // The in-process engine belongs to the service process (one process per data directory), so status
  // checks the engine itself in memory and names the directory the services use.
  const store = createClickhouseStore(
    await createClickhouseClient({
      ...config.clickhouse,
      dataPath: inProcess ? ':memory:' : clickhouseDataPath(config),
    }),
    config.clickhouse.database,
  )
  try {
    const check = await runDependencyCheck('clickhouse', () => store.version(), 5000)
    return {
      name: 'clickhouse',
      state: check.status,
      version: check.version ?? '-',
      address: inProcess
        ? `in-process chdb, data ${clickhouseDataPath(config)}`
        : (config.clickhouse.url ?? ''),
      ports: inProcess ? '-' : 'http',
      pid: '-',
      detail: check.error ?? (inProcess ? 'runs inside each service process' : ''),
    }
  } finally {
    await store.close()
  }
}

export interface ConsumerGroupStatus {
  group: string
  topics: string
  lag: string
  detail: string
}

function consumerGroupRow(entry: ConsumerGroupLag, topics: readonly string[]): ConsumerGroupStatus {
  if ('error' in entry)
    return { group: entry.group, topics: topics.join(', '), lag: '-', detail: entry.error }
  const details: string[] = []
  if (entry.no_committed_offsets) details.push('no offsets yet')
  if (entry.topics.length > 1)
    details.push(entry.topics.map((topic) => `${topic.topic} ${topic.lag}`).join(', '))
  return { group: entry.group, topics: topics.join(', '), lag: String(entry.lag), detail: details.join('; ') }
}

/** The lag of the pipeline's and each projection's consumer group: records in their topics not yet committed. */
export async function consumerGroupStatus(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ConsumerGroupStatus[]> {
  const config = loadConfig(env)
  const kafka = createKafka({
    brokers: config.kafka.brokers,
    clientId: `${config.kafka.clientId}-stack-status`,
    logger: createLogger({ level: 'silent', name: 'stack' }),
  })
  const lag = await consumerLag(kafka, consumerGroupsToWatch, { timeoutMs: 5000 })
  return lag.map((entry, index) => consumerGroupRow(entry, consumerGroupsToWatch[index]?.topics ?? []))
}
