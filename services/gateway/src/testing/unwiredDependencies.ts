import { emptyControlState } from '@memory-service/domain'
import { createLogger } from '@memory-service/engines'
import type { AppDependencies } from '../app.js'

/**
 * A stand-in for a dependency a test (or the OpenAPI generator) does not use: reading any property of it gives
 * another stand-in, and calling one throws, naming what was called. `then` is absent so it is not taken for a
 * promise. Typed `never` so that it stands in for any dependency.
 */
function unwired(name: string): never {
  const notWired = (): never => {
    throw new Error(`${name} is not wired in this test; pass it to unwiredDependencies({ ... })`)
  }
  const standIn: unknown = new Proxy(notWired, {
    get(_target, property): unknown {
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') return undefined
      return unwired(`${name}.${property}`)
    },
    apply: notWired,
  })
  return standIn as never
}

/**
 * Every dependency of `buildApp`, for tests and for `npm run gen`: a silent logger, a control plane with no instance
 * (every key is unknown), and for the rest stand-ins that throw "not wired in this test" when called. Every route is
 * registered; a test passes only what its requests reach.
 */
export function unwiredDependencies(overrides: Partial<AppDependencies> = {}): AppDependencies {
  return {
    logger: createLogger({ level: 'silent', name: 'test' }),
    control: { state: emptyControlState() },
    checkReadiness: unwired('checkReadiness'),
    tenancy: unwired('tenancy'),
    events: unwired('events'),
    documents: unwired('documents'),
    bulkBacklog: unwired('bulkBacklog'),
    jobs: unwired('jobs'),
    memories: unwired('memories'),
    search: unwired('search'),
    analytics: unwired('analytics'),
    configs: unwired('configs'),
    conversations: unwired('conversations'),
    erasure: unwired('erasure'),
    profiles: unwired('profiles'),
    webhooks: unwired('webhooks'),
    ...overrides,
  }
}
