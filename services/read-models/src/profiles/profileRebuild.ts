import type { Client as ElasticsearchClient, estypes } from '@elastic/elasticsearch'
import { createElasticsearchStore, loadEngineDeclarations } from '@memory-service/engines'
import { PROFILES_ALIAS } from '@memory-service/domain'
import type { GenerationTarget } from '../rebuild/rebuild.js'
import { createProfileProjection, type ProfileRow } from './profileProjection.js'

const generationNumber = (index: string) => Number(/-g(\d+)$/.exec(index)?.[1] ?? Number.NaN)

/**
 * The profile's next generation behind its alias, for a rebuild by replay (rebuild.ts reads the log into it, then
 * switches the alias): the profile is a projection of the memories topic like the others, so dropped, it is
 * replayed back.
 */
export async function profileGeneration(client: ElasticsearchClient): Promise<GenerationTarget> {
  const aliased = Object.keys(await client.indices.getAlias({ name: PROFILES_ALIAS }))
  const previous = aliased.sort((a, b) => generationNumber(b) - generationNumber(a))[0]
  if (!previous || Number.isNaN(generationNumber(previous)))
    throw new Error(`${PROFILES_ALIAS} points at no generation index; run provisioning (npm start) first`)
  const existing = Object.keys(
    await client.indices.get({ index: `${PROFILES_ALIAS}-g*`, expand_wildcards: 'all' }),
  )
  for (const index of existing) if (!aliased.includes(index)) await client.indices.delete({ index })
  const next = `${PROFILES_ALIAS}-g${String(generationNumber(previous) + 1)}`
  const declaration = loadEngineDeclarations().indices.find((index) => index.alias === PROFILES_ALIAS)
  if (!declaration)
    throw new Error(`no declaration for ${PROFILES_ALIAS} in infra/elasticsearch/indices.json`)
  const store = createElasticsearchStore<ProfileRow>(client, next)
  await store.ensureIndex(declaration.mappings, declaration.settings)
  const project = createProfileProjection(store)
  return {
    previous,
    next,
    async copyPrevious() {
      let copied = 0
      let after: estypes.SortResults | undefined
      for (;;) {
        const page = await client.search<ProfileRow>({
          index: previous,
          size: 1000,
          sort: [{ memory_id: 'asc' }],
          ...(after ? { search_after: after } : {}),
          query: { match_all: {} },
        })
        const hits = page.hits.hits
        if (hits.length === 0) return copied
        const { written, skipped } = await store.upsert(
          hits.flatMap((hit) =>
            hit._source
              ? [{ id: hit._source.memory_id, version: hit._source.version, document: hit._source }]
              : [],
          ),
        )
        copied += written + skipped
        after = hits[hits.length - 1]?.sort
      }
    },
    async apply(events) {
      await project(events)
      return 0
    },
    async switchReaders() {
      await client.indices.refresh({ index: next })
      await client.indices.updateAliases({
        actions: [
          { remove: { index: previous, alias: PROFILES_ALIAS } },
          { add: { index: next, alias: PROFILES_ALIAS, is_write_index: true } },
        ],
      })
    },
    async dropPrevious() {
      await client.indices.delete({ index: previous }, { ignore: [404] })
    },
  }
}
