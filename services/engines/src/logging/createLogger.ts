import { isatty } from 'node:tty'
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino'
import { traceFieldsOfActiveSpan } from '../telemetry/tracing.js'

export type { Logger }

/** Paths that may carry secrets; pino replaces them before a line is written, whatever the format. */
export const redactedPaths = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'apiKey',
  'api_key',
  '*.apiKey',
  '*.api_key',
  '*.password',
  'password',
]

export const logFormats = ['auto', 'json', 'pretty'] as const
export type LogFormat = (typeof logFormats)[number]

export function isLogFormat(value: string): value is LogFormat {
  return (logFormats as readonly string[]).includes(value)
}

/**
 * `auto` writes for whoever reads: a person at a terminal gets pretty lines; CI, pipes, files and log shippers get
 * one JSON object per line.
 */
export function chooseLogFormat(format: LogFormat, destinationIsTerminal: boolean): 'json' | 'pretty' {
  if (format !== 'auto') return format
  return destinationIsTerminal ? 'pretty' : 'json'
}

export interface CreateLoggerOptions {
  level: LoggerOptions['level']
  name: string
  /** `auto` by default. */
  format?: LogFormat
  /** A file to write to instead of stdout. */
  destination?: string
  /**
   * Log to stderr instead of stdout: for commands whose stdout is their result (a JSON report piped to jq), so
   * that log lines never mix with it.
   */
  toStderr?: boolean
  /**
   * Whether the destination is a terminal. By default fd 1 itself is asked (a file destination never is): unlike
   * process.stdout.isTTY, that also answers right in worker threads, whose process.stdout is a pipe to the main
   * thread. Tests set it so that what they check does not depend on where they run.
   */
  isTerminal?: boolean
}

export function createLogger(options: CreateLoggerOptions): Logger {
  const level = options.level ?? 'info'
  const settings: LoggerOptions = {
    name: options.name,
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { service: options.name },
    // A line written inside a recorded span names its trace (nothing while tracing is off).
    mixin: traceFieldsOfActiveSpan,
  }
  const fd = options.toStderr ? 2 : 1
  const isTerminal = options.isTerminal ?? (options.destination === undefined && isatty(fd))
  // A silent logger never writes: no reason to start the pretty printer's worker thread for it.
  const format = level === 'silent' ? 'json' : chooseLogFormat(options.format ?? 'auto', isTerminal)
  if (format === 'pretty') {
    // pino-pretty runs on pino's transport thread, so formatting costs the serving thread nothing; the lines it
    // receives are already redacted. Synchronous writes there keep the last lines when the process exits.
    // pino's declaration of the transport's class (thread-stream) does not resolve under this project's
    // compiler settings, so it is typed as the destination stream pino takes.
    const prettyPrinter = pino.transport({
      target: 'pino-pretty',
      options: {
        destination: options.destination ?? fd,
        sync: true,
        colorize: isTerminal,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,service',
      },
    }) as DestinationStream
    return pino(settings, prettyPrinter)
  }
  if (options.destination !== undefined || fd !== 1)
    return pino(settings, pino.destination({ dest: options.destination ?? fd, sync: true }))
  return pino(settings)
}
