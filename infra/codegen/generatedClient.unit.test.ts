import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import {
  collectOperationExamples,
  exampleAssignments,
  missingExamples,
  operationName,
  root,
  type ExampleAssignment,
} from './examples.js'

const openApiFile = join(root, 'schemas/openapi.json')

/** As strict as a client's project could be. */
const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts'],
  types: [],
  skipLibCheck: true,
}

/** `examples.ts:12 (POST /v1/memories request body example 1): Type 'string' is not assignable to type 'number'.` */
function describeDiagnostic(diagnostic: ts.Diagnostic, assignments: ExampleAssignment[]): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
  if (!diagnostic.file || diagnostic.start === undefined) return message
  const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
  const where = diagnostic.file.fileName.endsWith('/examples.ts')
    ? assignments.find(({ lines: [first, last] }) => line >= first && line <= last)?.label
    : undefined
  return `${diagnostic.file.fileName.split('/').at(-1) ?? ''}:${String(line)}${where ? ` (${where})` : ''}: ${message}`
}

/**
 * The committed OpenAPI document (the one the gateway serves: see app.unit.test.ts) is what clients generate their
 * types from: every route has examples of its bodies, and each example type-checks against the type that
 * openapi-typescript generates for its place. The assignments are generated from the document, so a new route is
 * covered as soon as it is in the document.
 */
describe('a client generated from the OpenAPI document', () => {
  const document = JSON.parse(readFileSync(openApiFile, 'utf8')) as Record<string, unknown>
  const operations = collectOperationExamples(document)
  const scratch = mkdtempSync(join(tmpdir(), 'memory-service-openapi-client-'))
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true })
  })

  it('covers the routes', () => {
    expect(operations.length).toBeGreaterThan(0)
    expect(operations.map(operationName)).toContain('POST /v1/memories')
  })

  it('has examples of every JSON request body and of every 2xx JSON response', () => {
    const missing = operations.flatMap((operation) =>
      missingExamples(operation).map((what) => `${operationName(operation)}: ${what}`),
    )
    expect(missing).toEqual([])
  })

  it('type-checks every example of every operation (openapi-typescript, strict tsc)', async () => {
    // defaultNonNullable (on by default) would make a request body property with a `default` required, though a
    // client may leave it out (openapi-ts/openapi-typescript#1741, #2012): a client generates its types without it.
    const types = astToString(
      await openapiTS(pathToFileURL(openApiFile), { silent: true, defaultNonNullable: false }),
    )
    const { source, assignments } = exampleAssignments(operations, './openapi.js')
    writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }\n')
    writeFileSync(join(scratch, 'openapi.ts'), types)
    writeFileSync(join(scratch, 'examples.ts'), source)

    const program = ts.createProgram([join(scratch, 'examples.ts')], compilerOptions)
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => describeDiagnostic(diagnostic, assignments))

    const bodies = operations.filter((operation) => operation.requestBody).length
    expect(assignments.length).toBeGreaterThan(bodies)
    expect(diagnostics).toEqual([])
  })
})
