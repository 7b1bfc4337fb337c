import { createHash } from 'node:crypto'
import type { EntityType } from './extraction.js'

/** An entity already known to an instance, by the names it goes by: what alias matching compares against. */
export interface KnownEntity {
  canonical_name: string
  type: EntityType
  aliases: string[]
}

export { entityKey } from '@memory-service/language'
import { entityKey } from '@memory-service/language'

/** Stable entity id per instance: `ent_` + the first 16 hex digits of sha256(instanceId NUL key). */
export function entityIdFor(instanceId: string, key: string): string {
  return `ent_${createHash('sha256').update(`${instanceId}\u0000${key}`).digest('hex').slice(0, 16)}`
}

const acronymSkippedWords = new Set(['of', 'and', 'the', 'for', 'in', 'on', 'at', 'to', 'a', 'an', '&'])

function acronymOf(name: string): string {
  return entityKey(name)
    .split(' ')
    .filter((word) => word !== '' && !acronymSkippedWords.has(word))
    .map((word) => word.charAt(0))
    .join('')
}

const namesOf = (entity: KnownEntity) => [entity.canonical_name, ...entity.aliases]
const firstWordKey = (name: string) => entityKey(name).split(' ')[0] ?? ''

/** The single entity matching, or null when none or several do: resolution never guesses between two. */
function onlyOne<T extends KnownEntity>(matches: readonly T[]): T | null | 'ambiguous' {
  const distinct = [...new Set(matches)]
  if (distinct.length === 0) return null
  return distinct.length === 1 ? (distinct[0] ?? null) : 'ambiguous'
}

/**
 * Long-range resolution of a mention to a known entity, tried in order of certainty; the first rule that matches
 * anything decides, and it decides only when it matches exactly one entity:
 * 1. the same key as the canonical name or an alias;
 * 2. a single first name equal to one known person's first name ("Caroline" → "Caroline Smith");
 * 3. a nickname: a prefix of at least 3 letters of one known person's first name ("Mel" → "Melanie");
 * 4. an acronym of one known organization's name, or the reverse ("IBM" ↔ "International Business Machines").
 */
export function aliasMatch<T extends KnownEntity>(candidate: string, known: readonly T[]): T | null {
  const key = entityKey(candidate)
  if (key === '') return null
  const people = known.filter((entity) => entity.type === 'person')
  const isSingleWord = !key.includes(' ')
  const rules: (() => T[])[] = [
    () => known.filter((entity) => namesOf(entity).some((name) => entityKey(name) === key)),
    () =>
      isSingleWord
        ? people.filter((entity) => namesOf(entity).some((name) => firstWordKey(name) === key))
        : [],
    () =>
      isSingleWord && key.length >= 3 && /^\p{L}+$/u.test(key)
        ? people.filter((entity) =>
            namesOf(entity).some((name) => firstWordKey(name).startsWith(key) && firstWordKey(name) !== key),
          )
        : [],
    () => {
      const organizations = known.filter((entity) => entity.type === 'organization')
      const compactKey = key.replace(/\s+/g, '')
      const candidateAcronym = acronymOf(candidate)
      return organizations.filter((entity) =>
        namesOf(entity).some((name) => {
          const compactName = entityKey(name).replace(/\s+/g, '')
          const candidateIsAcronym = isSingleWord && compactKey.length >= 2 && acronymOf(name) === compactKey
          const nameIsAcronym = !isSingleWord && compactName === candidateAcronym
          return compactName !== compactKey && (candidateIsAcronym || nameIsAcronym)
        }),
      )
    },
  ]
  for (const rule of rules) {
    const match = onlyOne(rule())
    if (match === 'ambiguous') return null
    if (match) return match
  }
  return null
}
