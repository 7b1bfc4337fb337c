import { invalidInput } from '@memory-service/domain'

/**
 * The longest path parameter the router accepts, in UTF-16 code units after percent-decoding (the router measures a
 * JavaScript string). The longest identifier a path carries is a conversation or user id of 200 characters (code
 * points, as JSON Schema counts them), which takes up to 400 code units when every character is outside the Basic
 * Multilingual Plane (emoji). A longer segment is answered 414 before any route runs and never costs a lookup; one
 * within this limit but over 200 characters is refused by the route's schema (400 INVALID_INPUT).
 */
export const maxPathParamLength = 400

/** Elasticsearch pages no deeper than this (index.max_result_window): lists kept there stop at this item. */
export const deepestListedItem = 10_000

/** What a list route kept in Elasticsearch says of its depth in the OpenAPI. */
export const pageDepthDescription = `page × page_size may not exceed ${deepestListedItem.toLocaleString('en-US')} (otherwise 400 INVALID_INPUT naming page)`

/** Refuses a page deeper than Elasticsearch answers, naming `page`, before any query is built. */
export function checkPageDepth(page: number, pageSize: number, instead = 'narrow the filters instead'): void {
  if (page * pageSize > deepestListedItem)
    throw invalidInput(
      { page: `page × page_size may not exceed ${String(deepestListedItem)}; ${instead}` },
      'Page out of range',
    )
}
