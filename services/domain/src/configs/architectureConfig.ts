import { Ajv, type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import { LineCounter, isMap, isSeq, parseDocument, type Node } from 'yaml'
import { AppError } from '../errors/appError.js'
import type { MemoryArchitectureConfig } from '@memory-service/contracts'
import { readContractSchema } from '@memory-service/contracts/files'

type Filled<T> = { [K in keyof T]-?: Exclude<T[K], undefined> }
type Section<K extends 'extraction' | 'retrieval'> = Filled<NonNullable<MemoryArchitectureConfig[K]>>
type Storage = NonNullable<MemoryArchitectureConfig['storage']>

/** A configuration with every default filled in: what a version stores and what the services act on. */
export type ArchitectureConfig = {
  description?: string
  extraction: Section<'extraction'>
  storage: {
    vector: Filled<NonNullable<Storage['vector']>>
    graph: Filled<NonNullable<Storage['graph']>>
    /** Absent from versions proposed before expiry existed: their memories never expire by default. */
    expiry?: Filled<NonNullable<Storage['expiry']>>
  }
  retrieval: Section<'retrieval'>
}

/** The embedding model this deployment serves (EMBEDDINGS_MODEL / EMBEDDINGS_DIMENSION). */
export interface ServedEmbeddings {
  model: string
  dimension: number
}

export interface ConfigProblem {
  field: string
  message: string
  value: unknown
  /** The 1-based line of the proposal's text the problem is on, when the text names the field (or its parent). */
  line?: number
}

export type ConfigFormat = 'yaml' | 'json'

export const embeddingDimensionRange = { min: 64, max: 4096 } as const
export const contextBudgetRange = { min: 256, max: 32768 } as const

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false })
addFormats.default(ajv)
const validateShape = ajv.compile<MemoryArchitectureConfig>(
  readContractSchema('config/MemoryArchitectureConfig.schema.json'),
)

const ROOT = '(root)'

/** The configuration an instance acts on before any version was applied: the schema's defaults. */
export function defaultArchitectureConfig(served: ServedEmbeddings): ArchitectureConfig {
  const outcome = validateArchitectureConfig({}, served)
  if ('problems' in outcome) throw new Error(`the schema's defaults are invalid: ${JSON.stringify(outcome)}`)
  return outcome.config
}

/** YAML or JSON text → a value; a syntax error is a problem naming the line, never an exception. */
export function parseConfigText(
  text: string,
  format: ConfigFormat,
): { value: unknown } | { problems: ConfigProblem[] } {
  if (format === 'json') {
    try {
      return { value: JSON.parse(text) as unknown }
    } catch (error) {
      return {
        problems: [{ field: ROOT, message: `invalid JSON: ${(error as Error).message}`, value: null }],
      }
    }
  }
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true })
  if (document.errors.length > 0) {
    const lines = text.split(/\r?\n/)
    return {
      problems: document.errors.map((error) => {
        const line = error.linePos?.[0]
        return {
          field: ROOT,
          message: `invalid YAML${line ? ` at line ${String(line.line)}, column ${String(line.col)}` : ''}: ${(error.message.split('\n')[0] ?? error.code).replace(/ at line \d+, column \d+:?$/, '')}`,
          value: line ? (lines[line.line - 1] ?? null) : null,
          ...(line ? { line: line.line } : {}),
        }
      }),
    }
  }
  // An empty document is an empty configuration (all defaults), as `{}` is in JSON.
  if (document.contents === null) return { value: {} }
  return { value: document.toJS() as unknown }
}

const fieldOf = (error: ErrorObject): string => {
  const path = error.instancePath.split('/').slice(1).join('.')
  const extra =
    error.keyword === 'additionalProperties'
      ? (error.params as { additionalProperty: string }).additionalProperty
      : undefined
  return [path, extra].filter((part) => part !== undefined && part !== '').join('.') || ROOT
}

const valueAt = (root: unknown, field: string): unknown => {
  if (field === ROOT) return root ?? null
  let node: unknown = root
  for (const part of field.split('.')) {
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined
  }
  return node ?? null
}

/**
 * Schema first (every violation, with the offending value), then the ranges and the combinations that only make
 * sense together. Fills defaults, including the served embedding model when the version names none.
 */
export function validateArchitectureConfig(
  candidate: unknown,
  served: ServedEmbeddings,
): { config: ArchitectureConfig } | { problems: ConfigProblem[] } {
  const copy = structuredClone(candidate)
  if (!validateShape(copy)) {
    const problems = (validateShape.errors ?? []).map((error) => {
      const field = fieldOf(error)
      return {
        field,
        message:
          error.keyword === 'additionalProperties'
            ? 'is not a configuration field'
            : (error.message ?? 'is invalid'),
        value: valueAt(candidate, field),
      }
    })
    return { problems }
  }
  const vector = (copy.storage ??= {}).vector ?? {}
  vector.embedding_model ??= served.model
  vector.embedding_dimension ??= vector.embedding_model === served.model ? served.dimension : undefined
  copy.storage.vector = vector
  const config = copy as ArchitectureConfig

  const problems: ConfigProblem[] = []
  const problem = (field: string, message: string, value: unknown) => problems.push({ field, message, value })
  const model = config.storage.vector.embedding_model
  // Left unset when the version names a model this deployment does not serve (no dimension is known for it).
  const dimension = config.storage.vector.embedding_dimension as number | undefined
  if (model !== served.model) {
    problem(
      'storage.vector.embedding_model',
      `this deployment serves ${served.model} (${String(served.dimension)} dimensions)`,
      model,
    )
  }
  if (dimension === undefined) {
    problem('storage.vector.embedding_dimension', `is required with embedding model ${model}`, null)
  } else if (dimension < embeddingDimensionRange.min || dimension > embeddingDimensionRange.max) {
    problem(
      'storage.vector.embedding_dimension',
      `must be between ${String(embeddingDimensionRange.min)} and ${String(embeddingDimensionRange.max)}`,
      dimension,
    )
  } else if (model === served.model && dimension !== served.dimension) {
    problem(
      'storage.vector.embedding_dimension',
      `${model} produces ${String(served.dimension)}-dimensional vectors`,
      dimension,
    )
  }
  const budget = config.retrieval.context_budget
  if (budget < contextBudgetRange.min || budget > contextBudgetRange.max) {
    problem(
      'retrieval.context_budget',
      `must be between ${String(contextBudgetRange.min)} and ${String(contextBudgetRange.max)}`,
      budget,
    )
  }
  if (!config.storage.graph.enabled) {
    if (config.retrieval.graph_queries)
      problem('retrieval.graph_queries', 'graph queries need storage.graph.enabled: true', true)
    if (config.extraction.default_mode === 'long-range')
      problem(
        'extraction.default_mode',
        'long-range extraction stores entities and relations in the graph; it needs storage.graph.enabled: true',
        'long-range',
      )
  }
  return problems.length > 0 ? { problems } : { config }
}

/**
 * Places each problem on the line of the text that names its field: the field's key when it is there, else the
 * nearest parent's (a missing or wrong field is written inside its section). JSON is read as YAML, its superset, so
 * both formats get lines. A problem of the whole text keeps what it had.
 */
export function locateConfigProblems(text: string, problems: ConfigProblem[]): ConfigProblem[] {
  const lineCounter = new LineCounter()
  const document = parseDocument(text, { lineCounter })
  if (document.errors.length > 0) return problems
  const offsetOf = (path: string[]): number | undefined => {
    for (let length = path.length; length > 0; length -= 1) {
      const parent = length === 1 ? document.contents : document.getIn(path.slice(0, length - 1), true)
      const last = path[length - 1]
      if (isMap(parent)) {
        const pair = parent.items.find((item) => (item.key as { value?: unknown } | null)?.value === last)
        const node = (pair?.key ?? pair?.value) as Node | null | undefined
        if (node?.range) return node.range[0]
      } else if (isSeq(parent)) {
        const node = parent.items[Number(last)] as Node | null | undefined
        if (node?.range) return node.range[0]
      }
    }
    return undefined
  }
  return problems.map((problem) => {
    if (problem.line !== undefined || problem.field === ROOT) return problem
    const offset = offsetOf(problem.field.split('.'))
    return offset === undefined ? problem : { ...problem, line: lineCounter.linePos(offset).line }
  })
}

export function configValidationError(problems: ConfigProblem[]): AppError {
  return new AppError('CONFIG_VALIDATION_ERROR', 'The configuration is not valid', {
    validation_errors: problems,
  })
}

export type RebuildableProjection = 'vector' | 'graph'

/** Which projections must be rebuilt from the log for memories to be stored the way `next` says. */
export function projectionsToRebuild(
  previous: ArchitectureConfig,
  next: ArchitectureConfig,
): RebuildableProjection[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  const keptChanged =
    previous.extraction.min_confidence !== next.extraction.min_confidence ||
    !same([...previous.extraction.memory_types].sort(), [...next.extraction.memory_types].sort())
  const vectorChanged = !same(previous.storage.vector, next.storage.vector)
  const graphChanged = previous.storage.graph.enabled !== next.storage.graph.enabled
  return [
    ...(keptChanged || vectorChanged ? (['vector'] as const) : []),
    ...(keptChanged || graphChanged ? (['graph'] as const) : []),
  ]
}

interface ProjectedMemory {
  type: string
  confidence: number
}

/** Which memories of an instance each projection stores, under its active configuration. */
export function projectionPolicy(config: ArchitectureConfig) {
  const kept = (memory: ProjectedMemory) =>
    memory.confidence >= config.extraction.min_confidence &&
    (config.extraction.memory_types as string[]).includes(memory.type)
  return {
    vector: kept,
    graph: (memory: ProjectedMemory) => config.storage.graph.enabled && kept(memory),
  }
}

export type ProjectionPolicy = ReturnType<typeof projectionPolicy>
