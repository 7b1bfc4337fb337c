import type { estypes } from '@elastic/elasticsearch'
import type { FilterComparison, FilterField, MemoryFilter } from '@memory-service/domain'

type Query = estypes.QueryDslQueryContainer

/** Where each field lives in the memories index. */
const indexedFields: Record<
  Exclude<FilterField, `metadata.${string}` | 'entity_name' | 'content'>,
  string
> = {
  type: 'type',
  entity_id: 'entity_ids',
  user_id: 'scope.user_id',
  customer_id: 'scope.customer_id',
  document_type: 'source.document_type',
  ingestion_id: 'source.ingestion_id',
  created_at: 'created_at',
  updated_at: 'updated_at',
  valid_from: 'valid_from',
  valid_to: 'valid_to',
  expires_at: 'expires_at',
  feedback: 'feedback.rating',
  confidence: 'confidence',
}

const not = (query: Query): Query => ({ bool: { must_not: [query] } })

/** A wildcard pattern that matches the text anywhere, its own wildcard characters taken literally. */
const anywhere = (text: string): string => `*${text.replace(/[\\*?]/g, (character) => `\\${character}`)}*`

/** A comparison on a plain field: keywords by term, dates and numbers by range. */
function fieldQuery(field: string, comparison: FilterComparison): Query {
  switch (comparison.op) {
    case 'eq':
      return { term: { [field]: comparison.value } }
    case 'ne':
      return not({ term: { [field]: comparison.value } })
    case 'in':
      return { terms: { [field]: comparison.values } }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return { range: { [field]: { [comparison.op]: comparison.value } } }
    case 'exists':
      return comparison.value ? { exists: { field } } : not({ exists: { field } })
    case 'contains':
      return { match_phrase: { [field]: comparison.value } }
  }
}

/**
 * Metadata: equality and membership on the flattened field (every value as a keyword, so `3` equals `"3"`);
 * bounds and `contains` on the typed copies (metadata_values), which compare numbers as numbers, dates as instants
 * and look inside strings.
 */
function metadataQuery(path: string, comparison: FilterComparison): Query {
  const field = `metadata.${path}`
  const typed = (query: Query): Query => ({
    nested: {
      path: 'metadata_values',
      query: { bool: { filter: [{ term: { 'metadata_values.path': path } }, query] } },
    },
  })
  switch (comparison.op) {
    case 'eq':
    case 'ne':
    case 'in': {
      const values = comparison.op === 'in' ? comparison.values : [comparison.value]
      const query: Query = { terms: { [field]: values.map(String) } }
      return comparison.op === 'ne' ? not(query) : query
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return typed({ range: { [`metadata_values.${comparison.as}`]: { [comparison.op]: comparison.value } } })
    case 'contains':
      return typed({
        wildcard: { 'metadata_values.text': { value: anywhere(comparison.value), case_insensitive: true } },
      })
    case 'exists':
      return comparison.value ? { exists: { field } } : not({ exists: { field } })
  }
}

/** The filter as an Elasticsearch query (no scripts): and → filter, or → should, not → must_not. */
export function memoryFilterQuery(filter: MemoryFilter): Query {
  if ('and' in filter) return { bool: { filter: filter.and.map(memoryFilterQuery) } }
  if ('or' in filter) return { bool: { should: filter.or.map(memoryFilterQuery), minimum_should_match: 1 } }
  if ('not' in filter) return not(memoryFilterQuery(filter.not))
  const { field, comparison } = filter
  if (field.startsWith('metadata.')) return metadataQuery(field.slice('metadata.'.length), comparison)
  if (field === 'entity_name') {
    // Names compare by identity (entityKey: case, spacing, accents, "the" and titles aside); `contains` finds a phrase.
    return comparison.op === 'contains'
      ? { match_phrase: { entity_names: comparison.value } }
      : fieldQuery('entity_name_keys', comparison)
  }
  if (field === 'content') return fieldQuery('content', comparison)
  return fieldQuery(indexedFields[field as keyof typeof indexedFields], comparison)
}
