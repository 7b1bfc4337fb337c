import type { Client, estypes } from '@elastic/elasticsearch'
import { PROFILES_ALIAS } from '@memory-service/domain'
import { holdsSeveral } from '@memory-service/language'
import { sourcesOf } from '@memory-service/engines'
import type { ProfileRow } from './profileProjection.js'

export interface ProfileScope {
  user_id: string
  customer_id?: string | null
}

/** A value an attribute held before the current one. */
export interface ReplacedValue {
  value: string
  memory_id: string
  valid_from: string
  valid_to: string | null
}

/** One attribute of one person: its value at the moment asked, since when, the memory stating it, what it replaced. */
export interface ProfileAttribute {
  attribute: string
  value: string
  since: string
  memory_id: string
  content: string
  replaced: ReplacedValue[]
}

export interface Profile {
  user_id: string
  as_of: string | null
  /** Each person the user's memories tell facts of (the user's own side is usually one), by their attributes. */
  subjects: { subject: string; attributes: ProfileAttribute[] }[]
}

/** Rows read for one profile at most: a user's facts, every version of each. */
const maxRows = 2000
/** Values a profile attribute lists as replaced, newest first. */
const maxReplaced = 5

const heldAt = (row: ProfileRow, moment: number) =>
  Date.parse(row.valid_from) <= moment && (row.valid_to === null || Date.parse(row.valid_to) > moment)

/** The attributes of a set of rows at a moment: per key, the version in force, and the versions before it. */
export function attributesAt(
  rows: readonly ProfileRow[],
  moment: number,
): Map<string, ProfileAttribute & { subject: string }> {
  const byKey = new Map<string, ProfileRow[]>()
  for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row])
  const attributes = new Map<string, ProfileAttribute & { subject: string }>()
  for (const [key, versions] of byKey) {
    const ordered = [...versions].sort((a, b) => Date.parse(b.valid_from) - Date.parse(a.valid_from))
    const current = ordered.find((row) => heldAt(row, moment))
    if (!current) continue
    const seen = new Set([current.value])
    const replaced = ordered
      .filter((row) => Date.parse(row.valid_from) < Date.parse(current.valid_from))
      .filter((row) => !seen.has(row.value) && seen.add(row.value))
      .slice(0, maxReplaced)
      .map((row) => ({
        value: row.value,
        memory_id: row.memory_id,
        valid_from: row.valid_from,
        valid_to: row.valid_to,
      }))
    // A value held since an earlier restatement: its first statement in the unbroken run says since when.
    const run = ordered.slice(ordered.indexOf(current)).filter((row) => row.value === current.value)
    const since = run.reduce(
      (earliest, row) => (row.valid_from < earliest ? row.valid_from : earliest),
      current.valid_from,
    )
    attributes.set(key, {
      subject: current.subject,
      attribute: current.attribute,
      value: current.value,
      since,
      memory_id: current.memory_id,
      content: current.content,
      replaced,
    })
  }
  return attributes
}

/**
 * The values of an attribute that answer a question about what holds, newest first: of the people the question
 * names (else of every person). Of an attribute a person holds one value of, a reading that was not sure enough to
 * replace the value (its key names its value: "my sister moved to Lisbon", read as doubtful) does not answer while a
 * value they stated for sure holds.
 */
export function answering(
  attributes: ReadonlyMap<string, ProfileAttribute & { subject: string }>,
  attribute: string,
  subjects: readonly string[],
): (ProfileAttribute & { subject: string })[] {
  const isSure = (key: string) => key.split('|').length === 2
  const sure = new Set([...attributes].filter(([key]) => isSure(key)).map(([, held]) => held.subject))
  const held = [...attributes]
    .filter(([key, { subject }]) => holdsSeveral(attribute) || isSure(key) || !sure.has(subject))
    .map(([, value]) => value)
  const named = held.filter(({ subject }) => subjects.includes(subject))
  return (named.length > 0 ? named : held).sort((a, b) => b.since.localeCompare(a.since))
}

/** User profiles, read from the profile projection (mem-profiles). */
export function createProfiles(client: Client, index: string = PROFILES_ALIAS) {
  async function rowsOf(
    instanceId: string,
    scope: ProfileScope,
    extra: estypes.QueryDslQueryContainer[] = [],
  ) {
    const filter: estypes.QueryDslQueryContainer[] = [
      { term: { instance_id: instanceId } },
      { term: { user_id: scope.user_id } },
      ...(scope.customer_id ? [{ term: { customer_id: scope.customer_id } }] : []),
      ...extra,
    ]
    const response = await client.search<ProfileRow>({
      index,
      size: maxRows,
      query: { bool: { filter } },
      sort: [{ valid_from: 'desc' }, { memory_id: 'asc' }],
      track_total_hits: false,
    })
    return sourcesOf(response.hits.hits)
  }

  return {
    /** A user's profile now, or `as_of` a moment (valid time, as search's `as_of`). */
    async profileOf(instanceId: string, scope: ProfileScope, asOf?: string): Promise<Profile> {
      const rows = await rowsOf(instanceId, scope)
      const moment = asOf ? Date.parse(asOf) : Date.now()
      const bySubject = new Map<string, ProfileAttribute[]>()
      for (const { subject, ...attribute } of attributesAt(rows, moment).values())
        bySubject.set(subject, [...(bySubject.get(subject) ?? []), attribute])
      return {
        user_id: scope.user_id,
        as_of: asOf ?? null,
        subjects: [...bySubject]
          .map(([subject, attributes]) => ({
            subject,
            attributes: attributes.sort((a, b) => a.attribute.localeCompare(b.attribute)),
          }))
          .sort((a, b) => b.attributes.length - a.attributes.length || a.subject.localeCompare(b.subject)),
      }
    },

    /**
     * The memories stating an attribute's value in force at a moment, for search: of the subjects asked for (the
     * people a question names), else of every subject of the user; newest first.
     */
    async statingNow(
      instanceId: string,
      scope: ProfileScope,
      attribute: string,
      subjects: readonly string[],
      asOf?: string,
    ): Promise<ProfileAttribute[]> {
      const rows = await rowsOf(instanceId, scope, [{ term: { attribute } }])
      return answering(attributesAt(rows, asOf ? Date.parse(asOf) : Date.now()), attribute, subjects)
    },
  }
}

export type Profiles = ReturnType<typeof createProfiles>
