import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { entityKey } from '../extraction/entityNames.js'
import { filterLimits, parseMemoryFilter, typedMetadataValues } from './memoryFilter.js'

const refused = (raw: unknown): Record<string, string> => {
  const parsed = parseMemoryFilter(raw)
  if (!('fields' in parsed)) throw new Error(`accepted: ${JSON.stringify(parsed.filter)}`)
  return parsed.fields
}
const accepted = (raw: unknown) => {
  const parsed = parseMemoryFilter(raw)
  if ('fields' in parsed) throw new Error(`refused: ${JSON.stringify(parsed.fields)}`)
  return parsed.filter
}

describe('parseMemoryFilter', () => {
  it('reads a value as equality and an object as comparisons that must all hold', () => {
    expect(accepted({ type: 'fact' })).toEqual({ field: 'type', comparison: { op: 'eq', value: 'fact' } })
    expect(accepted({ confidence: { gte: 0.5, lt: 0.9 } })).toEqual({
      and: [
        { field: 'confidence', comparison: { op: 'gte', value: 0.5, as: 'number' } },
        { field: 'confidence', comparison: { op: 'lt', value: 0.9, as: 'number' } },
      ],
    })
  })

  it('normalises dates to instants and entity names to their identity, as entity resolution keys them', () => {
    expect(accepted({ created_at: { gt: '2026-01-01' } })).toEqual({
      field: 'created_at',
      comparison: { op: 'gt', value: '2026-01-01T00:00:00.000Z', as: 'date' },
    })
    expect(accepted({ valid_from: { lte: '2026-01-01T12:00:00+02:00' } })).toMatchObject({
      comparison: { value: '2026-01-01T10:00:00.000Z' },
    })
    expect(accepted({ entity_name: '  Acme\tCorp ' })).toEqual({
      field: 'entity_name',
      comparison: { op: 'eq', value: 'acme corp' },
    })
    expect(entityKey('ACME   corp')).toBe('acme corp')
  })

  it('takes metadata as dotted keys, nested objects, and comparisons at the leaves', () => {
    const dotted = accepted({ 'metadata.order.total': { gt: 10 } })
    const nested = accepted({ metadata: { order: { total: { gt: 10 } } } })
    expect(nested).toEqual(dotted)
    expect(dotted).toEqual({
      field: 'metadata.order.total',
      comparison: { op: 'gt', value: 10, as: 'number' },
    })
    expect(accepted({ 'metadata.renewal': { lt: '2027-01-01' } })).toMatchObject({
      comparison: { as: 'date' },
    })
  })

  it('reads mem0 filters as they are written', () => {
    expect(
      accepted({
        AND: [{ user_id: 'alex' }, { created_at: { gte: '2024-07-01' } }],
        NOT: [{ type: 'episode' }],
      }),
    ).toEqual({
      and: [
        {
          and: [
            { field: 'user_id', comparison: { op: 'eq', value: 'alex' } },
            { field: 'created_at', comparison: { op: 'gte', value: '2024-07-01T00:00:00.000Z', as: 'date' } },
          ],
        },
        { not: { field: 'type', comparison: { op: 'eq', value: 'episode' } } },
      ],
    })
    expect(accepted({ content: { icontains: 'tea' } })).toEqual({
      field: 'content',
      comparison: { op: 'contains', value: 'tea' },
    })
  })

  it('keeps the first version of filters meaning what it meant', () => {
    expect(
      accepted({ types: ['fact'], entity_ids: ['ent_ab'], created_before: '2026-01-01T00:00:00Z' }),
    ).toEqual({
      and: [
        { field: 'type', comparison: { op: 'in', values: ['fact'] } },
        { field: 'entity_id', comparison: { op: 'in', values: ['ent_ab'] } },
        { field: 'created_at', comparison: { op: 'lt', value: '2026-01-01T00:00:00.000Z', as: 'date' } },
      ],
    })
    expect(accepted({ metadata: { channel: 'web' } })).toEqual({
      field: 'metadata.channel',
      comparison: { op: 'eq', value: 'web' },
    })
    expect(accepted({ metadata: {} })).toBeNull()
    expect(accepted({})).toBeNull()
    expect(accepted(undefined)).toBeNull()
  })

  it('names the key at fault', () => {
    expect(refused({ or: [{ type: 'fact' }, { 'metadata.price': { gt: 'cheap' } }] })).toEqual({
      'filters.or.1.metadata.price.gt': 'must be a number or a date-time (RFC 3339) or a date (YYYY-MM-DD)',
    })
    expect(Object.keys(refused({ colour: 'red' }))).toEqual(['filters.colour'])
    expect(Object.keys(refused({ type: 'gossip' }))).toEqual(['filters.type'])
    expect(Object.keys(refused({ type: { gt: 'fact' } }))).toEqual(['filters.type.gt'])
    expect(Object.keys(refused({ content: 'tea' }))).toEqual(['filters.content'])
    expect(Object.keys(refused({ confidence: { between: [0, 1] } }))).toEqual(['filters.confidence.between'])
    expect(Object.keys(refused({ created_at: { gte: 'yesterday' } }))).toEqual(['filters.created_at.gte'])
    expect(Object.keys(refused({ created_at: { gte: '2026-02-30' } }))).toEqual(['filters.created_at.gte'])
    expect(Object.keys(refused({ entity_id: 'Acme' }))).toEqual(['filters.entity_id'])
    expect(Object.keys(refused({ and: [] }))).toEqual(['filters.and'])
    expect(Object.keys(refused({ and: [{}] }))).toEqual(['filters.and.0'])
    expect(Object.keys(refused({ not: 'x' }))).toEqual(['filters.not'])
    expect(Object.keys(refused({ 'metadata.a..b': 1 }))).toEqual(['filters.metadata.a..b'])
    expect(Object.keys(refused({ metadata: { tags: { in: [] } } }))).toEqual(['filters.metadata.tags.in'])
    expect(Object.keys(refused({ 'metadata.x': { exists: 'yes' } }))).toEqual(['filters.metadata.x.exists'])
    expect(Object.keys(refused({ 'metadata.x': null }))).toEqual(['filters.metadata.x'])
    expect(Object.keys(refused([]))).toEqual(['filters'])
  })

  it('limits depth, size and the length of values', () => {
    let deep: unknown = { type: 'fact' }
    for (let level = 0; level < filterLimits.depth; level += 1) deep = { not: deep }
    expect(Object.keys(refused(deep))[0]).toMatch(/^filters(\.not)+$/)
    let allowed: unknown = { type: 'fact' }
    for (let level = 1; level < filterLimits.depth; level += 1) allowed = { not: allowed }
    expect(accepted(allowed)).not.toBeNull()
    const many = Array.from({ length: 20 }, (_, index) => ({
      confidence: { gt: index / 100, lt: 1 },
      type: 'fact',
    }))
    expect(refused({ or: many })).toEqual({ filters: 'must hold at most 50 comparisons' })
    expect(Object.keys(refused({ or: Array.from({ length: 21 }, () => ({ type: 'fact' })) }))).toEqual([
      'filters.or',
    ])
    expect(
      Object.keys(refused({ 'metadata.x': { in: Array.from({ length: 101 }, (_, index) => index) } })),
    ).toEqual(['filters.metadata.x.in'])
    expect(Object.keys(refused({ 'metadata.x': 'y'.repeat(filterLimits.stringLength + 1) }))).toEqual([
      'filters.metadata.x',
    ])
  })

  it('answers any JSON with a filter or a field-level problem, never an exception', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('fact', 'eq', 'and', 'metadata.a', '2026-01-01', ''),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(
          fc.constantFrom(
            'and',
            'or',
            'not',
            'NOT',
            'type',
            'metadata',
            'metadata.a.b',
            'in',
            'gt',
            'contains',
            'x',
          ),
          tie('value'),
          { maxKeys: 3 },
        ),
      ),
    })).value
    fc.assert(
      fc.property(json, (raw) => {
        const parsed = parseMemoryFilter(raw)
        if ('fields' in parsed) {
          const [field, problem] = Object.entries(parsed.fields)[0] ?? []
          expect(field).toMatch(/^filters/)
          expect(problem).toEqual(expect.any(String))
        }
      }),
      { numRuns: 2_000 },
    )
  })
})

describe('typedMetadataValues', () => {
  it('lists strings, numbers and dates with their key paths, lists flattened', () => {
    expect(
      typedMetadataValues({
        order: { total: 12.5, items: [1, 'two'] },
        since: '2026-01-02',
        ok: true,
        gone: null,
      }),
    ).toEqual([
      { path: 'order.total', number: 12.5 },
      { path: 'order.items', number: 1 },
      { path: 'order.items', text: 'two' },
      { path: 'since', text: '2026-01-02', date: '2026-01-02T00:00:00.000Z' },
    ])
    // Year 0000 an hour east of UTC is year -1 in UTC, which Elasticsearch's date field refuses: text only.
    expect(typedMetadataValues({ at: '0000-01-01T00:30:00+01:00' })).toEqual([
      { path: 'at', text: '0000-01-01T00:30:00+01:00' },
    ])
  })
})
