import { Kafka, logLevel as KafkaLogLevel, type LogEntry, type logCreator } from 'kafkajs'
import type { Logger } from '../logging/createLogger.js'

export interface KafkaConnectionOptions {
  brokers: string[]
  clientId: string
  logger: Logger
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
export function createKafka({ brokers, clientId, logger }: KafkaConnectionOptions): Kafka {
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
    logLevel: KafkaLogLevel.WARN,
    logCreator,
    retry: { initialRetryTime: 200, retries: 8 },
  })
}
