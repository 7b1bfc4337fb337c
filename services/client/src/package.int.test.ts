import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

// The client library is published with its contract types (@memory-service/contracts): the two packed tarballs
// must work without this repository.
const clientDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const root = resolve(clientDir, '../..')
const contractsDir = resolve(root, 'services/contracts')
const scratch = mkdtempSync(join(tmpdir(), 'memory-service-client-pack-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the published client package', () => {
  it('packs its build, its proto contract and README, and imports in a project of its own', () => {
    // A clean build: what an earlier layout left in dist/ must not be packed.
    for (const dir of [clientDir, contractsDir]) rmSync(join(dir, 'dist'), { recursive: true, force: true })
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-b', 'services/client'], { cwd: root })
    const pack = (dir: string) =>
      (
        JSON.parse(
          execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], {
            cwd: dir,
            encoding: 'utf8',
          }),
        ) as { filename: string; files: { path: string }[] }[]
      )[0]
    const contracts = pack(contractsDir)
    expect((contracts?.files ?? []).map((file) => file.path)).toContain('dist/generated/index.d.ts')
    const packed = pack(clientDir)
    const files = (packed?.files ?? []).map((file) => file.path)
    for (const expected of [
      'README.md',
      'package.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/agents/aiSdk.js',
      'proto/memory/v1/event_stream.proto',
    ])
      expect(files).toContain(expected)
    expect(files.some((file) => file.endsWith('.test.js'))).toBe(false)
    // Nothing refers to the repository's private packages.
    const tarball = join(scratch, packed?.filename ?? '')
    const listing = execFileSync('tar', ['-xOzf', tarball, '--wildcards', 'package/dist/*'], {
      encoding: 'utf8',
    })
    // (@memory-service/proto is only the checkout's fallback when no proto/ was packed.)
    expect(listing).not.toMatch(/@memory-service\/(domain|engines|log|read-models|commands|gateway|schemas)/)

    const project = join(scratch, 'project')
    execFileSync('mkdir', ['-p', project])
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', type: 'module', private: true }),
    )
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--omit=peer',
        join(scratch, contracts?.filename ?? ''),
        tarball,
      ],
      {
        cwd: project,
        stdio: 'ignore',
      },
    )
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
