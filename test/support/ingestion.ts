import type { MemoryClient } from '@memory-service/client'
import type { IngestionStatus } from '@memory-service/contracts'
import { eventually } from './testEngines.js'

/** The job of an accepted document once it is `completed` (memories formed and searchable). */
export function completedJob(
  client: Pick<MemoryClient, 'memories'>,
  ingestionId: string,
): Promise<IngestionStatus> {
  return eventually(async () => {
    const status = await client.memories.status(ingestionId)
    return status.status === 'completed' ? status : undefined
  }, 60_000)
}
