import { describe, expect, it } from 'vitest'
import { contextOf, valueSpansOf } from './valueSpans.js'

const texts = (text: string, excluded: string[] = []) => valueSpansOf(text, excluded).map(({ text }) => text)

describe('the value spans of a statement', () => {
  it('offers runs of names, nouns and adjectives, and every shorter span inside them', () => {
    expect(texts('The user switched to an iced matcha latte.')).toEqual(
      expect.arrayContaining(['iced matcha latte', 'matcha latte', 'latte']),
    )
    expect(texts('Zoltán finally read The Master and Margarita.')).toContain('The Master and Margarita')
    expect(texts('five-a-side football every Wednesday')).toContain('five-a-side football')
    expect(texts('Traded in my old sedan for a Kia EV6 and I love it')).toContain('Kia EV6')
  })

  it("never offers the speaker's name or the writer's first person", () => {
    const spans = texts("Amara got the keys to the flat in Glasgow and I'm happy", ['Amara'])
    expect(spans).toContain('Glasgow')
    expect(spans.some((span) => /Amara|I'm/.test(span))).toBe(false)
  })

  it('reads a span with the six words before it and the three after', () => {
    const text = 'Honestly after all that we moved from Leeds to Bristol last May and we love it'
    const [span] = valueSpansOf(text).filter(({ text }) => text === 'Bristol')
    expect(span && contextOf(text, span)).toBe('that we moved from Leeds to Bristol last May and')
  })
})
