import { describe, expect, it } from 'vitest'
import { pageWindow, sourcesOf, totalHitsOf } from './pages.js'

describe('search pages', () => {
  it('places a 1-based page of a sorted search', () => {
    expect(pageWindow(1, 20)).toEqual({ from: 0, size: 20 })
    expect(pageWindow(3, 50)).toEqual({ from: 100, size: 50 })
  })

  it('reads the total in either of the shapes Elasticsearch answers', () => {
    expect(totalHitsOf(7)).toBe(7)
    expect(totalHitsOf({ value: 12, relation: 'eq' })).toBe(12)
    expect(totalHitsOf(undefined)).toBe(0)
  })

  it('keeps the sources and leaves out hits without one', () => {
    expect(
      sourcesOf([
        { _index: 'i', _id: 'a', _source: { n: 1 } },
        { _index: 'i', _id: 'b' },
      ]),
    ).toEqual([{ n: 1 }])
  })
})
