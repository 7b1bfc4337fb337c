import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { testConfig, testLogger } from '../../../../test/support/testEngines.js'
import { connectEngines } from '../connectEngines.js'

const directory = mkdtempSync(join(tmpdir(), 'clickhouse-directory-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const root = resolve(import.meta.dirname, '../../../..')
/** Runs the fixture in a process of its own; resolves with its first line once it printed one. */
function openInAnotherProcess(holdMs: number): { firstLine: Promise<string>; exited: Promise<void> } {
  const child = spawn(
    resolve(root, 'node_modules/.bin/tsx'),
    [
      '--conditions=memory-service-source',
      resolve(root, 'test/support/openClickhouseDirectory.ts'),
      directory,
      String(holdMs),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] },
  )
  let output = ''
  const firstLine = new Promise<string>((resolveLine) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('\n')) resolveLine(output.split('\n')[0] ?? '')
    })
  })
  const exited = new Promise<void>((resolveExit) => child.on('exit', () => resolveExit()))
  return { firstLine, exited }
}

describe('the in-process ClickHouse and its data directory', () => {
  it('a second process on the directory is refused with a message that says why and what to do', async () => {
    const holder = openInAnotherProcess(20_000)
    expect(await holder.firstLine).toBe('open')
    const second = openInAnotherProcess(0)
    const refusal = await second.firstLine
    expect(refusal).toMatch(/^refused: ClickHouse could not open its data directory .*another process/)
    expect(refusal).toContain('CLICKHOUSE_URL')
    await second.exited
  }, 60_000)

  it('a process whose services do not use ClickHouse does not open it (and reports no ClickHouse check)', async () => {
    const config = testConfig()
    const engines = await connectEngines(
      { ...config, clickhouse: { ...config.clickhouse, dataPath: directory } },
      testLogger(),
      { clickhouse: false },
    )
    try {
      expect(engines.clickhouse).toBeUndefined()
      expect(Object.keys(engines.probes).sort()).toEqual([
        'elasticsearch',
        'kafka',
        'neo4j',
        'schema_registry',
      ])
    } finally {
      await engines.close()
    }
  })
})
