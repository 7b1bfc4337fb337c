import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

// The client library is published on its own: the packed tarball must work without this repository.
const clientDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const root = resolve(clientDir, '../..')
const scratch = mkdtempSync(join(tmpdir(), 'memory-service-client-pack-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the published client package', () => {
  it('packs its build, its proto contract and README, and imports in a project of its own', () => {
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-b', 'services/client'], { cwd: root })
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], {
        cwd: clientDir,
        encoding: 'utf8',
      }),
    ) as { filename: string; files: { path: string }[] }[]
    const files = (packed?.files ?? []).map((file) => file.path)
    for (const expected of [
      'README.md',
      'package.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/agents/aiSdk.js',
      'dist/contracts/index.d.ts',
      'proto/memory/v1/event_stream.proto',
    ])
      expect(files).toContain(expected)
    expect(files.some((file) => file.endsWith('.test.js'))).toBe(false)
    // Nothing refers to the repository's private packages.
    const tarball = join(scratch, packed?.filename ?? '')
    const listing = execFileSync('tar', ['-xOzf', tarball, '--wildcards', 'package/dist/*'], {
      encoding: 'utf8',
    })
    expect(listing).not.toMatch(/@memory-service\/(shared|gateway)/)

    const project = join(scratch, 'project')
    execFileSync('mkdir', ['-p', project])
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', type: 'module', private: true }),
    )
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--omit=peer', tarball], {
      cwd: project,
      stdio: 'ignore',
    })
    const script = `
      import { createMemoryClient, createEventStream, RateLimitError } from '@memory-service/client'
      const client = createMemoryClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' })
      const stream = createEventStream({ address: '127.0.0.1:9', apiKey: 'k' })
      console.log(JSON.stringify([typeof client.memories.search, typeof stream.start, typeof RateLimitError]))`
    writeFileSync(join(project, 'check.mjs'), script)
    expect(JSON.parse(execFileSync('node', ['check.mjs'], { cwd: project, encoding: 'utf8' }))).toEqual([
      'function',
      'function',
      'function',
    ])
    expect(
      JSON.parse(readFileSync(join(project, 'node_modules/@memory-service/client/package.json'), 'utf8')),
    ).toMatchObject({
      name: '@memory-service/client',
    })
  }, 180_000)
})
