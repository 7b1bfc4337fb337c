import { pino, type Logger, type LoggerOptions } from 'pino'

export type { Logger }

/** Paths that may carry secrets; pino replaces them before a line is written. */
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

export function createLogger(options: { level: LoggerOptions['level']; name: string }): Logger {
  return pino({
    name: options.name,
    level: options.level ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { service: options.name },
  })
}
