import { describe, expect, it } from 'vitest'
import { categorize } from './categorize.js'
import { memoryTypes } from './extraction.js'

describe('categorize', () => {
  it.each([
    ['Caroline loves horseback riding.', 'preference'],
    ['Tim is mostly into classical music.', 'preference'],
    ['Harry Potter is Tim’s favorite book.', 'preference'],
    ['Nate can’t stand spicy food.', 'preference'],
    ['Caroline felt accepted by the support group.', 'emotion'],
    ['Melanie is so proud and grateful.', 'emotion'],
    ['Caroline went to a LGBTQ support group.', 'episode'],
    ['John visited the military memorial with his kids.', 'episode'],
    ['Melanie is going to camp with the kids next month.', 'temporal_event'],
    ['Dana is meeting the Acme team on Thursday.', 'temporal_event'],
    ['John works as a teacher and lives in Boston.', 'fact'],
    ['Caroline has two kids.', 'fact'],
  ] as const)('%j is %s', (content, type) => {
    expect(categorize(content).type).toBe(type)
  })

  it('makes a dated statement a temporal event', () => {
    expect(categorize({ content: 'Melanie painted that lake sunrise.', occurredOn: '2022-01-01' })).toEqual({
      type: 'temporal_event',
      confidence: 0.9,
    })
  })

  it('reaches every memory type', () => {
    const reached = new Set(
      [
        'Caroline loves painting.',
        'Caroline feels happy.',
        'Caroline went to Paris.',
        'Caroline will fly to Paris next month.',
        'Caroline works as a counselor.',
      ].map((content) => categorize(content).type),
    )
    expect([...reached].sort()).toEqual([...memoryTypes].sort())
  })

  it('is sure of a strong cue alone, less sure of mixed cues, least sure of the default', () => {
    const alone = categorize('Caroline loves painting.')
    const mixed = categorize({
      content: 'Caroline went to a LGBTQ support group yesterday (7 May 2023) and it was so powerful.',
      occurredOn: '2023-05-07',
    })
    const weakOnly = categorize('The view was amazing.')
    const none = categorize('The report sits on the shelf.')
    expect(alone).toEqual({ type: 'preference', confidence: 0.9 })
    // The dated happening wins over the feeling it caused; the feeling lowers the confidence.
    expect(mixed.type).toBe('temporal_event')
    expect(mixed.confidence).toBeGreaterThan(0.7)
    expect(mixed.confidence).toBeLessThan(alone.confidence)
    expect(weakOnly).toEqual({ type: 'emotion', confidence: 0.7 })
    expect(none).toEqual({ type: 'fact', confidence: 0.5 })
  })

  it('is deterministic and stays within 0..1', () => {
    const content = 'Caroline loves hiking, felt happy, went to the park and will go again next week.'
    const first = categorize(content)
    expect(categorize(content)).toEqual(first)
    expect(first.confidence).toBeGreaterThanOrEqual(0)
    expect(first.confidence).toBeLessThanOrEqual(1)
  })

  it('reads "would love to" as a wish, not a settled preference', () => {
    expect(categorize('Caroline would love to support people.').confidence).toBe(0.7)
  })
})

describe('an instruction for how to be answered', () => {
  it('is a preference, whatever else it names', () => {
    expect(
      categorize(
        'User said: Always format dates as "Month Day, Year" when the user asks about timeline details.',
      ),
    ).toEqual({ type: 'preference', confidence: 0.9 })
    expect(categorize('Never use jargon when I ask about my finances.').type).toBe('preference')
  })
})
