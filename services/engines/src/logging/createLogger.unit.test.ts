import { spawnSync } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { chooseLogFormat } from './createLogger.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')

/** Runs a logger in a process of its own, so what reaches fd 1 and fd 2 can be told apart. */
function logOnce(options: string): { stdout: string; stderr: string } {
  const script = `import { createLogger } from '@memory-service/engines'
createLogger(${options}).info({ answer: 42 }, 'hello')`
  const child = spawnSync(
    resolve(root, 'node_modules/.bin/tsx'),
    ['--conditions=memory-service-source', '--input-type=module', '-e', script],
    { cwd: root, encoding: 'utf8' },
  )
  return { stdout: child.stdout, stderr: child.stderr }
}

describe('createLogger', () => {
  it('writes JSON lines to stdout by default, and only to stderr when asked', () => {
    expect(JSON.parse(logOnce("{ level: 'info', name: 't', format: 'json' }").stdout)).toMatchObject({
      msg: 'hello',
      answer: 42,
    })
    const toStderr = logOnce("{ level: 'info', name: 't', format: 'json', toStderr: true }")
    expect(toStderr.stdout).toBe('')
    expect(JSON.parse(toStderr.stderr)).toMatchObject({ msg: 'hello', answer: 42 })
  })

  it('is pretty on a terminal and JSON anywhere else, unless told', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty')
    expect(chooseLogFormat('auto', false)).toBe('json')
    expect(chooseLogFormat('json', true)).toBe('json')
    expect(chooseLogFormat('pretty', false)).toBe('pretty')
  })
})
