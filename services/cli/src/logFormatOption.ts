import { Option } from 'commander'
import {
  createLogger,
  logFormats,
  type Logger,
  type LogFormat,
  type ServiceConfig,
} from '@memory-service/engines'

/** For the commands that log while they work; the logger is created with the chosen format. */
export function logFormatOption(): Option {
  return new Option(
    '--log-format <format>',
    'log lines as JSON or pretty; auto: pretty on a terminal, JSON otherwise',
  )
    .choices(logFormats)
    .default('auto' satisfies LogFormat)
}

export interface LogFormatFlag {
  logFormat: LogFormat
}

/** The logger of a command whose stdout carries its JSON report only (so it can be piped): log lines go to stderr. */
export function reportingCommandLogger(config: ServiceConfig, format: LogFormat): Logger {
  return createLogger({ level: config.log.level, name: 'memory-service', format, toStderr: true })
}
