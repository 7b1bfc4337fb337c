/** `start` runs services in this process; `config` shows what they would be configured with. */
import { Argument, type Command } from 'commander'
import { createLogger, listConfigVariables, loadConfig } from '@memory-service/engines'
import { serviceNames, startServices, type ServiceName } from './startServices.js'
import { example } from './commandLine.js'
import { logFormatOption, type LogFormatFlag } from './logFormatOption.js'

export function addServiceCommands(program: Command): void {
  program
    .command('start')
    .summary(`run services in this process (default: all of ${serviceNames.join(', ')})`)
    .description(
      'Run services in this process. Configuration comes from environment variables (memory-service config lists them). The process stops on SIGINT or SIGTERM.',
    )
    .addArgument(
      new Argument('[service...]', 'the services to run; all of them when none is named').choices(
        serviceNames,
      ),
    )
    .addOption(logFormatOption())
    .addHelpText('after', example('memory-service start gateway --log-format json'))
    .action(startAction)
  program
    .command('config')
    .description('print the validated configuration and the environment variables it reads')
    .addHelpText('after', example('memory-service config'))
    .action(printConfig)
}

async function startAction(services: ServiceName[], options: LogFormatFlag): Promise<void> {
  const names: readonly ServiceName[] = services.length > 0 ? services : serviceNames
  const config = loadConfig()
  const logger = createLogger({
    level: config.log.level,
    name: 'memory-service',
    format: options.logFormat,
  })
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
  if (running.addresses.http) {
    lines.push(`  REST     ${running.addresses.http}  (GET /healthz, GET /readyz)`)
    lines.push(`  console  ${running.addresses.http}/console  (sign in with an API key)`)
  }
  if (running.addresses.grpc)
    lines.push(`  gRPC     ${running.addresses.grpc}  (memory.v1.EventStream, grpc.health.v1.Health)`)
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
    JSON.stringify(
      config,
      (key, value: unknown) => (/password|apikey|secret|masterkey/i.test(key) ? '[redacted]' : value),
      2,
    ),
  )
  console.log('\nenvironment variables:')
  for (const { variable, path } of listConfigVariables()) console.log(`  ${variable.padEnd(24)} ${path}`)
}
