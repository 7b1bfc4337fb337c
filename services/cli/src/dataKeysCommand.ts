import { createElasticsearchClient, createLogger, keyringOf, loadConfig } from '@memory-service/engines'
import { type Command } from 'commander'
import { example } from './commandLine.js'

/**
 * Wraps every data key with the current master key: the second step of a master key rotation (set the new key as
 * ENCRYPTION_MASTER_KEY and the old one in ENCRYPTION_PREVIOUS_MASTER_KEYS on every process, run this, then drop
 * the old key). Prints JSON; fails (exit 1) when a key could not be unwrapped by any configured master key.
 */
async function rewrap(): Promise<void> {
  const config = loadConfig()
  const logger = createLogger({ level: 'warn', name: 'memory-service-cli', toStderr: true })
  const elasticsearch = createElasticsearchClient(config.elasticsearch)
  try {
    const report = await keyringOf(config.encryption, elasticsearch, logger).rewrapAll()
    console.log(JSON.stringify(report, null, 2))
    if (report.unreadable > 0) {
      throw new Error(
        `${String(report.unreadable)} data key(s) are wrapped by a master key that is not configured: add it to ENCRYPTION_PREVIOUS_MASTER_KEYS and run again`,
      )
    }
  } finally {
    await elasticsearch.close()
  }
}

/** `data-keys rewrap`: the master key rotation's step that touches the stored keys. */
export function addDataKeyCommands(program: Command): void {
  const keys = program
    .command('data-keys')
    .summary("the users' data keys that seal their content in the log: rewrap")
    .description(
      "The data keys that seal each user's personal content in the log, stored wrapped by the master key (docs/security.md).",
    )
  keys
    .command('rewrap')
    .description(
      'wrap every data key with ENCRYPTION_MASTER_KEY (keys wrapped by a key in ENCRYPTION_PREVIOUS_MASTER_KEYS are unwrapped with it); prints JSON counts',
    )
    .addHelpText(
      'after',
      `${example('memory-service data-keys rewrap')}\n\nRotating the master key: give every process the new key as ENCRYPTION_MASTER_KEY and the old one in\nENCRYPTION_PREVIOUS_MASTER_KEYS, run this, then remove the old key.`,
    )
    .action(() => rewrap())
}
