import { connectLogAndProjections, createEmbedder, loadConfig, type Logger } from '@memory-service/engines'
import { createControlPlane } from '@memory-service/log'
import { type ServiceConfig } from '@memory-service/contracts'
import { createPolicyLookup } from '@memory-service/commands'
import { rebuildProjection, type RebuildReport, type RebuildStart } from '@memory-service/read-models'
import { Command, InvalidArgumentError, Option } from 'commander'
import { example, parseAlone } from './commandLine.js'
import { logFormatOption, reportingCommandLogger, type LogFormatFlag } from './logFormatOption.js'

const projections = {
  vector: ['vector'],
  graph: ['graph'],
  profiles: ['profiles'],
  all: ['vector', 'graph', 'profiles'],
} as const

function pastTimestamp(text: string): Date {
  const at = new Date(text)
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(at.getTime()))
    throw new InvalidArgumentError('Expected an ISO-8601 timestamp such as 2026-11-22T08:00:00Z.')
  if (at.getTime() > Date.now()) throw new InvalidArgumentError('It is in the future.')
  return at
}

interface ReplayOptions extends LogFormatFlag {
  projection: keyof typeof projections
  fromBeginning?: true
  from?: Date
}

export interface ReplayPlan {
  projections: readonly ('vector' | 'graph' | 'profiles')[]
  start: RebuildStart
}

/** The options of `replay`, on the program's subcommand and on the command runReplay parses alone. */
function describeReplay(command: Command): Command {
  return command
    .summary('rebuild projections from the log into a new generation, then switch readers to it')
    .description(
      'Rebuild projections from the log into a new generation, then switch readers to it. Prints one JSON report per projection; the services keep serving from the old generation meanwhile.',
    )
    .addOption(
      new Option(
        '--projection <name>',
        'the projection to rebuild; all rebuilds vector, graph, then profiles (required)',
      )
        .choices(Object.keys(projections))
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--from-beginning', 'replay the whole log (what happens without --from)').conflicts('from'),
    )
    .addOption(
      new Option(
        '--from <timestamp>',
        'copy the serving generation, then replay only the events since this ISO-8601 time',
      ).argParser(pastTimestamp),
    )
    .addOption(logFormatOption())
    .addHelpText('after', example('memory-service replay --projection all --from 2026-11-22T08:00:00Z'))
}

function planOf({ projection, from }: ReplayOptions): ReplayPlan {
  return {
    projections: projections[projection],
    start: from === undefined ? { from: 'beginning' } : { from: 'timestamp', at: from },
  }
}

/** Throws a CommanderError for arguments the command line would refuse. */
export function parseReplayArguments(args: readonly string[]): ReplayPlan {
  return planOf(parseAlone(describeReplay(new Command('replay')), args).opts<ReplayOptions>())
}

export function addReplayCommand(program: Command): void {
  describeReplay(program.command('replay')).action(async (options: ReplayOptions) => {
    const config = loadConfig()
    const logger = reportingCommandLogger(config, options.logFormat)
    console.log(JSON.stringify(await rebuild(config, planOf(options), logger), null, 2))
  })
}

/** Rebuilds the named projections one after the other; each switches its readers when it has caught up. */
export async function runReplay(
  config: ServiceConfig,
  args: string[],
  logger: Logger,
): Promise<RebuildReport[]> {
  return rebuild(config, parseReplayArguments(args), logger)
}

async function rebuild(
  config: ServiceConfig,
  { projections: names, start }: ReplayPlan,
  logger: Logger,
): Promise<RebuildReport[]> {
  // Without ClickHouse: a rebuild runs next to the services, whose embedded ClickHouse allows one process.
  const engines = connectLogAndProjections(config, logger)
  const embedder = await createEmbedder(config.embeddings)
  // Each instance's active configuration says which of its memories the projections store.
  const control = await createControlPlane({ kafka: engines.kafka, codec: engines.schemaCodec, logger })
  const policyOf = createPolicyLookup(control, {
    model: config.embeddings.model,
    dimension: config.embeddings.dimension,
  })
  try {
    const reports: RebuildReport[] = []
    for (const projection of names) {
      reports.push(await rebuildProjection(engines, { projection, start, embedder, logger, policyOf }))
    }
    return reports
  } finally {
    await control.close()
    await embedder.close()
    await engines.close()
  }
}
