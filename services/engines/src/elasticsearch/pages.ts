import type { estypes } from '@elastic/elasticsearch'

/** The `from` and `size` of a 1-based page of a sorted search. */
export function pageWindow(page: number, pageSize: number): { from: number; size: number } {
  return { from: (page - 1) * pageSize, size: pageSize }
}

/** How many documents matched: Elasticsearch answers a number or `{ value }` depending on the request (0 when absent). */
export function totalHitsOf(total: estypes.SearchTotalHits | number | undefined): number {
  return typeof total === 'number' ? total : (total?.value ?? 0)
}

/** The sources of a page of hits, leaving out the hits that came without one. */
export function sourcesOf<T>(hits: estypes.SearchHit<T>[]): T[] {
  return hits.flatMap((hit) => (hit._source ? [hit._source] : []))
}
