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

/** A kafkajs client whose log lines go through our logger instead of kafkajs's own console output. */
export function createKafka({ brokers, clientId, logger }: KafkaConnectionOptions): Kafka {
  const kafkaLogger = logger.child({ component: 'kafkajs' })
  const logCreator: logCreator =
    () =>
    ({ level, log }: LogEntry) => {
      const { message, ...rest } = log
      // The coordinator reports "loading" for a moment after start; kafkajs retries it, so it is not an error.
      const pinoLevel = rest.error !== undefined && /coordinator/i.test(String(rest.error)) ? 'debug' : toPinoLevel[level]
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
