import type { Client } from '@elastic/elasticsearch'

/**
 * Deletes every document of an index matching a filter, page by page: the Elasticsearch build the stack runs has no
 * delete-by-query. Only what is searchable is found; a caller deleting what was just written refreshes first.
 */
export async function deleteMatchingDocuments(
  client: Client,
  index: string,
  filter: object[],
): Promise<number> {
  let deleted = 0
  for (;;) {
    const page = await client.search({ index, size: 1000, _source: false, query: { bool: { filter } } })
    const ids = page.hits.hits.flatMap((hit) => (hit._id ? [hit._id] : []))
    if (ids.length === 0) return deleted
    const response = await client.bulk({
      operations: ids.map((id) => ({ delete: { _index: index, _id: id } })),
      refresh: true,
    })
    // A delete that failed would come back in the next page forever: stop and let the caller retry.
    const failed = response.items.filter((item) => item.delete?.error && item.delete.status !== 404)
    if (failed.length > 0) {
      throw new Error(
        `${String(failed.length)} of ${String(ids.length)} deletions from ${index} failed: ${failed[0]?.delete?.error?.type ?? '?'} ${failed[0]?.delete?.error?.reason ?? ''}`,
      )
    }
    deleted += ids.length
  }
}

/** Every distinct value of a keyword field among the documents matching a filter, however many (composite pages). */
export async function distinctValuesOf(
  client: Client,
  index: string,
  filter: object[],
  field: string,
): Promise<string[]> {
  const found: string[] = []
  let after: Record<string, string | number | boolean | null> | undefined
  for (;;) {
    const page = await client.search({
      index,
      size: 0,
      query: { bool: { filter } },
      aggs: {
        values: {
          composite: { size: 1000, sources: [{ value: { terms: { field } } }], ...(after ? { after } : {}) },
        },
      },
    })
    const aggregation = page.aggregations?.values as
      { buckets?: { key: { value: string } }[]; after_key?: Record<string, string> } | undefined
    const buckets = aggregation?.buckets ?? []
    for (const bucket of buckets) found.push(bucket.key.value)
    if (buckets.length === 0 || !aggregation?.after_key) return found
    after = aggregation.after_key
  }
}
