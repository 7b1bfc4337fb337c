import { connectLogAndProjections, createLogger, loadConfig } from '@memory-service/engines'
import { createControlPlane } from '@memory-service/log'
import { createPolicyLookup } from '@memory-service/commands'
import { verifyProjections, type VerifiedProjection, type VerifyReport } from '@memory-service/read-models'
import type { ServiceConfig } from '@memory-service/contracts'
import { Option, type Command } from 'commander'
import { example, exitCodes } from './commandLine.js'

const projections: Record<string, readonly VerifiedProjection[]> = {
  vector: ['vector'],
  graph: ['graph'],
  conversations: ['conversations'],
  all: ['vector', 'graph', 'conversations'],
}

/** Compares live projections with the log; resolves the reports (drift is in them, not thrown). */
export async function runVerify(
  config: ServiceConfig,
  options: { projection: string; instance?: string },
): Promise<VerifyReport[]> {
  const logger = createLogger({ level: 'warn', name: 'memory-service-cli', toStderr: true })
  const engines = connectLogAndProjections(config, logger)
  // Each instance's active configuration says which of its memories the vector and graph projections keep.
  const control = await createControlPlane({ kafka: engines.kafka, codec: engines.schemaCodec, logger })
  try {
    return await verifyProjections(engines, {
      projections: projections[options.projection] ?? [],
      ...(options.instance === undefined ? {} : { instanceId: options.instance }),
      policyOf: createPolicyLookup(control, {
        model: config.embeddings.model,
        dimension: config.embeddings.dimension,
      }),
    })
  } finally {
    await control.close()
    await engines.close()
  }
}

export function addVerifyCommand(program: Command): void {
  program
    .command('verify')
    .summary('compare the live projections with the log and report drift')
    .description(
      'Compare the live projections with the log: for each instance, the entries a fresh rebuild would write against those the store holds, as a count and a content hash. Prints one JSON report per projection; exits with 3 when any projection drifted. Run it once the consumer lag is zero (GET /readyz): a projection still catching up shows as drift.',
    )
    .addOption(
      new Option('--projection <name>', 'the projection to verify')
        .choices(Object.keys(projections))
        .default('all'),
    )
    .addOption(new Option('--instance <instance_id>', 'only this instance'))
    .addHelpText('after', example('memory-service verify --projection all --instance inst_3f9a2c7e1b4d8a60'))
    .action(async (options: { projection: string; instance?: string }) => {
      const reports = await runVerify(loadConfig(), options)
      console.log(JSON.stringify(reports, null, 2))
      if (reports.some((report) => report.drift.length > 0)) process.exitCode = exitCodes.drift
    })
}
