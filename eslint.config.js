import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.venv/**', 'services/contracts/src/generated/**', 'services/language/src/generated/**', 'test-results/**', 'services/console/public/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
      // fastify hooks and handlers are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
      // neo4j-driver and kafkajs take plain option objects where their types name classes.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
    },
  },
  {
    // The domain is pure logic: no I/O, no engine, no clock or network of its own. Ports are passed in by the
    // packages that own the engines (log, read-models, commands) and the composition roots.
    files: ['services/domain/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(node:)?(fs|fs/promises|net|http|https|http2|dgram|dns|child_process|worker_threads|cluster|tls)$',
              message: 'domain does no I/O: take a port as a parameter instead.',
            },
            {
              regex:
                '^(kafkajs|@elastic/.*|neo4j-driver|@clickhouse/.*|chdb|onnxruntime-node|pino.*|fastify|@fastify/.*|@grpc/.*|undici)$',
              message: 'domain knows no engine or transport: they live in engines, log and read-models.',
            },
            {
              regex:
                '^@memory-service/(engines|log|read-models|commands|gateway|pipeline|projectors|cli|client)$',
              message: 'domain depends on contracts only.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'domain does no I/O: take a port as a parameter instead.' },
        { name: 'WebSocket', message: 'domain does no I/O.' },
      ],
    },
  },
  {
    // Asymmetric matchers (expect.any, expect.objectContaining) are typed any by design.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
)
