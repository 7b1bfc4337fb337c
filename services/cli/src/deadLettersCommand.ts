import { connectLog, createLogger, loadConfig } from '@memory-service/engines'
import { createDeadLetterInbox, type DeadLetterInbox } from '@memory-service/log'
import { type Command } from 'commander'
import { example } from './commandLine.js'

/** Opens the dead-letter topic, prints what `act` returns as JSON, and fails (exit 1) when it returns nothing. */
async function printFromInbox(
  act: (inbox: DeadLetterInbox) => Promise<unknown>,
  missing: string,
): Promise<void> {
  const config = loadConfig()
  const logger = createLogger({ level: 'warn', name: 'memory-service-cli', toStderr: true })
  const { kafka, schemaCodec } = connectLog(config, logger, `${config.kafka.clientId}-cli`)
  const inbox = createDeadLetterInbox({ kafka, codec: schemaCodec })
  try {
    const result = await act(inbox)
    if (result === undefined) throw new Error(missing)
    console.log(JSON.stringify(result, null, 2))
  } finally {
    await inbox.close()
  }
}

/** `dead-letters list|show|redrive`: what the pipeline and the projections parked, and sending it back. */
export function addDeadLetterCommands(program: Command): void {
  const letters = program
    .command('dead-letters')
    .summary('records the pipeline or a projection gave up on: list, show, redrive')
    .description(
      'Records the pipeline or a projection gave up on, parked in mem.dead-letter.v1 with where they came from and why. All print JSON.',
    )
  letters
    .command('list')
    .description(
      'every letter, oldest first: its id, original topic/partition/offset, consumer group, errors',
    )
    .option('--group <consumer-group>', 'only the letters of this consumer group')
    .addHelpText('after', example('memory-service dead-letters list --group memory-projector-vector'))
    .action((options: { group?: string }) =>
      printFromInbox((inbox) => inbox.list(options.group === undefined ? {} : { group: options.group }), ''),
    )
  letters
    .command('show')
    .description('one letter with its record decoded')
    .argument('<id>', 'the letter id from list (<partition>:<offset>)')
    .addHelpText('after', example('memory-service dead-letters show 0:12'))
    .action((id: string) => printFromInbox((inbox) => inbox.show(id), `no dead letter ${id}`))
  letters
    .command('redrive')
    .description(
      "append the letter's record unchanged to its original topic again (after fixing the cause); a record that still fails is parked again",
    )
    .argument('<id>', 'the letter id from list (<partition>:<offset>)')
    .addHelpText('after', example('memory-service dead-letters redrive 0:12'))
    .action((id: string) => printFromInbox((inbox) => inbox.redrive(id), `no dead letter ${id}`))
}
