/**
 * The pipeline's two lanes in one process (docs/decisions.md, "Interactive and bulk lanes"). Documents of the
 * interactive lane are formed as they come; a document of the bulk lane waits, before each stage that takes the
 * processor, while an interactive document still needs it. A bulk document already inside a stage finishes it, so an
 * interactive document waits at most for one stage of the bulk documents in flight, never for the bulk backlog; and
 * the bulk lane goes on while an interactive document only writes and waits for its projection.
 *
 * Order between the lanes is not needed for correctness: the versions of a fact are settled from their statements'
 * times, whatever order they are formed in (supersession.ts in the domain).
 */

/** How one document shares the processor (documentPipeline.ts calls these). */
export interface StageTurns {
  /** Awaited before each stage that takes the processor. */
  waitTurn(): Promise<void>
  /** The document no longer needs the processor: what is left writes and waits. Called once or more. */
  doneWithProcessor(): void
}

export interface LaneScheduler {
  /** The turns of an interactive document: from now until `doneWithProcessor`, bulk stages hold back. */
  interactiveTurns(): StageTurns
  /** The turns of a bulk document: each stage waits while any interactive document needs the processor. */
  bulkTurns(): StageTurns
  /** Interactive documents needing the processor, and bulk stages held back now (for metrics and tests). */
  state(): { interactive: number; heldBack: number }
}

export function createLaneScheduler(): LaneScheduler {
  let interactive = 0
  let heldBack: (() => void)[] = []
  const letBulkGo = () => {
    const waiting = heldBack
    heldBack = []
    for (const resume of waiting) resume()
  }
  const bulkTurn = (): Promise<void> =>
    interactive === 0 ? Promise.resolve() : new Promise<void>((resolve) => heldBack.push(resolve))
  const nothing = () => undefined
  return {
    interactiveTurns() {
      interactive += 1
      let done = false
      return {
        waitTurn: () => Promise.resolve(),
        doneWithProcessor() {
          if (done) return
          done = true
          interactive -= 1
          if (interactive === 0) letBulkGo()
        },
      }
    },
    bulkTurns: () => ({ waitTurn: bulkTurn, doneWithProcessor: nothing }),
    state: () => ({ interactive, heldBack: heldBack.length }),
  }
}

/** A document outside any lane (tests, tools): it never waits. */
export const freeTurns: StageTurns = { waitTurn: () => Promise.resolve(), doneWithProcessor: () => undefined }
