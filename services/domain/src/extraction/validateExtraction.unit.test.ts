import { describe, expect, it } from 'vitest'
import type { ExtractedStatement, ExtractionResult } from './extraction.js'
import { validateExtractionResult } from './validateExtraction.js'

const statement: ExtractedStatement = {
  content: 'Caroline went to an LGBTQ support group on 7 May 2023.',
  speaker: 'Caroline',
  occurredOn: '2023-05-07',
  entities: [
    { name: 'Caroline', type: 'person' },
    { name: 'LGBTQ support group', type: 'event' },
  ],
  relations: [{ from: 'Caroline', to: 'LGBTQ support group', type: 'went_to' }],
  category: { type: 'episode', confidence: 0.9 },
}

const withStatement = (changes: Record<string, unknown>): unknown => ({
  statements: [{ ...statement, ...changes }],
})

const problemsOf = (value: unknown): string[] => {
  const checked = validateExtractionResult(value)
  return 'problems' in checked ? checked.problems : []
}

describe('validateExtractionResult', () => {
  it('accepts a categorized statement with usage, and hands the same value back', () => {
    const result: ExtractionResult = {
      statements: [statement],
      usage: { model: 'gpt-4o-mini', inputTokens: 812, outputTokens: 95 },
    }
    expect(validateExtractionResult(result)).toEqual({ result })
  })

  it('accepts what the rule-based extractor returns: no category, no usage, no date, no speaker', () => {
    const result = withStatement({ category: undefined, occurredOn: null, speaker: null, relations: [] })
    expect(problemsOf(JSON.parse(JSON.stringify(result)))).toEqual([])
  })

  it('accepts an empty statement list', () => {
    expect(validateExtractionResult({ statements: [] })).toEqual({ result: { statements: [] } })
  })

  it('accepts content of exactly 2000 characters and confidence at both ends', () => {
    expect(problemsOf(withStatement({ content: 'a'.repeat(2000) }))).toEqual([])
    expect(problemsOf(withStatement({ category: { type: 'fact', confidence: 0 } }))).toEqual([])
    expect(problemsOf(withStatement({ category: { type: 'fact', confidence: 1 } }))).toEqual([])
  })

  it.each([
    ['empty content', { content: '' }, 'statements.0.content: must NOT have fewer than 1 characters'],
    ['blank content', { content: ' \n\t' }, 'statements.0.content: must not be blank'],
    [
      'content over 2000 characters',
      { content: 'a'.repeat(2001) },
      'statements.0.content: must NOT have more',
    ],
    ['blank speaker', { speaker: '  ' }, 'statements.0.speaker: must not be blank'],
    [
      'unknown memory type',
      { category: { type: 'opinion', confidence: 0.5 } },
      'category.type: must be one of',
    ],
    [
      'confidence above 1',
      { category: { type: 'fact', confidence: 1.01 } },
      'category.confidence: must be <= 1',
    ],
    [
      'confidence below 0',
      { category: { type: 'fact', confidence: -0.1 } },
      'category.confidence: must be >= 0',
    ],
    [
      'category without confidence',
      { category: { type: 'fact' } },
      'statements.0.category.confidence: is required',
    ],
    ['single-digit month', { occurredOn: '2023-5-07' }, 'statements.0.occurredOn: must match format "date"'],
    ['impossible day', { occurredOn: '2023-02-30' }, 'statements.0.occurredOn: must match format "date"'],
    [
      'timestamp',
      { occurredOn: '2023-05-07T10:00:00Z' },
      'statements.0.occurredOn: must match format "date"',
    ],
    ['unknown entity type', { entities: [{ name: 'X', type: 'animal' }], relations: [] }, 'entities.0.type'],
    [
      'empty entity name',
      { entities: [{ name: '', type: 'other' }], relations: [] },
      'entities.0.name: must NOT',
    ],
    ['blank entity name', { entities: [{ name: ' ', type: 'other' }], relations: [] }, 'must not be blank'],
    [
      'entity name over 200 characters',
      { entities: [{ name: 'n'.repeat(201), type: 'other' }], relations: [] },
      'statements.0.entities.0.name: must NOT have more than 200 characters',
    ],
    [
      'relation type not snake_case',
      { relations: [{ from: 'Caroline', to: 'LGBTQ support group', type: 'Went To' }] },
      'statements.0.relations.0.type: must match pattern',
    ],
    [
      'relation to an entity the statement does not name',
      { relations: [{ from: 'Caroline', to: 'Melanie', type: 'friend_of' }] },
      'statements.0.relations.0.to: must name an entity of the same statement',
    ],
    ['missing field', { speaker: undefined }, 'statements.0.speaker: is required'],
    ['unknown field', { summary: 'x' }, 'statements.0.summary: is not a known field'],
  ])('rejects %s', (_, changes, expected) => {
    const problems = problemsOf(JSON.parse(JSON.stringify(withStatement(changes))))
    expect(problems.join('\n')).toContain(expected)
  })

  it('rejects a relation to an entity that only another statement names', () => {
    const other: ExtractedStatement = {
      ...statement,
      entities: [{ name: 'Melanie', type: 'person' }],
      relations: [],
    }
    const problems = problemsOf({
      statements: [
        other,
        { ...statement, relations: [{ from: 'Caroline', to: 'Melanie', type: 'friend_of' }] },
      ],
    })
    expect(problems).toEqual(['statements.1.relations.0.to: must name an entity of the same statement'])
  })

  it('rejects negative or fractional token counts', () => {
    const usage = { model: 'm', inputTokens: -1, outputTokens: 1.5 }
    expect(problemsOf({ statements: [], usage })).toEqual([
      'usage.inputTokens: must be >= 0',
      'usage.outputTokens: must be integer',
    ])
  })

  it('reports every problem, not only the first', () => {
    const problems = problemsOf(withStatement({ content: '', occurredOn: 'soon', category: { type: 'x' } }))
    expect(problems.length).toBeGreaterThanOrEqual(4)
  })

  it('rejects values that are not a result at all', () => {
    expect(problemsOf(null)).toEqual(['result: must be object'])
    expect(problemsOf({})).toEqual(['statements: is required'])
    expect(problemsOf({ statements: 'Caroline went hiking.' })).toEqual(['statements: must be array'])
  })
})
