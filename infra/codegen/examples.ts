/**
 * The examples of the contracts, for the tests that check them: every `examples` value in the JSON Schemas under
 * schemas/ (with the subschema it illustrates), and per operation of the OpenAPI document the examples of its JSON
 * request body and responses, written out as TypeScript assignments to a generated client's types.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

type JsonObject = Record<string, unknown>

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// ---------------------------------------------------------------------------------------------------------------
// JSON Schemas

export interface ContractSchema {
  /** Relative to the repository root. */
  file: string
  schema: JsonObject & { $id: string }
}

/** Every `*.schema.json` under schemas/ (REST bodies, events, configuration), in file order. */
export function loadContractSchemas(dir = join(root, 'schemas')): ContractSchema[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.schema.json'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .map((file) => {
      const schema: unknown = JSON.parse(readFileSync(file, 'utf8'))
      if (!isObject(schema) || typeof schema.$id !== 'string')
        throw new Error(`${file}: a schema without $id`)
      return { file: relative(root, file), schema: schema as JsonObject & { $id: string } }
    })
}

export interface SchemaExample {
  /** Where the example is written: `schemas/rest/Memory.schema.json#/examples/0`. */
  label: string
  /** The (sub)schema it illustrates, as a reference Ajv resolves: `Memory.schema.json#/properties/scope`. */
  ref: string
  value: unknown
}

/** Keywords whose value is a subschema, an array of subschemas, or a map of them (draft-07 and 2020-12). */
const subschemaKeywords = {
  single: [
    'items',
    'additionalItems',
    'additionalProperties',
    'contains',
    'propertyNames',
    'not',
    'if',
    'then',
    'else',
    'unevaluatedItems',
    'unevaluatedProperties',
  ],
  list: ['items', 'allOf', 'anyOf', 'oneOf', 'prefixItems'],
  map: ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas'],
} as const

const pointerSegment = (key: string | number) =>
  encodeURIComponent(String(key).replaceAll('~', '~0').replaceAll('/', '~1'))

/** Calls `visit` with every subschema of `schema` (itself included) and its JSON pointer. */
function walkSchema(
  schema: unknown,
  pointer: string,
  visit: (node: JsonObject, pointer: string) => void,
): void {
  if (!isObject(schema)) return
  visit(schema, pointer)
  for (const keyword of subschemaKeywords.single) walkSchema(schema[keyword], `${pointer}/${keyword}`, visit)
  for (const keyword of subschemaKeywords.list) {
    const list = schema[keyword]
    if (Array.isArray(list)) {
      list.forEach((item, index) => {
        walkSchema(item, `${pointer}/${keyword}/${String(index)}`, visit)
      })
    }
  }
  for (const keyword of subschemaKeywords.map) {
    const map = schema[keyword]
    if (!isObject(map)) continue
    for (const [name, item] of Object.entries(map)) {
      walkSchema(item, `${pointer}/${keyword}/${pointerSegment(name)}`, visit)
    }
  }
}

/** Every value of an `examples` keyword, at the top of a schema or in any of its subschemas. */
export function collectSchemaExamples(schemas: ContractSchema[]): SchemaExample[] {
  const found: SchemaExample[] = []
  for (const { file, schema } of schemas) {
    walkSchema(schema, '', (node, pointer) => {
      if (!Array.isArray(node.examples)) return
      node.examples.forEach((value: unknown, index) => {
        found.push({
          label: `${file}#${pointer}/examples/${String(index)}`,
          ref: `${schema.$id}#${pointer}`,
          value,
        })
      })
    })
  }
  return found
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI operations

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

export interface MediaExamples {
  contentType: string
  examples: unknown[]
}

export interface ResponseExamples extends MediaExamples {
  status: string
}

export interface OperationExamples {
  /** `paths` for a route, `webhooks` for a webhook (a request the service makes). */
  section: 'paths' | 'webhooks'
  path: string
  method: (typeof methods)[number]
  /** The JSON request body, if the operation has one. */
  requestBody: MediaExamples | null
  /** Every JSON response, in the document's order. */
  responses: ResponseExamples[]
}

const isJson = (contentType: string) =>
  /^application\/(?:[\w.+-]+\+)?json$/i.test(contentType.split(';')[0] ?? '')

/** Follows local `$ref`s (`#/components/...`) until an object without one. */
function deref(document: JsonObject, value: unknown): unknown {
  const seen = new Set<string>()
  let current = value
  while (isObject(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    const ref = current.$ref
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`)
    seen.add(ref)
    let target: unknown = document
    for (const segment of ref.slice(2).split('/')) {
      const key = decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~')
      target = isObject(target) ? target[key] : undefined
    }
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`)
    current = target
  }
  return current
}

/**
 * The examples of a media type: its own (`example`, `examples`), otherwise those of its schema (`examples`,
 * `example`), following the schema's `$ref`s to the first that has some.
 */
function mediaExamples(document: JsonObject, media: JsonObject): unknown[] {
  if ('example' in media) return [media.example]
  if (isObject(media.examples)) {
    return Object.values(media.examples).map((example) => {
      const resolved = deref(document, example)
      return isObject(resolved) ? resolved.value : undefined
    })
  }
  let schema: unknown = media.schema
  const seen = new Set<unknown>()
  while (isObject(schema) && !seen.has(schema)) {
    seen.add(schema)
    if (Array.isArray(schema.examples)) return schema.examples as unknown[]
    if ('example' in schema) return [schema.example]
    if (typeof schema.$ref !== 'string') break
    schema = deref(document, { $ref: schema.$ref })
  }
  return []
}

function jsonContent(document: JsonObject, container: unknown): MediaExamples | null {
  const resolved = deref(document, container)
  if (!isObject(resolved) || !isObject(resolved.content)) return null
  const entry = Object.entries(resolved.content).find(([contentType]) => isJson(contentType))
  if (!entry) return null
  const [contentType, media] = entry
  return { contentType, examples: isObject(media) ? mediaExamples(document, media) : [] }
}

/** Every operation of the document (routes, then webhooks) with the examples of its JSON bodies. */
export function collectOperationExamples(document: JsonObject): OperationExamples[] {
  const operations: OperationExamples[] = []
  for (const section of ['paths', 'webhooks'] as const) {
    const items = document[section]
    if (!isObject(items)) continue
    for (const [path, rawItem] of Object.entries(items)) {
      const item = deref(document, rawItem)
      if (!isObject(item)) continue
      for (const method of methods) {
        const operation = item[method]
        if (!isObject(operation)) continue
        const responses = isObject(operation.responses) ? operation.responses : {}
        operations.push({
          section,
          path,
          method,
          requestBody:
            operation.requestBody === undefined ? null : jsonContent(document, operation.requestBody),
          responses: Object.entries(responses).flatMap(([status, response]) => {
            const content = jsonContent(document, response)
            return content ? [{ status, ...content }] : []
          }),
        })
      }
    }
  }
  return operations
}

/** `POST /v1/memories` (or `webhook ingestion.completed POST`). */
export function operationName(operation: Pick<OperationExamples, 'section' | 'path' | 'method'>): string {
  const method = operation.method.toUpperCase()
  return operation.section === 'paths' ? `${method} ${operation.path}` : `webhook ${operation.path} ${method}`
}

/** What an operation lacks: examples of its JSON request body, and of each of its 2xx JSON responses. */
export function missingExamples(operation: OperationExamples): string[] {
  const missing: string[] = []
  if (operation.requestBody && operation.requestBody.examples.length === 0) missing.push('request body')
  for (const response of operation.responses) {
    if (/^2/.test(response.status) && response.examples.length === 0)
      missing.push(`response ${response.status}`)
  }
  return missing
}

export interface ExampleAssignment {
  /** `POST /v1/memories request body example 1`. */
  label: string
  /** 1-based lines of the assignment in the generated source, first and last. */
  lines: [number, number]
}

/**
 * TypeScript that assigns every example to the type a generated client (openapi-typescript, whose `paths` and
 * `webhooks` it imports from `typesModule`) gives its place: a request body example to
 * `paths[path][method]['requestBody']['content'][type]`, a response example to
 * `paths[path][method]['responses'][status]['content'][type]`.
 */
export function exampleAssignments(
  operations: OperationExamples[],
  typesModule: string,
): { source: string; assignments: ExampleAssignment[] } {
  const sections = [...new Set(operations.map((operation) => operation.section))]
  const lines = [
    '// Generated from the OpenAPI document by infra/codegen/examples.ts: every example, typed by the generated client.',
    `import type { ${sections.join(', ')} } from ${JSON.stringify(typesModule)}`,
    '',
  ]
  const assignments: ExampleAssignment[] = []
  const assign = (label: string, type: string, value: unknown) => {
    const first = lines.length + 1
    const literal = JSON.stringify(value, null, 2)
    lines.push(
      `// ${label}`,
      ...`export const example${String(assignments.length)}: ${type} = ${literal}`.split('\n'),
      '',
    )
    assignments.push({ label, lines: [first, lines.length] })
  }
  for (const operation of operations) {
    const name = operationName(operation)
    const base = `${operation.section}[${JSON.stringify(operation.path)}][${JSON.stringify(operation.method)}]`
    if (operation.requestBody) {
      const { contentType, examples } = operation.requestBody
      const type = `NonNullable<${base}['requestBody']>['content'][${JSON.stringify(contentType)}]`
      examples.forEach((example, index) => {
        assign(`${name} request body example ${String(index + 1)}`, type, example)
      })
    }
    for (const { status, contentType, examples } of operation.responses) {
      // openapi-typescript keys a status code by its number, `default` and ranges (`2XX`) by their text.
      const key = /^\d+$/.test(status) ? status : JSON.stringify(status)
      const type = `${base}['responses'][${key}]['content'][${JSON.stringify(contentType)}]`
      examples.forEach((example, index) => {
        assign(`${name} response ${status} example ${String(index + 1)}`, type, example)
      })
    }
  }
  return { source: lines.join('\n'), assignments }
}
