import { randomUUID } from 'node:crypto'
import {
  createControlEventFactory,
  isPermission,
  listInstances,
  permissionPresets,
  type Permission,
  type Tier,
} from '@memory-service/domain'
import { createControlPlane } from '@memory-service/log'
import { createKafka, createSchemaCodec } from '@memory-service/engines'
import { createLogger } from '@memory-service/engines'
import { createTenancyCommands } from '@memory-service/commands'
import { type ServiceConfig } from '@memory-service/contracts'

export const tenancyUsage = `  instances create --name NAME --tier free|pro|enterprise [--client cli_…] [--rpm N --burst N]
  instances list --client cli_… [--page N] [--page-size N]
  keys create --instance inst_… [--preset admin|read-only|ingest | --permissions a,b]
  keys list --instance inst_…
  keys rotate --key key_…
  keys revoke --key key_…`

function flag(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args[index + 1] : undefined
}

function required(args: string[], name: string): string {
  const value = flag(args, name)
  if (value === undefined) throw new Error(`--${name} is required\n${tenancyUsage}`)
  return value
}

function permissionsFrom(args: string[]): Permission[] {
  const list = flag(args, 'permissions')
  if (list !== undefined) {
    const names = list.split(',').map((name) => name.trim())
    const unknown = names.filter((name) => !isPermission(name))
    if (unknown.length > 0) throw new Error(`unknown permission(s): ${unknown.join(', ')}`)
    return names as Permission[]
  }
  const preset = flag(args, 'preset') ?? 'admin'
  if (!(preset in permissionPresets)) throw new Error(`unknown preset ${preset}: admin, read-only or ingest`)
  return [...permissionPresets[preset as keyof typeof permissionPresets]]
}

/**
 * `instances …` and `keys …`: operator commands that append control events and print JSON. The read model is
 * rebuilt from the control topic first, so the commands see every earlier change.
 */
export async function runTenancyCommand(
  config: ServiceConfig,
  group: string,
  action: string | undefined,
  args: string[],
) {
  const logger = createLogger({ level: 'warn', name: 'memory-service-cli' })
  const kafka = createKafka({
    brokers: config.kafka.brokers,
    clientId: `${config.kafka.clientId}-cli`,
    logger,
  })
  const control = await createControlPlane({
    kafka,
    codec: createSchemaCodec(config.schemaRegistry.url),
    logger,
  })
  const events = createControlEventFactory()
  const tenancy = createTenancyCommands(control, events)
  const correlationId = `cli-${randomUUID()}`
  try {
    switch (`${group} ${action ?? ''}`) {
      case 'instances create': {
        const tier = required(args, 'tier') as Tier
        const rpm = flag(args, 'rpm')
        const burst = flag(args, 'burst')
        return await tenancy.createInstance(
          {
            clientId: flag(args, 'client') ?? events.newClientId(),
            name: required(args, 'name'),
            tier,
            ...(rpm !== undefined || burst !== undefined
              ? { rateLimit: { requests_per_minute: Number(rpm), burst: Number(burst) } }
              : {}),
          },
          correlationId,
        )
      }
      case 'instances list':
        return listInstances(
          control.state,
          required(args, 'client'),
          Number(flag(args, 'page') ?? 1),
          Number(flag(args, 'page-size') ?? 20),
        )
      case 'keys create':
        return await tenancy.issueKey(required(args, 'instance'), permissionsFrom(args), correlationId)
      case 'keys list':
        return tenancy.listKeys(required(args, 'instance'))
      case 'keys rotate':
        return await tenancy.rotateKey(required(args, 'key'), correlationId)
      case 'keys revoke':
        return await tenancy.revokeKey(required(args, 'key'), correlationId)
      default:
        throw new Error(`unknown command: ${group} ${action ?? ''}\n${tenancyUsage}`)
    }
  } finally {
    await control.close()
  }
}
