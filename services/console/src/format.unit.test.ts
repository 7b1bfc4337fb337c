import { describe, expect, it } from 'vitest'
import {
  bucketFor,
  formatChange,
  fromLocalInput,
  problemsByLine,
  recentRange,
  seriesByGroup,
  toLocalInput,
  withGaps,
} from './format.js'

describe('console formatting', () => {
  it('says a change with its sign, and "no previous data" for the API null', () => {
    expect(formatChange(12.345)).toEqual({ text: '+12.3 %', direction: 'up' })
    expect(formatChange(-3)).toEqual({ text: '−3 %', direction: 'down' })
    expect(formatChange(0.01)).toEqual({ text: '0 %', direction: 'flat' })
    expect(formatChange(null)).toEqual({ text: 'no previous data', direction: 'none' })
  })

  it('ends a recent range at the next bucket boundary and picks a bucket with at most a few hundred points', () => {
    const now = Date.parse('2026-11-25T21:29:40Z')
    expect(recentRange(now, 'hour', 24)).toEqual({
      start: '2026-11-24T22:00:00.000Z',
      end: '2026-11-25T22:00:00.000Z',
    })
    expect(recentRange(now, 'day', 7).end).toBe('2026-11-26T00:00:00.000Z')
    expect(bucketFor(0, 6 * 3_600_000)).toBe('minute')
    expect(bucketFor(0, 7 * 86_400_000)).toBe('hour')
    expect(bucketFor(0, 30 * 86_400_000)).toBe('day')
  })

  it('draws the zero-filled buckets as gaps and groups flat points into aligned series', () => {
    expect(withGaps([5, 0, 7], [true, false, true])).toEqual([5, null, 7])
    const points = [
      { timestamp: '2026-11-25T10:00:00Z', group: 'b', value: 2 },
      { timestamp: '2026-11-25T09:00:00Z', group: 'a', value: 1 },
      { timestamp: '2026-11-25T10:00:00Z', group: 'a', value: 3 },
    ]
    expect(seriesByGroup(points, (point) => point.value)).toEqual({
      timestamps: [Date.parse('2026-11-25T09:00:00Z'), Date.parse('2026-11-25T10:00:00Z')],
      series: [
        { name: 'a', values: [1, 3] },
        { name: 'b', values: [0, 2] },
      ],
    })
  })

  it('reads datetime-local text as the local time it shows, both ways', () => {
    const iso = '2026-11-25T21:29:00.000Z'
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso)
    expect(fromLocalInput('not a date')).toBeNull()
  })

  it('places problems on the line they name (the line field, else "at line N"), the rest apart', () => {
    const { byLine, unplaced } = problemsByLine([
      { field: 'retrieval.max_results', message: 'must be >= 1', line: 3 },
      { field: '(root)', message: 'invalid YAML at line 2, column 4: bad indentation' },
      { field: 'storage', message: 'is missing' },
    ])
    expect([...byLine.entries()]).toEqual([
      [3, ['retrieval.max_results: must be >= 1']],
      [2, ['invalid YAML at line 2, column 4: bad indentation']],
    ])
    expect(unplaced).toEqual(['storage: is missing'])
  })
})
