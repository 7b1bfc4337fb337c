import { execFileSync } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

describe('generated contract types', () => {
  it('and the OpenAPI document match schemas/, proto/ and the route schemas (run `npm run gen` after changing one)', () => {
    const run = () =>
      execFileSync(
        resolve(root, 'node_modules/.bin/tsx'),
        ['--conditions=memory-service-source', 'infra/codegen/main.ts', '--check'],
        {
          cwd: root,
          encoding: 'utf8',
          stdio: 'pipe',
        },
      )
    expect(run).not.toThrow()
    // A process of its own that loads every route of the gateway to build the OpenAPI document (compiling each
    // response schema): 24 s in a CI run of 2026-12-02 beside the other unit files, over the unit project's 20 s.
  }, 90_000)
})
