/**
 * The graph projection lives in generations: every Memory, Entity and DeletedMemory node carries a `generation`
 * label value, and one ProjectionState node says which generation readers and the live projector use. A rebuild
 * fills a new generation from the log while the active one keeps serving, then moves the pointer in one write.
 */
export const FIRST_GRAPH_GENERATION = 'g1'

/** Cypher prefix binding `generation` to the active graph generation. */
export const activeGraphGeneration = `MATCH (graphState:ProjectionState {projection: 'graph'})
WITH graphState.generation AS generation`

export const activeGraphGenerationQuery = `${activeGraphGeneration} RETURN generation`

const generationPattern = /^g[1-9][0-9]{0,8}$/

export function isGraphGeneration(value: string): boolean {
  return generationPattern.test(value)
}

/** The generation after `current` (g1 → g2); generation names order by their number. */
export function nextGeneration(current: string): string {
  if (!isGraphGeneration(current)) throw new Error(`not a generation name: ${current}`)
  return `g${String(Number(current.slice(1)) + 1)}`
}
