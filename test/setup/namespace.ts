/**
 * Global setup of the int and e2e projects, after the stack: the run's namespace (vitest.config.ts picks a random one
 * unless MEMORY_SERVICE_NAMESPACE is set) is dropped from the shared cluster at the end, so a test run beside a
 * running product neither takes its records nor leaves topics and indices behind.
 */
import { execFileSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
let dropped = false

export default function setup(): () => void {
  const namespace = process.env.MEMORY_SERVICE_NAMESPACE ?? ''
  console.log(`[test namespace] ${namespace || '(default)'}`)
  return () => {
    // Both projects register this teardown; the first drops the namespace.
    if (dropped || !namespace.startsWith('test-') || process.env.MEMORY_SERVICE_KEEP_NAMESPACE === '1') return
    dropped = true
    try {
      execFileSync(
        join(root, 'node_modules/.bin/tsx'),
        ['--conditions=memory-service-source', 'test/support/dropTestNamespace.ts'],
        { cwd: root, stdio: 'inherit', timeout: 120_000 },
      )
    } catch (error) {
      console.warn(`[test namespace] ${namespace} not dropped: ${(error as Error).message}`)
    }
  }
}
