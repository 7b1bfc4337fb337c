/**
 * Names as one key and the gazetteers that type them: the world's larger cities (GeoNames, generated) and the
 * organizations people name as where they work. Entity recognition and the fact reader's kind features read them.
 */
import { knownOrganizations } from './gazetteers/knownOrganizations.js'
import { worldCities } from './generated/worldCities.js'

const honorific = /^(?:mr|mrs|ms|mx|miss|dr|prof)\.?\s+/

/**
 * The identity of an entity name: "Caroline", " CAROLINE ", "Caroline's" and "Dr. Caroline" share one key, and so
 * do "The Beatles" and "beatles", "Zoë" and "Zoe". Names that are nothing but a stripped word ("The") keep it.
 */
export function entityKey(name: string): string {
  const folded = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[’`]/g, "'").trim()
  const stripped = folded
    .replace(/'s\b|(?<=s)'(?=\s|$)/g, '')
    .replace(/[^\p{L}\p{N}&]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the\s+/, '')
    .replace(honorific, '')
  return stripped === '' ? folded.replace(/\s+/g, ' ') : stripped
}

const worldCityKeys = new Set(worldCities.split('|'))
const organizationKeys = new Set(knownOrganizations.split('|').map(entityKey))

/** Whether GeoNames' larger cities hold the name (worldCities). */
export const isWorldCity = (name: string): boolean => worldCityKeys.has(entityKey(name))

/** Whether the name is one of the organizations people name as where they work (knownOrganizations.ts). */
export const isKnownOrganization = (name: string): boolean => organizationKeys.has(entityKey(name))
