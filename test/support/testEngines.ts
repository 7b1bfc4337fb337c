import { randomBytes } from 'node:crypto'
import { createLogger, loadConfig, type Logger, type ServiceConfig } from '@memory-service/shared'

/** The configuration every test process runs with: the local stack's addresses unless the environment says otherwise. */
export function testConfig(overrides: Partial<NodeJS.ProcessEnv> = {}): ServiceConfig {
  return loadConfig({ ...process.env, ...overrides })
}

/** Topic, index, database and group names carry a random suffix so test files never see each other's data. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`
}

export function testLogger(): Logger {
  return createLogger({ level: testConfig().log.level, name: 'test' })
}

/** Polls until `check` returns a value (not undefined) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      const value = await check()
      if (value !== undefined) return value
    } catch (error) {
      lastError = error
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(
    `condition not met within ${timeoutMs} ms${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
  )
}
