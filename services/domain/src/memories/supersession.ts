/**
 * Versions of one fact (memories with the same fact key in one scope, factSlots.ts) ordered by when each became
 * true. A memory stays valid until the next one that states another value: that one supersedes it. A restatement of
 * the same value supersedes nothing, so "when did it change" keeps the first statement's date.
 *
 * The intervals are a function of the set of versions alone, never of the order they arrived in: a history ingested
 * backwards, shuffled or replayed from the log ends in the same state as one ingested as it happened.
 */

export interface FactVersion {
  id: string
  value: string
  /** ISO timestamp. */
  valid_from: string
  valid_to: string | null
  superseded_by: string | null
}

export type Validity = Pick<FactVersion, 'valid_to' | 'superseded_by'>

/** Earlier first; versions that became true at the same moment in a fixed order of their ids. */
function chronological(a: FactVersion, b: FactVersion): number {
  const byTime = Date.parse(a.valid_from) - Date.parse(b.valid_from)
  return byTime !== 0 ? byTime : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/**
 * The validity every version of one fact should have. Versions that became true at the same moment end none of each
 * other: one message's statements of one fact ("we got a puppy!!", "a corgi named Taro") hold together.
 */
export function validityOfVersions(versions: readonly FactVersion[]): Map<string, Validity> {
  const ordered = [...versions].sort(chronological)
  const validity = new Map<string, Validity>()
  ordered.forEach((version, index) => {
    const successor = ordered
      .slice(index + 1)
      .find(
        (later) =>
          later.value !== version.value && Date.parse(later.valid_from) > Date.parse(version.valid_from),
      )
    validity.set(version.id, {
      valid_to: successor ? successor.valid_from : null,
      superseded_by: successor ? successor.id : null,
    })
  })
  return validity
}

/** The versions whose stored validity differs from what the whole set says, with what it should be. */
export function validityChanges(versions: readonly FactVersion[]): { id: string; validity: Validity }[] {
  const wanted = validityOfVersions(versions)
  return versions.flatMap((version) => {
    const validity = wanted.get(version.id)
    if (!validity) return []
    const same =
      sameMoment(validity.valid_to, version.valid_to) && validity.superseded_by === version.superseded_by
    return same ? [] : [{ id: version.id, validity }]
  })
}

function sameMoment(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b
  return Date.parse(a) === Date.parse(b)
}

/**
 * When a memory's fact became true: the date its statement names, else when its document was written (which the
 * gateway sets to the acceptance time when the client did not say).
 */
export function validFromOf(occurredOn: string | null, documentCreatedAt: string): string {
  return occurredOn ? `${occurredOn}T00:00:00.000Z` : new Date(documentCreatedAt).toISOString()
}

/** Whether a memory with this validity holds at `moment` (ISO timestamp). */
export function isValidAt(
  validity: { valid_from: string; valid_to: string | null },
  moment: string,
): boolean {
  const at = Date.parse(moment)
  return (
    Date.parse(validity.valid_from) <= at &&
    (validity.valid_to === null || Date.parse(validity.valid_to) > at)
  )
}
