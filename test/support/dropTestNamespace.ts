/**
 * Drops the test run's namespace (MEMORY_SERVICE_NAMESPACE, `test-…` only) from the shared cluster. Run by
 * test/setup/namespace.ts as a child process, which resolves workspace sources the way tsx does.
 */
import {
  createElasticsearchClient,
  createKafka,
  createLogger,
  createNeo4jDriver,
  createNeo4jStore,
  dropDeployment,
  loadConfig,
} from '@memory-service/engines'
import { deployment } from '@memory-service/domain'

// The fault suite drops its own `faults-…` namespace the same way, and the benchmarks that keep no data theirs
// (`bench-scale-…`, `bench-fairness`) before they run.
if (!/^(test|faults|bench)-/.test(deployment.namespace)) {
  console.error(
    `[test namespace] ${deployment.namespace || '(default)'} is not a test or fault-suite namespace; nothing dropped`,
  )
  process.exit(1)
}
const config = loadConfig(process.env)
const logger = createLogger({ level: 'warn', name: 'test-namespace' })
const elasticsearch = createElasticsearchClient(config.elasticsearch)
const neo4j = createNeo4jStore(createNeo4jDriver(config.neo4j), config.neo4j.database)
try {
  const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'test-namespace', logger })
  const dropped = await dropDeployment({ kafka, elasticsearch, neo4j }, deployment)
  console.log(`[test namespace] dropped ${deployment.namespace}: ${JSON.stringify(dropped)}`)
} finally {
  await Promise.all([neo4j.close(), elasticsearch.close()])
}
