import { describe, expect, it } from 'vitest'
import { areNearDuplicates, removeNearDuplicates } from './nearDuplicates.js'

const identity = (text: string) => text

describe('areNearDuplicates', () => {
  it('ignores case, punctuation and diacritics', () => {
    expect(areNearDuplicates('Caroline went to the café!', 'caroline went to the cafe')).toBe(true)
  })

  it('takes a statement contained in another with one or two more words as the same', () => {
    expect(areNearDuplicates('Melanie painted a sunrise.', 'Melanie painted a lake sunrise.')).toBe(true)
    expect(
      areNearDuplicates('Melanie painted a sunrise.', 'Melanie painted a sunrise by the lake last year.'),
    ).toBe(false)
  })

  it('keeps statements apart that differ by a negation or a number', () => {
    expect(
      areNearDuplicates('Caroline is happy with the group.', 'Caroline is not happy with the group.'),
    ).toBe(false)
    expect(areNearDuplicates('Nate likes the game.', "Nate doesn't like the game.")).toBe(false)
    expect(areNearDuplicates('Caroline has 2 kids.', 'Caroline has 3 kids.')).toBe(false)
  })
})

describe('removeNearDuplicates', () => {
  it('keeps the more informative statement of a pair, in input order', () => {
    expect(
      removeNearDuplicates(
        [
          'Melanie painted a sunrise.',
          'Caroline moved to Sweden.',
          'Melanie painted a lake sunrise.',
          'Caroline went hiking.',
        ],
        identity,
      ),
    ).toEqual(['Caroline moved to Sweden.', 'Melanie painted a lake sunrise.', 'Caroline went hiking.'])
  })

  it('keeps the first of exact repeats and leaves distinct statements alone', () => {
    const statements = ['John signed with a new team.', 'John signed with a new team!', 'John loves soup.']
    expect(removeNearDuplicates(statements, identity)).toEqual([
      'John signed with a new team.',
      'John loves soup.',
    ])
    expect(removeNearDuplicates(['a b c', 'd e f'], identity)).toEqual(['a b c', 'd e f'])
    expect(removeNearDuplicates([], identity)).toEqual([])
  })

  it('works on any item through its text', () => {
    const items = [
      { id: 1, content: 'Jon is opening a dance studio.' },
      { id: 2, content: 'Jon is opening a dance studio' },
    ]
    expect(removeNearDuplicates(items, (item) => item.content).map((item) => item.id)).toEqual([1])
  })

  it('finds duplicates among thousands of statements without comparing all pairs', () => {
    const statements = Array.from(
      { length: 5000 },
      (_, index) => `Item ${index} costs ${index * 7 + 1} dollars in shop ${index * 13 + 2}.`,
    )
    statements.push('item 42 costs 295 dollars in shop 548')
    const kept = removeNearDuplicates(statements, identity)
    expect(kept).toHaveLength(5000)
    expect(kept).toContain('Item 42 costs 295 dollars in shop 548.')
  })
})
