import { Option } from 'commander'
import { logFormats, type LogFormat } from '@memory-service/engines'

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
