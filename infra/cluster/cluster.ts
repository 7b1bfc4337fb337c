/**
 * The cluster topology on the local stack: two gateways, two pipeline workers and two projector processes, each a
 * separate OS process of `memory-service start …` against the same Kafka, Elasticsearch and Neo4j. Consumer groups
 * share partitions between the two processes of a role and rebalance when one goes. The in-process ClickHouse has
 * one owner, gateway-1: it serves every analytics read (gateway-2 forwards them) and runs the analytics projection
 * (the projector processes leave it to it), so no process ever waits on the engine's lock.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { join } from 'node:path'

export type ClusterRole = 'gateway' | 'pipeline' | 'projectors'

export interface ClusterMember {
  name: string
  role: ClusterRole
  env: Record<string, string>
  /** The REST base URL of a gateway. */
  http?: string
  /** The gRPC address of a gateway. */
  grpc?: string
}

/** The ports of the six members: REST and gRPC of each gateway, /metrics of each worker (pipeline 1–2, projectors 1–2). */
export interface ClusterPorts {
  http: [number, number]
  grpc: [number, number]
  metrics: [number, number, number, number]
}

/**
 * The documented ports, from HTTP_PORT (8080), GRPC_PORT (50051) and METRICS_PORT (9464) up. 8081 is the local
 * stack's schema registry: the second gateway listens two ports up.
 */
export function configuredClusterPorts(env: NodeJS.ProcessEnv = process.env): ClusterPorts {
  const base = (value: string | undefined, fallback: number) => (value ? Number(value) : fallback)
  const http = base(env.HTTP_PORT, 8080)
  const grpc = base(env.GRPC_PORT, 50051)
  const metrics = base(env.METRICS_PORT, 9464)
  return {
    http: [http, http + 2],
    grpc: [grpc, grpc + 1],
    metrics: [metrics, metrics + 1, metrics + 2, metrics + 3],
  }
}

/**
 * Eight ports free now, held together while they are picked so that no two are the same: a cluster that runs beside
 * `npm start` or another cluster (the fault suite). A member restarted later gets its port again.
 */
export async function freeClusterPorts(): Promise<ClusterPorts> {
  const servers = await Promise.all(
    Array.from(
      { length: 8 },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer()
          server.once('error', reject)
          server.listen(0, '127.0.0.1', () => resolve(server))
        }),
    ),
  )
  const ports = servers.map((server) => (server.address() as AddressInfo).port)
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  const [http1, http2, grpc1, grpc2, m1, m2, m3, m4] = ports as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  return { http: [http1, http2], grpc: [grpc1, grpc2], metrics: [m1, m2, m3, m4] }
}

/** The six members, gateway-1 first (the ClickHouse owner starts before anyone forwards to it). */
export function clusterMembers(ports: ClusterPorts = configuredClusterPorts()): ClusterMember[] {
  const ownerUrl = `http://127.0.0.1:${String(ports.http[0])}`
  const gateway = (n: 1 | 2): ClusterMember => {
    const http = ports.http[n - 1] ?? 0
    const grpc = ports.grpc[n - 1] ?? 0
    return {
      name: `gateway-${String(n)}`,
      role: 'gateway',
      http: `http://127.0.0.1:${String(http)}`,
      grpc: `127.0.0.1:${String(grpc)}`,
      env: {
        HTTP_PORT: String(http),
        GRPC_PORT: String(grpc),
        ...(n === 1 ? {} : { CLICKHOUSE_OWNER_URL: ownerUrl }),
      },
    }
  }
  // Workers have no gateway to serve /metrics: each listens on a port of its own.
  const worker = (role: 'pipeline' | 'projectors', n: 1 | 2): ClusterMember => ({
    name: `${role}-${String(n)}`,
    role,
    env: {
      METRICS_PORT: String(ports.metrics[(role === 'pipeline' ? 0 : 2) + n - 1] ?? 0),
      ...(role === 'projectors' ? { CLICKHOUSE_OWNER_URL: ownerUrl } : {}),
    },
  })
  return [
    gateway(1),
    gateway(2),
    worker('pipeline', 1),
    worker('pipeline', 2),
    worker('projectors', 1),
    worker('projectors', 2),
  ]
}

export interface RunningCluster {
  members: ClusterMember[]
  gateways: ClusterMember[]
  /** The member's process id while it runs. */
  pid(name: string): number | undefined
  /** Sends a signal (SIGKILL by default) and waits for the process to be gone. */
  kill(name: string, signal?: NodeJS.Signals): Promise<void>
  /** Starts a stopped member again and waits until it reports ready. */
  start(name: string): Promise<void>
  /** Stops every member (SIGTERM, then SIGKILL after the grace period). */
  stop(): Promise<void>
  logFile(name: string): string
}

const readyLine = 'Memory Service ready'

export async function startCluster(options: {
  root: string
  /** The members' ports: the configured ones (`configuredClusterPorts`) unless given. */
  ports?: ClusterPorts
  logDir: string
  env?: NodeJS.ProcessEnv
  members?: ClusterMember[]
  readyTimeoutMs?: number
  onProgress?: (message: string) => void
}): Promise<RunningCluster> {
  const members = options.members ?? clusterMembers(options.ports)
  const readyTimeoutMs = options.readyTimeoutMs ?? 180_000
  const progress = options.onProgress ?? (() => undefined)
  mkdirSync(options.logDir, { recursive: true })
  const children = new Map<string, ChildProcess>()
  /** Members signalled by `kill` or `stop`, whose exit is expected. */
  const stopping = new WeakSet<ChildProcess>()
  const memberOf = (name: string): ClusterMember => {
    const member = members.find((candidate) => candidate.name === name)
    if (!member) throw new Error(`no cluster member ${name}`)
    return member
  }
  const logFile = (name: string) => join(options.logDir, `${name}.log`)

  async function start(name: string): Promise<void> {
    const member = memberOf(name)
    if (children.has(name)) throw new Error(`${name} is already running`)
    const file = logFile(name)
    const from = sizeOf(file)
    const out = openSync(file, 'a')
    const child = spawn(
      join(options.root, 'node_modules/.bin/tsx'),
      ['--conditions=memory-service-source', 'services/cli/src/main.ts', 'start', member.role],
      {
        cwd: options.root,
        env: { ...process.env, ...options.env, KAFKA_CLIENT_ID: `memory-service-${name}`, ...member.env },
        stdio: ['ignore', out, out],
        // Its own process group: tsx runs the service in a child process, and a signal must reach both.
        detached: true,
      },
    )
    closeSync(out)
    children.set(name, child)
    child.once('exit', (code, signal) => {
      if (children.get(name) !== child) return
      children.delete(name)
      // Nobody asked it to stop: say so with what it logged last, or a member gone mid-suite goes unnoticed.
      if (!stopping.has(child))
        progress(
          `${name} exited unexpectedly (${String(code ?? signal)}); its last errors:\n${lastErrors(file)}`,
        )
    })
    const deadline = Date.now() + readyTimeoutMs
    for (;;) {
      if (readFileSync(file, 'utf8').slice(from).includes(readyLine)) break
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `${name} exited before it was ready (${String(child.exitCode ?? child.signalCode)}); see ${file}`,
        )
      }
      if (Date.now() > deadline)
        throw new Error(`${name} not ready within ${String(readyTimeoutMs)} ms; see ${file}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    progress(`${name} ready (pid ${String(child.pid)})${member.http ? ` at ${member.http}` : ''}`)
  }

  async function kill(name: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = children.get(name)
    if (!child) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    stopping.add(child)
    signalGroup(child, signal)
    await exited
    await untilGroupGone(child)
    children.delete(name)
  }

  async function stop(): Promise<void> {
    await Promise.all(
      [...children.keys()].map(async (name) => {
        const child = children.get(name)
        if (!child) return
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
        stopping.add(child)
        signalGroup(child, 'SIGTERM')
        const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 15_000)
        await exited
        await untilGroupGone(child)
        clearTimeout(timer)
      }),
    )
    children.clear()
  }

  try {
    // The owner of ClickHouse first, then everyone else side by side.
    const [first, ...rest] = members
    if (first) await start(first.name)
    await Promise.all(rest.map((member) => start(member.name)))
  } catch (error) {
    await stop()
    throw error
  }
  return {
    members,
    gateways: members.filter((member) => member.role === 'gateway'),
    pid: (name) => children.get(name)?.pid,
    kill,
    start,
    stop,
    logFile,
  }
}

/** The last error lines (pino level 50 and above) of a member's log, for a report. */
export function lastErrors(file: string, count = 5): string {
  return lastLines(file, count, (line) => /^\{"level":[56]0,/.test(line))
}

/** Our own warnings and errors (kafkajs's left out): what a stuck consumer said after an outage's connection noise. */
export function lastWarnings(file: string, count = 5): string {
  return lastLines(
    file,
    count,
    (line) => /^\{"level":[456]0,/.test(line) && !line.includes('"component":"kafkajs"'),
  )
}

function lastLines(file: string, count: number, wanted: (line: string) => boolean): string {
  const lines = readFileSync(file, 'utf8').split('\n').filter(wanted)
  return lines.length === 0
    ? '  (none)'
    : lines
        .slice(-count)
        .map((line) => `  ${line.slice(0, 600)}`)
        .join('\n')
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal)
  } catch {
    child.kill(signal)
  }
}

/** The service process under tsx may outlive tsx by a moment; its port is free once the whole group is gone. */
async function untilGroupGone(child: ChildProcess): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    try {
      if (child.pid === undefined) return
      process.kill(-child.pid, 0)
    } catch {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  signalGroup(child, 'SIGKILL')
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}
