/**
 * `npm run start:cluster`: the stack, then two gateways, two pipeline workers and two projector processes in the
 * foreground, each logging to <state dir>/cluster/<name>.log. Ctrl-C stops them all.
 */
import { join, resolve } from 'node:path'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '@memory-service/engines'
import { startCluster } from './cluster.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const started = Date.now()
const progress = (message: string): void => {
  console.log(`[cluster ${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${message}`)
}

const logDir = join(loadConfig().stateDir, 'cluster')
progress(`starting 6 processes; logs in ${logDir}`)
const cluster = await startCluster({ root, logDir, onProgress: progress })
console.log(`
Memory Service cluster ready (namespace ${process.env.MEMORY_SERVICE_NAMESPACE || 'default'}):
${cluster.members
  .map(
    (member) =>
      `  ${member.name.padEnd(13)} pid ${String(cluster.pid(member.name)).padEnd(8)}${member.http ? ` REST ${member.http}  gRPC ${member.grpc ?? ''}` : ''}`,
  )
  .join('\n')}
  Analytics: gateway-1 owns the in-process ClickHouse; gateway-2 forwards analytics reads to it.
Ctrl-C stops every process.`)
let stopping = false
const stop = (): void => {
  if (stopping) return
  stopping = true
  progress('stopping')
  void cluster.stop().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
