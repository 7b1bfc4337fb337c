import { afterEach, describe, expect, it, vi } from 'vitest'
import { CommanderError, type Command } from 'commander'
import { allPermissions, permissionPresets } from '@memory-service/domain'
import { exitCodesFooter, runCommandLine } from './commandLine.js'
import { createProgram } from './program.js'
import { parseReplayArguments } from './replayCommand.js'
import { parseReembedArguments } from './reembedCommand.js'
import { parseMcpArguments } from './mcpServer.js'

interface Ran {
  command: string
  options: Record<string, unknown>
  args: unknown[]
}

function leaves(command: Command, path: string[] = []): [string, Command][] {
  if (command.commands.length === 0) return [[path.join(' '), command]]
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]))
}

/**
 * Runs the real program, with every command's action replaced by one that records what it was given: nothing
 * here touches configuration or an engine. `help` keeps its own action.
 */
async function cli(...argv: string[]) {
  let out = ''
  let err = ''
  const program = createProgram({ writeOut: (text) => (out += text), writeErr: (text) => (err += text) })
  const ran: Ran[] = []
  for (const [path, command] of leaves(program)) {
    if (path === 'help') continue
    command.action(() => {
      ran.push({ command: path, options: command.opts(), args: command.processedArgs })
    })
  }
  const code = await runCommandLine(program, argv)
  return { code, out, err, ran }
}

const commandsAndOptions: [string, string[]][] = [
  ['start', ['service', '--log-format <format>']],
  ['config', []],
  ['instances create', ['--name <name>', '--tier <tier>', '--client <cli_…>', '--rpm <n>', '--burst <n>']],
  ['instances list', ['--client <cli_…>', '--page <n>', '--page-size <n>']],
  ['keys create', ['--instance <inst_…>', '--preset <preset>', '--permissions <list>']],
  ['keys list', ['--instance <inst_…>']],
  ['keys rotate', ['--key <key_…>']],
  ['keys revoke', ['--key <key_…>']],
  ['replay', ['--projection <name>', '--from-beginning', '--from <timestamp>', '--log-format <format>']],
  [
    'reembed',
    ['--instance <instance_id>', '--all', '--batch <n>', '--idle-share <ratio>', '--log-format <format>'],
  ],
  ['mcp', ['--user <id>', '--customer <id>']],
  ['dead-letters list', ['--group <consumer-group>']],
  ['dead-letters show', []],
  ['dead-letters redrive', []],
  ['data-keys rewrap', []],
]

describe('help', () => {
  it.each([[['--help']], [['-h']], [['help']], [[]]])('%j lists every command and exits 0', async (argv) => {
    const { code, out, err, ran } = await cli(...argv)
    expect({ code, err, ran }).toEqual({ code: 0, err: '', ran: [] })
    expect(out).toContain('Usage: memory-service [options] [command]')
    for (const command of [
      'start',
      'config',
      'instances',
      'keys',
      'replay',
      'reembed',
      'dead-letters',
      'data-keys',
      'mcp',
      'help',
    ])
      expect(out).toMatch(new RegExp(`^  ${command} `, 'm'))
    expect(out.trimEnd().endsWith(exitCodesFooter)).toBe(true)
  })

  it('lists the commands of a group', async () => {
    const { code, out } = await cli('keys', '--help')
    expect(code).toBe(0)
    for (const action of ['create', 'list', 'rotate', 'revoke'])
      expect(out).toMatch(new RegExp(`^  ${action} `, 'm'))
  })

  it.each(commandsAndOptions)(
    '%s: --help and help print its options and an example',
    async (command, options) => {
      const words = command.split(' ')
      const asked = await cli(...words, '--help')
      expect(asked.code).toBe(0)
      expect(asked.ran).toEqual([])
      expect(asked.out).toContain(`Usage: memory-service ${command} `)
      for (const option of [...options, '-h, --help']) expect(asked.out).toContain(`  ${option}`)
      expect(asked.out).toMatch(new RegExp(`\\nExample:\\n  (\\S+=\\S+ )?memory-service ${command}\\b`))
      expect(asked.out.trimEnd().endsWith(exitCodesFooter)).toBe(true)
      expect(await cli('help', ...words)).toEqual(asked)
    },
  )

  it('marks the required options and shows the choices and defaults of the others', async () => {
    // Descriptions wrap at the width of the terminal.
    const out = (await cli('keys', 'create', '--help')).out.replace(/\s+/g, ' ')
    expect(out).toContain('--instance <inst_…> the instance the key opens (required)')
    expect(out).toContain(
      '--preset <preset> a named set of permissions (choices: "admin", "read-only", "ingest", default: "admin")',
    )
    expect(out).toContain(allPermissions.join(', '))
  })
})

describe('parsing', () => {
  it.each<[string[], Ran]>([
    [['start'], { command: 'start', options: { logFormat: 'auto' }, args: [[]] }],
    [
      ['start', 'gateway', 'projectors', '--log-format', 'json'],
      { command: 'start', options: { logFormat: 'json' }, args: [['gateway', 'projectors']] },
    ],
    [['config'], { command: 'config', options: {}, args: [] }],
    [
      ['instances', 'create', '--name', 'Acme', '--tier', 'enterprise', '--rpm', '1200', '--burst=100'],
      {
        command: 'instances create',
        options: { name: 'Acme', tier: 'enterprise', rpm: 1200, burst: 100 },
        args: [],
      },
    ],
    [
      ['instances', 'create', '--tier', 'free', '--name', 'Acme', '--client', 'cli_1'],
      { command: 'instances create', options: { name: 'Acme', tier: 'free', client: 'cli_1' }, args: [] },
    ],
    [
      ['instances', 'list', '--client', 'cli_1'],
      { command: 'instances list', options: { client: 'cli_1', page: 1, pageSize: 20 }, args: [] },
    ],
    [
      ['instances', 'list', '--client', 'cli_1', '--page', '3', '--page-size', '50'],
      { command: 'instances list', options: { client: 'cli_1', page: 3, pageSize: 50 }, args: [] },
    ],
    [
      ['keys', 'create', '--instance', 'inst_1'],
      { command: 'keys create', options: { instance: 'inst_1', preset: 'admin' }, args: [] },
    ],
    [
      ['keys', 'create', '--instance', 'inst_1', '--preset', 'ingest'],
      { command: 'keys create', options: { instance: 'inst_1', preset: 'ingest' }, args: [] },
    ],
    [
      ['keys', 'create', '--instance', 'inst_1', '--permissions', 'memories:read, events:write'],
      {
        command: 'keys create',
        // The preset's default stays; the action takes the permissions when they were given.
        options: { instance: 'inst_1', preset: 'admin', permissions: ['memories:read', 'events:write'] },
        args: [],
      },
    ],
    [
      ['keys', 'list', '--instance', 'inst_1'],
      { command: 'keys list', options: { instance: 'inst_1' }, args: [] },
    ],
    [['keys', 'rotate', '--key', 'key_1'], { command: 'keys rotate', options: { key: 'key_1' }, args: [] }],
    [['keys', 'revoke', '--key', 'key_1'], { command: 'keys revoke', options: { key: 'key_1' }, args: [] }],
    [
      ['replay', '--projection', 'graph', '--log-format', 'pretty'],
      { command: 'replay', options: { projection: 'graph', logFormat: 'pretty' }, args: [] },
    ],
    [
      ['reembed', '--instance', 'inst_1'],
      {
        command: 'reembed',
        options: { instance: 'inst_1', batch: 32, idleShare: 1, logFormat: 'auto' },
        args: [],
      },
    ],
    [
      ['reembed', '--all', '--batch', '64', '--idle-share', '0.5'],
      { command: 'reembed', options: { all: true, batch: 64, idleShare: 0.5, logFormat: 'auto' }, args: [] },
    ],
    [
      ['mcp', '--user', 'u1', '--customer', 'c1'],
      { command: 'mcp', options: { user: 'u1', customer: 'c1' }, args: [] },
    ],
    [
      ['dead-letters', 'list', '--group', 'memory-projector-vector'],
      { command: 'dead-letters list', options: { group: 'memory-projector-vector' }, args: [] },
    ],
    [['dead-letters', 'show', '0:12'], { command: 'dead-letters show', options: {}, args: ['0:12'] }],
    [['dead-letters', 'redrive', '0:12'], { command: 'dead-letters redrive', options: {}, args: ['0:12'] }],
  ])('%j', async (argv, expected) => {
    expect(await cli(...argv)).toEqual({ code: 0, out: '', err: '', ran: [expected] })
  })

  it('knows the three permission presets', () => {
    expect(Object.keys(permissionPresets)).toEqual(['admin', 'read-only', 'ingest'])
  })
})

describe('usage errors: exit code 2, a message on stderr, nothing run', () => {
  const create = ['instances', 'create', '--name', 'Acme', '--tier', 'enterprise']
  it.each([
    [['moor'], "unknown command 'moor'"],
    [['keys', 'sail'], "unknown command 'sail'"],
    [['help', 'keys', 'sail'], "unknown command 'keys sail'"],
    [['--version'], "unknown option '--version'"],
    [['config', '--verbose'], "unknown option '--verbose'"],
    [['config', 'extra'], 'too many arguments'],
    [['keys', 'rotate'], "required option '--key <key_…>' not specified"],
    [['instances', 'create', '--name', 'Acme'], "required option '--tier <tier>' not specified"],
    [['keys', 'revoke', '--key'], "option '--key <key_…>' argument missing"],
    [['start', '--log-format', 'xml'], "argument 'xml' is invalid. Allowed choices are auto, json, pretty."],
    [['start', 'gateway', 'reader'], "value 'reader' is invalid for argument 'service'"],
    [['instances', 'create', '--name', 'A', '--tier', 'gold'], "argument 'gold' is invalid"],
    [[...create, '--rpm', 'abc', '--burst', '10'], "'--rpm <n>' argument 'abc' is invalid. Expected a whole"],
    [[...create, '--rpm', '1.5', '--burst', '10'], "'--rpm <n>' argument '1.5' is invalid"],
    [['instances', 'list', '--client', 'c', '--page-size', '0'], "argument '0' is invalid"],
    [[...create, '--rpm', '1200'], "option '--rpm' requires option '--burst'"],
    [[...create, '--burst', '100'], "option '--burst' requires option '--rpm'"],
    [
      ['keys', 'create', '--instance', 'i', '--preset', 'ingest', '--permissions', 'memories:read'],
      "option '--preset <preset>' cannot be used with option '--permissions <list>'",
    ],
    [
      ['keys', 'create', '--instance', 'i', '--permissions', 'memories:read,fly'],
      'Unknown permission(s) fly',
    ],
    [['replay', '--projection', 'everything'], "argument 'everything' is invalid"],
    [['replay', '--projection', 'all', '--from', 'yesterday'], 'Expected an ISO-8601 timestamp'],
    [['replay', '--projection', 'all', '--from', '2999-01-01T00:00:00Z'], 'It is in the future.'],
    [
      ['replay', '--projection', 'all', '--from-beginning', '--from', '2020-01-01T00:00:00Z'],
      "option '--from-beginning' cannot be used with option '--from <timestamp>'",
    ],
    [['reembed'], "one of the options '--instance <instance_id>' or '--all' is required"],
    [
      ['reembed', '--all', '--instance', 'inst_1'],
      "option '--instance <instance_id>' cannot be used with option '--all'",
    ],
    [['reembed', '--all', '--batch', '0'], "'--batch <n>' argument '0' is invalid"],
    [['reembed', '--all', '--batch', '5000'], 'Expected at most 1000.'],
    [['reembed', '--all', '--idle-share', '-1'], "'--idle-share <ratio>' argument '-1' is invalid"],
  ])('%j: %s', async (argv, message) => {
    const { code, out, err, ran } = await cli(...argv)
    expect({ code, out, ran }).toEqual({ code: 2, out: '', ran: [] })
    expect(err).toContain(`error: `)
    expect(err).toContain(message)
    expect(err).toContain('(add --help for the usage)')
  })

  it('a group without its command prints the group usage on stderr', async () => {
    const { code, out, err, ran } = await cli('keys')
    expect({ code, out, ran }).toEqual({ code: 2, out: '', ran: [] })
    expect(err).toContain('Usage: memory-service keys [options] [command]')
  })
})

describe('failures at run time', () => {
  it('are thrown for the entry point to report (exit code 1), not taken for usage errors', async () => {
    const program = createProgram({ writeOut: () => undefined, writeErr: () => undefined })
    const config = program.commands.find((command) => command.name() === 'config')
    config?.action(() => {
      throw new Error('the engine is unreachable')
    })
    await expect(runCommandLine(program, ['config'])).rejects.toThrow('the engine is unreachable')
  })
})

describe('runReplay arguments', () => {
  it('rebuilds from the beginning unless --from gives a past time', () => {
    expect(parseReplayArguments(['--projection', 'all'])).toEqual({
      projections: ['vector', 'graph', 'profiles'],
      start: { from: 'beginning' },
    })
    expect(parseReplayArguments(['--projection', 'graph', '--from-beginning'])).toEqual({
      projections: ['graph'],
      start: { from: 'beginning' },
    })
    expect(parseReplayArguments(['--projection', 'vector', '--from', '2026-01-02T03:04:05Z'])).toEqual({
      projections: ['vector'],
      start: { from: 'timestamp', at: new Date('2026-01-02T03:04:05Z') },
    })
  })

  it.each([
    [[], "required option '--projection <name>' not specified"],
    [['--projection', 'vector', '--fast'], "unknown option '--fast'"],
    [['--projection', 'vector', '--from', '2999-01-01T00:00:00Z'], 'It is in the future.'],
    [['--projection', 'vector', '--help'], '(outputHelp)'],
  ])('%j is refused: %s', (args, message) => {
    expect(() => parseReplayArguments(args)).toThrow(CommanderError)
    expect(() => parseReplayArguments(args)).toThrow(message)
  })
})

describe('runReembed arguments', () => {
  it('names one instance or all of them, with the batch and pacing given or their defaults', () => {
    expect(parseReembedArguments(['--instance', 'inst_1'])).toEqual({
      instances: { instance: 'inst_1' },
      batch: 32,
      idleShare: 1,
    })
    expect(parseReembedArguments(['--all', '--batch', '8', '--idle-share', '0'])).toEqual({
      instances: 'all',
      batch: 8,
      idleShare: 0,
    })
  })

  it.each([
    [[], "one of the options '--instance <instance_id>' or '--all' is required"],
    [['--instance', 'inst_1', '--all'], 'cannot be used with'],
    [['--all', '--batch', 'many'], 'Expected a whole number of at least 1.'],
    [['--all', '--idle-share', 'lots'], 'Expected a number of at least 0'],
  ])('%j is refused: %s', (args, message) => {
    expect(() => parseReembedArguments(args)).toThrow(CommanderError)
    expect(() => parseReembedArguments(args)).toThrow(message)
  })
})

describe('runMcpServer arguments', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('serves the user given by --user or MEMORY_SERVICE_USER_ID, and no one by default', () => {
    vi.stubEnv('MEMORY_SERVICE_USER_ID', undefined)
    vi.stubEnv('MEMORY_SERVICE_CUSTOMER_ID', undefined)
    expect(parseMcpArguments(['--user', 'u1', '--customer', 'c1'])).toEqual({
      userId: 'u1',
      customerId: 'c1',
    })
    expect(parseMcpArguments(['--user', 'u1'])).toEqual({ userId: 'u1' })
    expect(() => parseMcpArguments([])).toThrow("required option '--user <id>' not specified")
    vi.stubEnv('MEMORY_SERVICE_USER_ID', 'u2')
    vi.stubEnv('MEMORY_SERVICE_CUSTOMER_ID', 'c2')
    expect(parseMcpArguments([])).toEqual({ userId: 'u2', customerId: 'c2' })
    expect(parseMcpArguments(['--user', 'u1'])).toEqual({ userId: 'u1', customerId: 'c2' })
  })

  it('takes an empty MEMORY_SERVICE_USER_ID for none', () => {
    vi.stubEnv('MEMORY_SERVICE_USER_ID', '')
    expect(() => parseMcpArguments([])).toThrow("from env 'MEMORY_SERVICE_USER_ID' is invalid")
    expect(parseMcpArguments(['--user', 'u1'])).toMatchObject({ userId: 'u1' })
  })
})
