import {
  connectLogAndProjections,
  createEmbedder,
  createLeaseStore,
  loadConfig,
  type Embedder,
  type Logger,
} from '@memory-service/engines'
import { createControlPlane, createEventProducer } from '@memory-service/log'
import { AppError, MEMORY_SUBJECT, memoryChangedSchema } from '@memory-service/domain'
import { type ServiceConfig } from '@memory-service/contracts'
import { createMemoryReembedding, type ReembeddingReport } from '@memory-service/commands'
import { createEmbeddingInventory } from '@memory-service/read-models'
import { Command, InvalidArgumentError, Option } from 'commander'
import { example, exitCodes, parseAlone, positiveInteger } from './commandLine.js'
import { logFormatOption, reportingCommandLogger, type LogFormatFlag } from './logFormatOption.js'

interface ReembedOptions extends LogFormatFlag {
  instance?: string
  all?: true
  batch: number
  idleShare: number
}

export interface ReembedPlan {
  /** One instance, or every instance of the deployment. */
  instances: { instance: string } | 'all'
  batch: number
  idleShare: number
}

const maxBatch = 1000

function batchSize(text: string): number {
  const value = positiveInteger(text)
  if (value > maxBatch) throw new InvalidArgumentError(`Expected at most ${String(maxBatch)}.`)
  return value
}

function share(text: string): number {
  const value = Number(text)
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value))
    throw new InvalidArgumentError('Expected a number of at least 0, such as 1 or 0.5.')
  return value
}

/** The options of `reembed`, on the program's subcommand and on the command runReembed parses alone. */
function describeReembed(command: Command): Command {
  return command
    .summary("give an instance's memories the configured embedding model's vectors, through the log, online")
    .description(
      "Give the memories of an instance (or of every instance) whose vectors another embedding model made the vectors of the configured model (EMBEDDINGS_MODEL): each gets an updated event at its next version with the same state and the new vectors, which the projections apply like an edit. Searches keep being served meanwhile; the instance's results mix the two models' vectors until it is done. Run it once the services run the new model. Restartable: memories already at the model are skipped. Prints progress on stderr and one JSON report per instance.",
    )
    .addOption(new Option('--instance <instance_id>', 'the instance to re-embed').conflicts('all'))
    .addOption(new Option('--all', 'every instance of the deployment, one after the other'))
    .addOption(
      new Option('--batch <n>', 'memories embedded and appended together').argParser(batchSize).default(32),
    )
    .addOption(
      new Option(
        '--idle-share <ratio>',
        'pacing: after each batch, pause this many times what it took (0: as fast as it goes)',
      )
        .argParser(share)
        .default(1),
    )
    .addOption(logFormatOption())
    .hook('preAction', (self) => {
      requireInstances(self)
    })
    .addHelpText('after', example('memory-service reembed --instance inst_3f9a2c7e1b4d8a60 --batch 64'))
}

/** Either --instance or --all: commander has conflicts() but no "one of". */
function requireInstances(command: Command): void {
  const { instance, all } = command.opts<ReembedOptions>()
  if (instance === undefined && all === undefined)
    command.error("error: one of the options '--instance <instance_id>' or '--all' is required", {
      exitCode: exitCodes.usage,
      code: 'memory-service.missingRequiredOption',
    })
}

function planOf({ instance, batch, idleShare }: ReembedOptions): ReembedPlan {
  return { instances: instance === undefined ? 'all' : { instance }, batch, idleShare }
}

/** Throws a CommanderError for arguments the command line would refuse. */
export function parseReembedArguments(args: readonly string[]): ReembedPlan {
  const command = parseAlone(describeReembed(new Command('reembed')), args)
  requireInstances(command)
  return planOf(command.opts<ReembedOptions>())
}

export function addReembedCommand(program: Command): void {
  describeReembed(program.command('reembed')).action(async (options: ReembedOptions) => {
    const config = loadConfig()
    const logger = reportingCommandLogger(config, options.logFormat)
    console.log(JSON.stringify(await reembed(config, planOf(options), logger), null, 2))
  })
}

/**
 * Re-embeds the instances the arguments name, one after the other. `embedder` replaces the configured one (a test
 * embeds with a model of another label); it is not closed here.
 */
export async function runReembed(
  config: ServiceConfig,
  args: string[],
  logger: Logger,
  options: { embedder?: Embedder } = {},
): Promise<ReembeddingReport[]> {
  return reembed(config, parseReembedArguments(args), logger, options.embedder)
}

async function reembed(
  config: ServiceConfig,
  plan: ReembedPlan,
  logger: Logger,
  given?: Embedder,
): Promise<ReembeddingReport[]> {
  // Without ClickHouse: it runs next to the services, whose embedded ClickHouse allows one process.
  const engines = connectLogAndProjections(config, logger)
  const closing: (() => Promise<unknown>)[] = [() => engines.close()]
  try {
    const control = await createControlPlane({ kafka: engines.kafka, codec: engines.schemaCodec, logger })
    closing.unshift(() => control.close())
    const instances =
      plan.instances === 'all' ? [...control.state.instances.keys()] : [plan.instances.instance]
    for (const instance of instances)
      if (!control.state.instances.has(instance))
        throw new AppError('INSTANCE_NOT_FOUND', 'Instance not found', { instance_id: instance })
    await engines.schemaCodec.register([{ subject: MEMORY_SUBJECT, schema: memoryChangedSchema }])
    const producer = await createEventProducer(engines.kafka, engines.schemaCodec)
    closing.unshift(() => producer.close())
    let embedder = given
    if (!embedder) {
      const created = await createEmbedder(config.embeddings)
      closing.unshift(() => created.close())
      embedder = created
    }
    const reports: ReembeddingReport[] = []
    for (const instance of instances) {
      let lastLog = 0
      const reembedding = createMemoryReembedding({
        inventory: createEmbeddingInventory(engines.elasticsearch),
        producer,
        embedder,
        batchSize: plan.batch,
        idleShare: plan.idleShare,
        leases: createLeaseStore(engines.elasticsearch),
        onWait: (holder) =>
          logger.info(
            { instance, holder },
            'another re-embedding of this instance is running; waiting for it',
          ),
        onProgress: (progress) => {
          if (performance.now() - lastLog < 2000) return
          lastLog = performance.now()
          logger.info(
            {
              ...progress,
              per_second: Number((progress.reembedded / Math.max(progress.seconds, 0.1)).toFixed(1)),
            },
            're-embedding',
          )
        },
      })
      logger.info({ instance, model: embedder.model }, 're-embedding instance')
      const report = await reembedding.reembed(instance)
      logger.info(report, 'instance re-embedded')
      reports.push(report)
    }
    return reports
  } finally {
    for (const close of closing) await close().catch(() => undefined)
  }
}
