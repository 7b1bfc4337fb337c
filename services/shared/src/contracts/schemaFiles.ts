import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const schemasDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../schemas')

/** A JSON Schema from the repository's `schemas/` folder, the only place contracts are written. */
export function readContractSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(schemasDir, file), 'utf8')) as Record<string, unknown>
}
