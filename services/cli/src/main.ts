/**
 * `memory-service` command line: `start [gateway|pipeline|projectors …]` runs the named services (all of them by
 * default) in this process.
 */
import { ConfigError, createLogger, listConfigVariables, loadConfig } from '@memory-service/engines'
import { AppError, toErrorBody } from '@memory-service/domain'
import { isServiceName, serviceNames, startServices, type ServiceName } from './startServices.js'
import { replayUsage, runReplay } from './replayCommand.js'
import { mcpUsage, runMcpServer } from './mcpServer.js'
import { runTenancyCommand, tenancyUsage } from './tenancyCommandLine.js'

const usage = `usage: memory-service <command>

commands:
  start [service …]   run services in this process (default: all of ${serviceNames.join(', ')})
  config              print the validated configuration and the environment variables it reads
${tenancyUsage}
${replayUsage}
${mcpUsage}
  help                this text

Instance and key commands print JSON; a new API key appears in their output once and is stored only as a hash.`

async function start(args: string[]): Promise<void> {
  const unknown = args.filter((arg) => !isServiceName(arg))
  if (unknown.length > 0) throw new Error(`unknown service(s): ${unknown.join(', ')}\n${usage}`)
  const names: readonly ServiceName[] = args.length > 0 ? (args as ServiceName[]) : serviceNames
  const config = loadConfig()
  const logger = createLogger({ level: config.log.level, name: 'memory-service' })
  const running = await startServices(config, names, logger, { bootstrapDevelopmentInstance: true })
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  const lines = [`Memory Service ready: ${names.join(', ')}`]
  if (running.addresses.http) lines.push(`  REST  ${running.addresses.http}  (GET /healthz, GET /readyz)`)
  if (running.addresses.grpc)
    lines.push(`  gRPC  ${running.addresses.grpc}  (memory.v1.EventStream, grpc.health.v1.Health)`)
  const dev = running.developmentInstance
  if (dev) {
    lines.push(
      '',
      `Created a development instance ${dev.instance.instance_id} (client ${dev.instance.client_id}, tier ${dev.instance.tier}).`,
      `Its API key is shown this once; only its hash is stored:`,
      `  ${dev.api_key.key}`,
      `  curl -H "Authorization: Bearer ${dev.api_key.key}" ${running.addresses.http ?? ''}/dashboard/instances`,
    )
  }
  console.log(lines.join('\n'))
}

function printConfig(): void {
  const config = loadConfig()
  console.log(
    JSON.stringify(config, (key, value: unknown) => (/password/i.test(key) ? '[redacted]' : value), 2),
  )
  console.log('\nenvironment variables:')
  for (const { variable, path } of listConfigVariables()) console.log(`  ${variable.padEnd(24)} ${path}`)
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv
  switch (command) {
    case 'start':
      return start(args)
    case 'config':
      return printConfig()
    case 'instances':
    case 'keys': {
      const [action, ...rest] = args
      try {
        console.log(JSON.stringify(await runTenancyCommand(loadConfig(), command, action, rest), null, 2))
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        console.error(JSON.stringify(toErrorBody(error, 'cli'), null, 2))
        process.exitCode = 1
      }
      return
    }
    case 'replay': {
      const config = loadConfig()
      const logger = createLogger({ level: config.log.level, name: 'memory-service' })
      console.log(JSON.stringify(await runReplay(config, args, logger), null, 2))
      return
    }
    case 'mcp':
      return runMcpServer(args)
    case 'help':
    case undefined:
      console.log(usage)
      return
    default:
      throw new Error(`unknown command: ${command}\n${usage}`)
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error)
  process.exit(1)
})
