import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

// The contract files are packages of their own (schemas/, proto/ in the repository): found by package resolution,
// wherever this package is installed.
const require = createRequire(import.meta.url)

/** The path of a file of `@memory-service/schemas` (the repository's `schemas/` folder), e.g. `rest/Memory.schema.json`. */
export function contractSchemaPath(file: string): string {
  return require.resolve(`@memory-service/schemas/${file}`)
}

/** A JSON Schema from the repository's `schemas/` folder, the only place contracts are written. */
export function readContractSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(contractSchemaPath(file), 'utf8')) as Record<string, unknown>
}

/** The folder of `@memory-service/proto` (the repository's `proto/` folder), the include path of every .proto. */
export function protoDir(): string {
  return dirname(dirname(dirname(require.resolve('@memory-service/proto/memory/v1/event_stream.proto'))))
}
