import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// Every test run is a deployment of its own on the shared stack (topics, groups, indices, graph carry the namespace),
// so `npm test` beside a running `npm start` takes none of its records; test/setup/namespace.ts drops it at the end.
process.env.MEMORY_SERVICE_NAMESPACE ??= `test-${randomBytes(4).toString('hex')}`

// Workspace packages resolve to their TypeScript sources (the "memory-service-source" export condition; a name of our own, since some published packages export TypeScript sources under "source"), as under tsx.
const conditions = ['memory-service-source', 'node', 'development|production']

const stackSetup = ['./test/setup/stack.ts', './test/setup/namespace.ts']

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['memory-service-source'] } },
  test: {
    // Unit and integration files run two at a time even on two cores (vitest's default there is one): the
    // integration files mostly wait on the engines, so a second worker halves that part of the run.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'services/*/src/**/*.unit.test.ts',
            'infra/**/*.unit.test.ts',
            'test/eval/**/*.unit.test.ts',
          ],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: ['services/*/src/**/*.int.test.ts'],
          globalSetup: stackSetup,
          setupFiles: ['./test/setup/engineEnvironment.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          globalSetup: stackSetup,
          setupFiles: ['./test/setup/engineEnvironment.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each e2e file runs the whole service; two at once would fight over two cores.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // The console in headless Chromium against the real stack (skipped, saying why, without a Chromium).
          name: 'browser',
          include: ['test/browser/**/*.browser.test.ts'],
          globalSetup: [...stackSetup, './test/setup/consoleBuild.ts'],
          setupFiles: ['./test/setup/engineEnvironment.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          // After the other projects: its services join the same consumer groups as an e2e file's would, so the two
          // must not run at once (an e2e file's documents would be handled by this file's pipeline).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
