import type { estypes } from '@elastic/elasticsearch'
import type { MemorySearchRequest } from '@memory-service/contracts'

/**
 * The memories valid at `as_of` (now when absent): true from valid_from on, until valid_to. With include_superseded
 * the ones that stopped being true before that moment stay in (search ranks them last); those not yet true do not.
 */
export function validityFilters(
  request: Pick<MemorySearchRequest, 'as_of' | 'include_superseded'>,
): estypes.QueryDslQueryContainer[] {
  const filters: estypes.QueryDslQueryContainer[] = []
  if (request.as_of !== undefined) {
    filters.push({
      bool: {
        should: [
          { range: { valid_from: { lte: request.as_of } } },
          // Projected before validity existed: true since its document, as its public view says.
          {
            bool: {
              must_not: [{ exists: { field: 'valid_from' } }],
              filter: [{ range: { 'source.document_created_at': { lte: request.as_of } } }],
            },
          },
        ],
        minimum_should_match: 1,
      },
    })
  }
  if (request.include_superseded !== true) {
    filters.push({ bool: { must_not: [{ range: { valid_to: { lte: request.as_of ?? 'now' } } }] } })
  }
  return filters
}

/**
 * The memories not expired at `now`: one whose expires_at has come is left out at that instant, before the expiry
 * sweep appends its deletion (memoryExpiry.ts), so no reader shows it in between.
 */
export function unexpiredFilter(now: Date): estypes.QueryDslQueryContainer {
  return { bool: { must_not: [{ range: { expires_at: { lte: now.toISOString() } } }] } }
}
