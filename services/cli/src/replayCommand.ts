import { connectLogAndProjections, createEmbedder, type Logger } from '@memory-service/engines'
import { createControlPlane } from '@memory-service/log'
import { type ServiceConfig } from '@memory-service/contracts'
import { createPolicyLookup } from '@memory-service/projectors'
import { rebuildProjection, type RebuildReport, type RebuildStart } from '@memory-service/read-models'

export const replayUsage = `  replay --projection vector|graph|all [--from-beginning | --from <ISO timestamp>]
                      rebuild projections from the log into a new generation, then switch readers to it`

const projections = { vector: ['vector'], graph: ['graph'], all: ['vector', 'graph'] } as const

export function parseReplayArguments(args: string[]): {
  projections: readonly ('vector' | 'graph')[]
  start: RebuildStart
} {
  const valueOf = (flag: string) => {
    const at = args.indexOf(flag)
    return at >= 0 ? args[at + 1] : undefined
  }
  const known = new Set(['--projection', '--from', '--from-beginning'])
  const unknown = args.filter((arg, index) => arg.startsWith('--') && !known.has(arg) && index >= 0)
  if (unknown.length > 0) throw new Error(`unknown option(s): ${unknown.join(', ')}\n${replayUsage}`)
  const projection = valueOf('--projection')
  if (projection === undefined || !(projection in projections))
    throw new Error(`--projection must be vector, graph or all\n${replayUsage}`)
  const from = valueOf('--from')
  const fromBeginning = args.includes('--from-beginning')
  if (from !== undefined && fromBeginning) throw new Error(`--from and --from-beginning exclude each other`)
  let start: RebuildStart = { from: 'beginning' }
  if (from !== undefined) {
    const at = new Date(from)
    if (!/^\d{4}-\d{2}-\d{2}/.test(from) || Number.isNaN(at.getTime()))
      throw new Error(`--from needs an ISO-8601 timestamp such as 2026-11-22T08:00:00Z, not ${from}`)
    if (at.getTime() > Date.now()) throw new Error(`--from ${from} is in the future`)
    start = { from: 'timestamp', at }
  }
  return { projections: projections[projection as keyof typeof projections], start }
}

/** Rebuilds the named projections one after the other; each switches its readers when it has caught up. */
export async function runReplay(
  config: ServiceConfig,
  args: string[],
  logger: Logger,
): Promise<RebuildReport[]> {
  const { projections: names, start } = parseReplayArguments(args)
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
