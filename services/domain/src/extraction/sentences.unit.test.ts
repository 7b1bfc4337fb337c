import { describe, expect, it } from 'vitest'
import { splitLongSentence, splitSentences, withPreferencesApart } from './sentences.js'

describe('splitSentences', () => {
  it('splits a chat turn on !, ? and runs of them', () => {
    expect(splitSentences('Hey Mel! Good to see you! How have you been?!! Great.')).toEqual([
      'Hey Mel!',
      'Good to see you!',
      'How have you been?!!',
      'Great.',
    ])
  })

  it('does not split after titles, Latin abbreviations, initials or inside decimals', () => {
    expect(
      splitSentences(
        'Dr. Smith met Mr. Jones at 10 a.m. on Friday. J. K. Rowling paid $3.50, e.g. for tea, i.e. cheap.',
      ),
    ).toEqual([
      'Dr. Smith met Mr. Jones at 10 a.m. on Friday.',
      'J. K. Rowling paid $3.50, e.g. for tea, i.e. cheap.',
    ])
  })

  it('lets an ambiguous abbreviation end a sentence only before a typical sentence opener', () => {
    expect(splitSentences('He moved to the U.S. Then he started working.')).toEqual([
      'He moved to the U.S.',
      'Then he started working.',
    ])
    expect(splitSentences('We bought pens, paper, etc. and went home.')).toEqual([
      'We bought pens, paper, etc. and went home.',
    ])
  })

  it('splits after an ellipsis only when a new sentence starts', () => {
    expect(splitSentences('It was wild... really wild... Then it rained…')).toEqual([
      'It was wild... really wild...',
      'Then it rained…',
    ])
  })

  it('keeps emoji with the sentence they close and splits at an emoji before a capital', () => {
    expect(splitSentences('We won! 🎉🎉 Next up is the final 😊 See you there')).toEqual([
      'We won! 🎉🎉',
      'Next up is the final 😊',
      'See you there',
    ])
  })

  it('keeps a quotation with full stops inside one sentence', () => {
    expect(splitSentences('She said "Stop. Now." and left. Then I cried.')).toEqual([
      'She said "Stop. Now." and left.',
      'Then I cried.',
    ])
  })

  it('treats list items, headings and paragraphs as units and rejoins hard-wrapped lines', () => {
    const note = [
      '# Offsite',
      'Agenda:',
      '- Budget review',
      '* Hiring plan',
      '1. Q3 goals',
      '2) Travel',
      '',
      'This paragraph was wrapped at the',
      'edge of the window, and it continues',
      'here. A second sentence follows.',
    ].join('\n')
    expect(splitSentences(note)).toEqual([
      'Offsite',
      'Agenda:',
      'Budget review',
      'Hiring plan',
      'Q3 goals',
      'Travel',
      'This paragraph was wrapped at the edge of the window, and it continues here.',
      'A second sentence follows.',
    ])
  })

  it('drops pieces without a letter or digit', () => {
    expect(splitSentences('😊 !!! ... Fine.')).toEqual(['Fine.'])
    expect(splitSentences('')).toEqual([])
  })
})

describe('splitLongSentence', () => {
  it('leaves short sentences whole', () => {
    expect(splitLongSentence('A short one.', 100)).toEqual(['A short one.'])
  })

  it('cuts at clause boundaries first and keeps every piece within the limit', () => {
    const sentence =
      'we reviewed the quarterly numbers with the whole team; then we argued about hiring for a long while – and finally we agreed on the plan'
    const pieces = splitLongSentence(sentence, 60)
    expect(pieces).toEqual([
      'we reviewed the quarterly numbers with the whole team;',
      'then we argued about hiring for a long while',
      'and finally we agreed on the plan',
    ])
  })

  it('falls back to word boundaries in text without punctuation', () => {
    const words = Array.from({ length: 50 }, (_, index) => `word${index}`).join(' ')
    const pieces = splitLongSentence(words, 80)
    expect(pieces.every((piece) => piece.length <= 80)).toBe(true)
    expect(pieces.join(' ')).toBe(words)
  })
})

describe('withPreferencesApart', () => {
  it('makes a preference inside a longer sentence a sentence of its own, up to the request after it', () => {
    expect(
      withPreferencesApart(
        "I'm building a recipe app for my sister, and I'd rather keep it to plain HTML and a little CSS, so could you sketch the first page?",
      ),
    ).toEqual([
      "I'm building a recipe app for my sister.",
      "I'd rather keep it to plain HTML and a little CSS.",
      'so could you sketch the first page?',
    ])
    // A comma inside the preference is not its end.
    expect(
      withPreferencesApart('My laptop is old, so we prefer light, offline tools, what editor fits?'),
    ).toEqual(['My laptop is old.', 'we prefer light, offline tools.', 'what editor fits?'])
  })

  it('leaves a sentence that opens with the preference, or has none, whole', () => {
    expect(withPreferencesApart('I prefer tea, and I like it hot.')).toEqual([
      'I prefer tea, and I like it hot.',
    ])
    expect(withPreferencesApart('We went hiking, and the view was great.')).toEqual([
      'We went hiking, and the view was great.',
    ])
  })
})
