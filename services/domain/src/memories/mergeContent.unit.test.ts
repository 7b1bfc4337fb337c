import { describe, expect, it } from 'vitest'
import { mergeContent } from './mergeContent.js'

describe('mergeContent', () => {
  const existing = 'Caroline lives in Lisbon. Caroline plays the guitar.'

  it('replace takes the new content', () => {
    expect(mergeContent(existing, ' Caroline moved to Porto. ', 'replace')).toBe('Caroline moved to Porto.')
  })

  it('append keeps the original and adds the new content after it', () => {
    expect(mergeContent(existing, 'She also sings.', 'append')).toBe(`${existing} She also sings.`)
  })

  it('smart-merge: the newer statement wins a conflict, duplicates collapse, the rest is kept', () => {
    expect(mergeContent(existing, 'Caroline lives in Porto. Caroline plays the guitar!', 'smart-merge')).toBe(
      'Caroline lives in Porto. Caroline plays the guitar!',
    )
    expect(mergeContent(existing, 'Caroline has a dog named Max.', 'smart-merge')).toBe(
      'Caroline lives in Lisbon. Caroline plays the guitar. Caroline has a dog named Max.',
    )
  })

  it('smart-merge keeps statements that merely share a first word', () => {
    expect(mergeContent('Caroline likes tea.', 'Caroline loves hiking.', 'smart-merge')).toBe(
      'Caroline likes tea. Caroline loves hiking.',
    )
  })
})
