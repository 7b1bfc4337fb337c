import { randomUUID } from 'node:crypto'
import {
  allPermissions,
  createControlEventFactory,
  isPermission,
  listInstances,
  permissionPresets,
  type Permission,
  type PermissionPreset,
  type Tier,
} from '@memory-service/domain'
import { createControlPlane } from '@memory-service/log'
import { connectLog, createLogger, loadConfig } from '@memory-service/engines'
import { createTenancyCommands } from '@memory-service/commands'
import { Option, InvalidArgumentError, type Command } from 'commander'
import { example, positiveInteger, requiresOption } from './commandLine.js'

const tiers = ['free', 'pro', 'enterprise'] as const satisfies readonly Tier[]
const presets = Object.keys(permissionPresets) as PermissionPreset[]

function permissionList(text: string): Permission[] {
  const names = text.split(',').map((name) => name.trim())
  const unknown = names.filter((name) => !isPermission(name))
  if (unknown.length > 0)
    throw new InvalidArgumentError(
      `Unknown permission(s) ${unknown.join(', ')}; known: ${allPermissions.join(', ')}.`,
    )
  return names as Permission[]
}

interface InstancesCreateOptions {
  name: string
  tier: Tier
  client?: string
  rpm?: number
  burst?: number
}

interface KeysCreateOptions {
  instance: string
  preset: PermissionPreset
  permissions?: Permission[]
}

type TenancySession = {
  tenancy: ReturnType<typeof createTenancyCommands>
  control: Awaited<ReturnType<typeof createControlPlane>>
  events: ReturnType<typeof createControlEventFactory>
  correlationId: string
}

/**
 * Operator commands append control events and print JSON. The read model is rebuilt from the control topic first,
 * so each command sees every earlier change.
 */
async function printTenancyResult(act: (session: TenancySession) => unknown): Promise<void> {
  const config = loadConfig()
  const logger = createLogger({ level: 'warn', name: 'memory-service-cli', toStderr: true })
  const { kafka, schemaCodec } = connectLog(config, logger, `${config.kafka.clientId}-cli`)
  const control = await createControlPlane({ kafka, codec: schemaCodec, logger })
  const events = createControlEventFactory()
  const session = {
    tenancy: createTenancyCommands(control, events),
    control,
    events,
    correlationId: `cli-${randomUUID()}`,
  }
  try {
    console.log(JSON.stringify(await act(session), null, 2))
  } finally {
    await control.close()
  }
}

/** `instances create|list` and `keys create|list|rotate|revoke`. */
export function addTenancyCommands(program: Command): void {
  const instances = program
    .command('instances')
    .summary('instances: create one (with its first API key) or list those of a client')
    .description('Instances: create one (with its first API key) or list those of a client. Both print JSON.')

  const create = instances
    .command('create')
    .description(
      'create an instance and its first API key (admin permissions); prints both, the key this once',
    )
    .requiredOption('--name <name>', 'what operators call the instance (required)')
    .addOption(
      new Option('--tier <tier>', 'the plan, which sets the rate limits (required)')
        .choices(tiers)
        .makeOptionMandatory(),
    )
    .option('--client <cli_…>', 'the client that owns the instance (default: a new client)')
    .option(
      '--rpm <n>',
      'requests per minute per API key; enterprise tier only, with --burst',
      positiveInteger,
    )
    .option('--burst <n>', 'requests allowed at once above the steady rate; with --rpm', positiveInteger)
    .addHelpText(
      'after',
      example(
        'memory-service instances create --name "Acme support" --tier enterprise --rpm 1200 --burst 100',
      ),
    )
    .action((options: InstancesCreateOptions) =>
      printTenancyResult(({ tenancy, events, correlationId }) =>
        tenancy.createInstance(
          {
            clientId: options.client ?? events.newClientId(),
            name: options.name,
            tier: options.tier,
            ...(options.rpm !== undefined && options.burst !== undefined
              ? { rateLimit: { requests_per_minute: options.rpm, burst: options.burst } }
              : {}),
          },
          correlationId,
        ),
      ),
    )
  requiresOption(create, 'rpm', 'burst')
  requiresOption(create, 'burst', 'rpm')

  instances
    .command('list')
    .description('list the instances of a client, oldest first, one page')
    .requiredOption('--client <cli_…>', 'the client whose instances to list (required)')
    .option('--page <n>', 'the page to print, from 1', positiveInteger, 1)
    .option('--page-size <n>', 'instances per page', positiveInteger, 20)
    .addHelpText('after', example('memory-service instances list --client cli_8d2e4f6a1c3b5d70 --page 2'))
    .action((options: { client: string; page: number; pageSize: number }) =>
      printTenancyResult(({ control }) =>
        listInstances(control.state, options.client, options.page, options.pageSize),
      ),
    )

  const keys = program
    .command('keys')
    .summary('API keys of an instance: create, list, rotate, revoke')
    .description(
      'API keys of an instance: issue, list, rotate, revoke. All print JSON; a new key appears once and is stored only as a hash.',
    )

  keys
    .command('create')
    .description('issue an API key for an instance; prints it this once (only its hash is stored)')
    .requiredOption('--instance <inst_…>', 'the instance the key opens (required)')
    .addOption(
      new Option('--preset <preset>', 'a named set of permissions')
        .choices(presets)
        .default('admin')
        .conflicts('permissions'),
    )
    .option(
      '--permissions <list>',
      `the permissions, comma-separated, instead of a preset: ${allPermissions.join(', ')}`,
      permissionList,
    )
    .addHelpText(
      'after',
      example('memory-service keys create --instance inst_3f9a2c7e1b4d8a60 --preset read-only'),
    )
    .action((options: KeysCreateOptions) =>
      printTenancyResult(({ tenancy, correlationId }) =>
        tenancy.issueKey(
          options.instance,
          options.permissions ?? permissionPresets[options.preset],
          correlationId,
        ),
      ),
    )

  keys
    .command('list')
    .description('list the keys of an instance: ids, permissions and status, never the keys')
    .requiredOption('--instance <inst_…>', 'the instance whose keys to list (required)')
    .addHelpText('after', example('memory-service keys list --instance inst_3f9a2c7e1b4d8a60'))
    .action((options: { instance: string }) =>
      printTenancyResult(({ tenancy }) => tenancy.listKeys(options.instance)),
    )

  keys
    .command('rotate')
    .description('replace a key by a new one with the same permissions; the old one stops working now')
    .requiredOption('--key <key_…>', 'the id of the key to replace (required)')
    .addHelpText('after', example('memory-service keys rotate --key key_5b1e9c3a7d2f4e80'))
    .action((options: { key: string }) =>
      printTenancyResult(({ tenancy, correlationId }) => tenancy.rotateKey(options.key, correlationId)),
    )

  keys
    .command('revoke')
    .description('revoke a key; requests with it are refused from now on')
    .requiredOption('--key <key_…>', 'the id of the key to revoke (required)')
    .addHelpText('after', example('memory-service keys revoke --key key_5b1e9c3a7d2f4e80'))
    .action((options: { key: string }) =>
      printTenancyResult(({ tenancy, correlationId }) => tenancy.revokeKey(options.key, correlationId)),
    )
}
