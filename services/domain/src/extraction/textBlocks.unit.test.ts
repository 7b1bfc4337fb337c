import { describe, expect, it } from 'vitest'
import { blocksOf, listSentences, plainText } from './textBlocks.js'

describe('blocksOf', () => {
  it('reads a list with its heading as one block, nested items inline', () => {
    const text = [
      'Sure, here is the breakdown.',
      '',
      '### Components:',
      '1. **User Authentication**',
      '   - Registration',
      '   - Login',
      '2. **Transaction Management**',
      '   - Add Income',
      '',
      'Does this work for you?',
    ].join('\n')
    expect(blocksOf(text)).toEqual([
      { kind: 'prose', text: 'Sure, here is the breakdown.' },
      {
        kind: 'list',
        lead: 'Components',
        items: ['User Authentication (Registration, Login)', 'Transaction Management (Add Income)'],
      },
      { kind: 'prose', text: 'Does this work for you?' },
    ])
  })

  it('takes the sentence that ends in a colon as the lead of the list after it', () => {
    const blocks = blocksOf('I tried two things. My plan has these steps:\n- buy paint\n- paint the fence')
    expect(blocks).toEqual([
      { kind: 'prose', text: 'I tried two things.' },
      { kind: 'list', lead: 'My plan has these steps', items: ['buy paint', 'paint the fence'] },
    ])
  })

  it('skips code and never reads a line of code as anything else', () => {
    const blocks = blocksOf(
      'Here is my route:\n```python\n# not a heading\n- not an item\nprint(1)\n```\nIt fails.',
    )
    expect(blocks).toEqual([
      { kind: 'prose', text: 'Here is my route:' },
      { kind: 'code', lines: 3 },
      { kind: 'prose', text: 'It fails.' },
    ])
  })

  it('reads a table as a list of its rows led by its header', () => {
    const blocks = blocksOf(
      '| Time | Activity |\n|---|---|\n| 9:00 | Meeting with Laura |\n| 10:30 | Team sync |',
    )
    expect(blocks).toEqual([
      { kind: 'list', lead: 'Time, Activity', items: ['9:00, Meeting with Laura', '10:30, Team sync'] },
    ])
  })

  it('keeps a list going over blank lines between its items', () => {
    expect(blocksOf('- one thing\n\n- another thing')).toEqual([
      { kind: 'list', lead: null, items: ['one thing', 'another thing'] },
    ])
  })

  it('leaves plain chat text as one prose block', () => {
    expect(blocksOf('I went to a support group yesterday. It was so powerful.')).toEqual([
      { kind: 'prose', text: 'I went to a support group yesterday. It was so powerful.' },
    ])
  })
})

describe('listSentences', () => {
  it('joins the items after their lead, and repeats the lead where a list needs several sentences', () => {
    const items = ['set up the development environment', 'initialize the project', 'create the schema']
    expect(listSentences({ kind: 'list', lead: 'Week 1', items }, 300)).toEqual([
      'Week 1: set up the development environment; initialize the project; create the schema.',
    ])
    expect(listSentences({ kind: 'list', lead: 'Week 1', items }, 60)).toEqual([
      'Week 1: set up the development environment.',
      'Week 1: initialize the project; create the schema.',
    ])
  })
})

describe('plainText', () => {
  it('drops emphasis, code marks and link targets', () => {
    expect(plainText('Use **Flask-Login** with `login_user()`, see [the docs](https://x.org/a).')).toBe(
      'Use Flask-Login with login_user(), see the docs.',
    )
  })
})
