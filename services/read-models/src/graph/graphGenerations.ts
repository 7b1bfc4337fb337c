/**
 * The graph projection lives in generations: every Memory, Entity and DeletedMemory node carries a `generation`
 * label value, and one ProjectionState node says which generation readers and the live projector use. A rebuild
 * fills a new generation from the log while the active one keeps serving, then moves the pointer in one write.
 * A deployment's namespace prefixes its generation names (`staging/g1`) and keys its pointer (`graph/staging`), so
 * deployments sharing one Neo4j never see, or drop, each other's nodes.
 */
import { deployment } from '@memory-service/domain'

const { generationPrefix, stateKey } = deployment.graph

export const FIRST_GRAPH_GENERATION = `${generationPrefix}g1`

/** The ProjectionState node of this deployment's graph (the key is a namespace: [a-z0-9/-] only, safe inline). */
export const graphStateNode = `(graphState:ProjectionState {projection: '${stateKey}'})`

/** Cypher prefix binding `generation` to the active graph generation. */
export const activeGraphGeneration = `MATCH ${graphStateNode}
WITH graphState.generation AS generation`

export const activeGraphGenerationQuery = `${activeGraphGeneration} RETURN generation`

/** A Cypher regular expression (`=~`, whole value) matching this deployment's generation names and no other's. */
export const graphGenerationPattern = `${generationPrefix}g[1-9][0-9]{0,8}`

const generationPattern = new RegExp(`^${graphGenerationPattern}$`)

export function isGraphGeneration(value: string): boolean {
  return generationPattern.test(value)
}

/** The generation after `current` (g1 → g2); generation names order by their number. */
export function nextGeneration(current: string): string {
  if (!isGraphGeneration(current)) throw new Error(`not a generation name: ${current}`)
  return `${generationPrefix}g${String(Number(current.slice(generationPrefix.length + 1)) + 1)}`
}
