import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { fieldOfIssue, messageOfIssue } from '../errors/validationMessages.js'
import { entityTypes, memoryTypes, type ExtractionResult } from './extraction.js'

export const MAX_STATEMENT_CHARS = 2000
export const MAX_ENTITY_NAME_CHARS = 200
const MAX_RELATION_TYPE_CHARS = 64

// Relation types become graph relationship labels, so they are held to one safe spelling.
const relationTypePattern = '^[a-z][a-z0-9_]*$'

const extractionResultSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['statements'],
  properties: {
    statements: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['content', 'speaker', 'occurredOn', 'entities', 'relations'],
        properties: {
          content: { type: 'string', minLength: 1, maxLength: MAX_STATEMENT_CHARS },
          speaker: { type: ['string', 'null'], minLength: 1, maxLength: MAX_ENTITY_NAME_CHARS },
          occurredOn: { type: ['string', 'null'], format: 'date' },
          entities: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'type'],
              properties: {
                name: { type: 'string', minLength: 1, maxLength: MAX_ENTITY_NAME_CHARS },
                type: { enum: entityTypes },
              },
            },
          },
          relations: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['from', 'to', 'type'],
              properties: {
                from: { type: 'string' },
                to: { type: 'string' },
                type: { type: 'string', pattern: relationTypePattern, maxLength: MAX_RELATION_TYPE_CHARS },
              },
            },
          },
          category: {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'confidence'],
            properties: {
              type: { enum: memoryTypes },
              confidence: { type: 'number', minimum: 0, maximum: 1 },
            },
          },
        },
      },
    },
    usage: {
      type: 'object',
      additionalProperties: false,
      required: ['model', 'inputTokens', 'outputTokens'],
      properties: {
        model: { type: 'string', minLength: 1 },
        inputTokens: { type: 'integer', minimum: 0 },
        outputTokens: { type: 'integer', minimum: 0 },
      },
    },
  },
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true })
addFormats.default(ajv, ['date'])
const validateShape = ajv.compile<ExtractionResult>(extractionResultSchema)

const isBlank = (text: string) => text.trim() === ''

/** What the schema cannot say: whitespace-only text, and relations naming entities their statement lacks. */
function problemsBeyondShape(result: ExtractionResult): string[] {
  const problems: string[] = []
  result.statements.forEach((statement, statementIndex) => {
    const at = `statements.${statementIndex}`
    if (isBlank(statement.content)) problems.push(`${at}.content: must not be blank`)
    if (statement.speaker !== null && isBlank(statement.speaker))
      problems.push(`${at}.speaker: must not be blank`)
    statement.entities.forEach((entity, entityIndex) => {
      if (isBlank(entity.name)) problems.push(`${at}.entities.${entityIndex}.name: must not be blank`)
    })
    const entityNames = new Set(statement.entities.map((entity) => entity.name))
    statement.relations.forEach((relation, relationIndex) => {
      for (const end of ['from', 'to'] as const) {
        if (!entityNames.has(relation[end])) {
          problems.push(`${at}.relations.${relationIndex}.${end}: must name an entity of the same statement`)
        }
      }
    })
  })
  return problems
}

/**
 * The check every extractor's output passes before the pipeline uses it, whichever extractor produced it: the
 * result, or one "path: message" line per problem.
 */
export function validateExtractionResult(
  value: unknown,
): { result: ExtractionResult } | { problems: string[] } {
  if (!validateShape(value)) {
    return {
      problems: (validateShape.errors ?? []).map(
        (issue) => `${fieldOfIssue(issue, 'result')}: ${messageOfIssue(issue)}`,
      ),
    }
  }
  const problems = problemsBeyondShape(value)
  return problems.length > 0 ? { problems } : { result: value }
}
