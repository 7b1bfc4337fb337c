import { describe, expect, it } from 'vitest'
import { areNearDuplicates, removeNearDuplicates, tokenSetOf } from './nearDuplicates.js'

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

  it('keeps one of a sentence said a thousand times', () => {
    const statements = Array.from({ length: 3000 }, (_, index) =>
      index % 3 === 0
        ? 'The user moved to Lisbon last spring.'
        : index % 3 === 1
          ? 'The user started learning Portuguese!'
          : `The user moved to Lisbon last spring ${index % 2 === 0 ? 'again' : ''}`.trim(),
    )
    expect(removeNearDuplicates(statements, identity)).toEqual([
      'The user started learning Portuguese!',
      'The user moved to Lisbon last spring again',
    ])
  })

  it('drops an item only for repeating one that stays', () => {
    const items = [
      'Jon opened a dance studio',
      'Jon opened a dance studio in Paris last spring',
      'Jon opened a dance studio in Paris',
    ]
    expect(removeNearDuplicates(items, identity)).toEqual([
      'Jon opened a dance studio',
      'Jon opened a dance studio in Paris last spring',
    ])
  })

  it('keeps what comparing each item with every survivor before it keeps', () => {
    const words = ['lisbon', 'moved', 'the', 'user', 'not', 'spring', 'portuguese', 'learning', 'last', 'to']
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    for (let round = 0; round < 300; round += 1) {
      const pool = Array.from({ length: 4 }, () =>
        Array.from(
          { length: 3 + Math.floor(random() * 6) },
          () => words[Math.floor(random() * words.length)],
        ).join(' '),
      )
      const texts = Array.from({ length: 12 }, () => {
        const text = pool[Math.floor(random() * pool.length)] ?? ''
        return random() < 0.3 ? text.toUpperCase() : random() < 0.3 ? `${text} now` : text
      })
      expect(removeNearDuplicates(texts, identity)).toEqual(comparingWithEverySurvivor(texts))
    }
  })
})

/** The rule without an index: best first (most tokens, then longest, then earliest), each against every survivor. */
function comparingWithEverySurvivor(texts: string[]): string[] {
  const sizes = texts.map((text) => tokenSetOf(text).size)
  const order = texts
    .map((_text, index) => index)
    .sort(
      (a, b) =>
        (sizes[b] ?? 0) - (sizes[a] ?? 0) || (texts[b]?.length ?? 0) - (texts[a]?.length ?? 0) || a - b,
    )
  const kept: number[] = []
  for (const index of order)
    if (!kept.some((other) => areNearDuplicates(texts[index] ?? '', texts[other] ?? ''))) kept.push(index)
  return texts.filter((_text, index) => kept.includes(index))
}
