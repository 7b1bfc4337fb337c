import type { Client as ElasticsearchClient, estypes } from '@elastic/elasticsearch'
import type { ElasticsearchStore } from '@memory-service/engines'
import type { GenerationTarget } from './rebuild.js'

const generationNumber = (index: string) => Number(/-g(\d+)$/.exec(index)?.[1] ?? Number.NaN)

/**
 * The index serving behind an alias and the name of the one a rebuild builds next (`<alias>-g<n+1>`). Generations an
 * interrupted rebuild left behind serve nobody and are deleted first.
 */
export async function nextIndexGeneration(
  client: ElasticsearchClient,
  alias: string,
): Promise<{ previous: string; next: string }> {
  const aliased = Object.keys(await client.indices.getAlias({ name: alias }))
  const previous = aliased.sort((a, b) => generationNumber(b) - generationNumber(a))[0]
  if (!previous || Number.isNaN(generationNumber(previous)))
    throw new Error(`${alias} points at no generation index; run provisioning (npm start) first`)
  const existing = Object.keys(await client.indices.get({ index: `${alias}-g*`, expand_wildcards: 'all' }))
  for (const index of existing) if (!aliased.includes(index)) await client.indices.delete({ index })
  return { previous, next: `${alias}-g${String(generationNumber(previous) + 1)}` }
}

/**
 * A rebuild target of one Elasticsearch index generation behind an alias: seeded page by page from the previous
 * generation at the documents' versions (the integration build of Elasticsearch has no _reindex), switched by one
 * atomic alias swap, the previous one dropped.
 */
export function indexGenerationTarget<Document extends object>(options: {
  client: ElasticsearchClient
  alias: string
  previous: string
  next: string
  store: ElasticsearchStore<Document>
  /** The field the copy pages on and the store's id. */
  idField: keyof Document & string
  versionOf: (document: Document) => number
  /** Vectors are excluded from _source by default; a copy needs them. */
  withVectors?: boolean
  apply: GenerationTarget['apply']
}): GenerationTarget {
  const { client, alias, previous, next, store, idField } = options
  return {
    previous,
    next,
    async copyPrevious() {
      let copied = 0
      let after: estypes.SortResults | undefined
      for (;;) {
        const page = await client.search<Document>(
          {
            index: previous,
            size: 1000,
            sort: [{ [idField]: 'asc' }],
            ...(after ? { search_after: after } : {}),
            query: { match_all: {} },
          },
          options.withVectors ? { querystring: { _source_exclude_vectors: false } } : {},
        )
        const hits = page.hits.hits
        if (hits.length === 0) return copied
        const { written, skipped } = await store.upsert(
          hits.flatMap(({ _source: document }) =>
            document
              ? [{ id: String(document[idField]), version: options.versionOf(document), document }]
              : [],
          ),
        )
        copied += written + skipped
        after = hits[hits.length - 1]?.sort
      }
    },
    apply: options.apply,
    async switchReaders() {
      // Searchers see everything written so far from the first request after the switch.
      await client.indices.refresh({ index: next })
      await client.indices.updateAliases({
        actions: [
          { remove: { index: previous, alias } },
          { add: { index: next, alias, is_write_index: true } },
        ],
      })
    },
    async dropPrevious() {
      await client.indices.delete({ index: previous }, { ignore: [404] })
    },
  }
}
