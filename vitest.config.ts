import { defineConfig } from 'vitest/config'

// Workspace packages resolve to their TypeScript sources (the "memory-service-source" export condition; a name of our own, since some published packages export TypeScript sources under "source"), as under tsx.
const conditions = ['memory-service-source', 'node', 'development|production']

const stackSetup = './test/setup/stack.ts'

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['memory-service-source'] } },
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['services/*/src/**/*.unit.test.ts', 'infra/**/*.unit.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: ['services/*/src/**/*.int.test.ts'],
          globalSetup: [stackSetup],
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
          globalSetup: [stackSetup],
          setupFiles: ['./test/setup/engineEnvironment.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each e2e file runs the whole service; two at once would fight over two cores.
          fileParallelism: false,
        },
      },
    ],
  },
})
