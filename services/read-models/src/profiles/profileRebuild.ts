import type { Client as ElasticsearchClient } from '@elastic/elasticsearch'
import { createElasticsearchStore, loadEngineDeclarations } from '@memory-service/engines'
import { PROFILES_ALIAS } from '@memory-service/domain'
import type { GenerationTarget } from '../rebuild/rebuild.js'
import { indexGenerationTarget, nextIndexGeneration } from '../rebuild/indexGenerations.js'
import { createProfileProjection, type ProfileRow } from './profileProjection.js'

/**
 * The profile's next generation behind its alias, for a rebuild by replay (rebuild.ts reads the log into it, then
 * switches the alias): the profile is a projection of the memories topic like the others, so dropped, it is
 * replayed back.
 */
export async function profileGeneration(client: ElasticsearchClient): Promise<GenerationTarget> {
  const { previous, next } = await nextIndexGeneration(client, PROFILES_ALIAS)
  const declaration = loadEngineDeclarations().indices.find((index) => index.alias === PROFILES_ALIAS)
  if (!declaration)
    throw new Error(`no declaration for ${PROFILES_ALIAS} in infra/elasticsearch/indices.json`)
  const store = createElasticsearchStore<ProfileRow>(client, next)
  await store.ensureIndex(declaration.mappings, declaration.settings)
  const project = createProfileProjection(store)
  return indexGenerationTarget({
    client,
    alias: PROFILES_ALIAS,
    previous,
    next,
    store,
    idField: 'memory_id',
    versionOf: (row) => row.version,
    async apply(events) {
      await project(events)
      return 0
    },
  })
}
