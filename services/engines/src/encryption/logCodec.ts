import type { Client } from '@elastic/elasticsearch'
import type { ServiceConfig } from '../config/loadConfig.js'
import type { Logger } from '../logging/createLogger.js'
import {
  createSchemaCodec,
  schemaRegistryConnectionOf,
  type SchemaCodec,
} from '../schemaRegistry/createSchemaCodec.js'
import { createDataKeyStore } from './dataKeyStore.js'
import { createKeyring, DEVELOPMENT_MASTER_KEY, masterKeyFrom, type Keyring } from './keyring.js'
import { createSealingCodec } from './sealingCodec.js'

/** The data keys as the configuration describes them: in the deployment's key index, behind its master key. */
export function keyringOf(
  encryption: ServiceConfig['encryption'],
  elasticsearch: Client,
  logger?: Logger,
): Keyring {
  if (encryption.masterKey === undefined && encryption.enabled) {
    logger?.warn(
      'ENCRYPTION_MASTER_KEY is not set: data keys are wrapped with the public development key; set it (32 random bytes, hex or base64) in production',
    )
  }
  return createKeyring({
    store: createDataKeyStore(elasticsearch),
    master: encryption.masterKey !== undefined ? masterKeyFrom(encryption.masterKey) : DEVELOPMENT_MASTER_KEY,
    // The development key opens what was written without a master key, also after one is configured.
    previousMasters: [...(encryption.previousMasterKeys ?? []).map(masterKeyFrom), DEVELOPMENT_MASTER_KEY],
    cacheMs: encryption.keyCacheMs,
  })
}

/**
 * The codec of the log: the schema registry's framing, with every user's personal content sealed under their data
 * key (or, with ENCRYPTION_ENABLED=false, only opened when an earlier record was sealed).
 */
export function logCodecOf(
  config: ServiceConfig,
  elasticsearch: Client,
  logger?: Logger,
): { codec: SchemaCodec; keyring: Keyring } {
  const keyring = keyringOf(config.encryption, elasticsearch, logger)
  const codec = createSealingCodec(
    createSchemaCodec(schemaRegistryConnectionOf(config.schemaRegistry)),
    keyring,
    {
      seal: config.encryption.enabled,
    },
  )
  return { codec, keyring }
}
