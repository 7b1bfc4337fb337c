import { checkDependencies, type Engines, type Logger } from '@memory-service/shared'

export interface RunningPipeline {
  close(): Promise<void>
}

/**
 * The pipeline worker (extraction → categorization → entity resolution → storage) as a process of its own.
 * It checks the engines it writes to before it reports ready; its consumers are added with the memory pipeline.
 */
export async function startPipeline(engines: Engines, logger: Logger): Promise<RunningPipeline> {
  const { kafka, schema_registry } = engines.probes
  const readiness = await checkDependencies({ kafka, schema_registry })
  if (readiness.status !== 'ready') {
    throw new Error(
      `pipeline worker cannot start: ${JSON.stringify(readiness.checks.filter((check) => check.status === 'down'))}`,
    )
  }
  logger.info({ consumers: [] }, 'pipeline worker ready')
  return { close: async () => undefined }
}
