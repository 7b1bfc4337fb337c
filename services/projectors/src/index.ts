import { checkDependencies, type Engines, type Logger } from '@memory-service/shared'

export interface RunningProjectors {
  close(): Promise<void>
}

/**
 * The projectors (Elasticsearch, Neo4j, ClickHouse) as a process of their own. They check every engine they
 * project into before they report ready; the projections themselves are added with the features that read them.
 */
export async function startProjectors(engines: Engines, logger: Logger): Promise<RunningProjectors> {
  const readiness = await checkDependencies(engines.probes)
  if (readiness.status !== 'ready') {
    throw new Error(
      `projectors cannot start: ${JSON.stringify(readiness.checks.filter((check) => check.status === 'down'))}`,
    )
  }
  logger.info({ projections: [] }, 'projectors ready')
  return { close: async () => undefined }
}
