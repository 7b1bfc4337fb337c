import { readFileSync } from 'node:fs'
import { Kafka, logLevel as KafkaLogLevel, type LogEntry, type logCreator, type SASLOptions } from 'kafkajs'
import type { ServiceConfig } from '@memory-service/contracts'
import type { Logger } from '../logging/createLogger.js'
import { stopRequestQueueIdleLoop } from './requestQueueIdleLoop.js'

stopRequestQueueIdleLoop()

/** TLS to the brokers: `true` trusts the system's authorities; PEM contents otherwise. */
export type KafkaTls = true | { ca?: string; cert?: string; key?: string }

/** Where the brokers are and how to authenticate, as plain data (it crosses into the event writer's thread). */
export interface KafkaConnection {
  brokers: string[]
  clientId: string
  ssl?: KafkaTls
  sasl?: SASLOptions
}

export interface KafkaConnectionOptions extends KafkaConnection {
  logger: Logger
}

/**
 * The connection the configuration describes, with its PEM files read: TLS when asked for or implied by a CA or a
 * client certificate, SASL when a mechanism is set (loadConfig checked the pairs and that the files are readable).
 */
export function kafkaConnectionOf(kafka: ServiceConfig['kafka'], clientId = kafka.clientId): KafkaConnection {
  const read = (file: string | undefined) => (file === undefined ? undefined : readFileSync(file, 'utf8'))
  const files = { ca: read(kafka.sslCaFile), cert: read(kafka.sslCertFile), key: read(kafka.sslKeyFile) }
  const pem = Object.fromEntries(Object.entries(files).filter(([, value]) => value !== undefined))
  const ssl: KafkaTls | undefined = Object.keys(pem).length > 0 ? pem : kafka.ssl ? true : undefined
  const sasl: SASLOptions | undefined =
    kafka.saslMechanism !== undefined && kafka.saslUsername !== undefined && kafka.saslPassword !== undefined
      ? {
          mechanism: kafka.saslMechanism,
          username: kafka.saslUsername,
          password: kafka.saslPassword,
        }
      : undefined
  return { brokers: kafka.brokers, clientId, ...(ssl ? { ssl } : {}), ...(sasl ? { sasl } : {}) }
}

const toPinoLevel: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [KafkaLogLevel.ERROR]: 'error',
  [KafkaLogLevel.WARN]: 'warn',
  [KafkaLogLevel.INFO]: 'info',
  [KafkaLogLevel.DEBUG]: 'debug',
}

/**
 * Lines kafkajs logs as warnings or errors that need no action: the group coordinator "loading" for a moment
 * after a broker start (retried by kafkajs), and the advice to retry forever for exactly-once transactions,
 * which we do not use (an append fails after bounded retries and the caller answers it as not accepted).
 */
function isExpectedNoise(message: string, error: unknown): boolean {
  return (
    (typeof error === 'string' && /coordinator (is loading|is not available)/i.test(error)) ||
    message.startsWith('Limiting retries for the idempotent producer')
  )
}

/** A kafkajs client whose log lines go through our logger instead of kafkajs's own console output. */
export function createKafka({ brokers, clientId, ssl, sasl, logger }: KafkaConnectionOptions): Kafka {
  const kafkaLogger = logger.child({ component: 'kafkajs' })
  const logCreator: logCreator =
    () =>
    ({ level, log }: LogEntry) => {
      const { message, ...rest } = log
      const pinoLevel = isExpectedNoise(message, rest.error) ? 'debug' : toPinoLevel[level]
      kafkaLogger[pinoLevel ?? 'info'](rest, message)
    }
  return new Kafka({
    brokers,
    clientId,
    ...(ssl !== undefined ? { ssl } : {}),
    ...(sasl !== undefined ? { sasl } : {}),
    logLevel: KafkaLogLevel.WARN,
    logCreator,
    retry: { initialRetryTime: 200, retries: 8 },
  })
}
