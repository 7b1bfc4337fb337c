import { describe, expect, it } from 'vitest'
import { attributeNames, labelledMessages, labelledQuestions, stances } from './examples.js'

describe('the labelled examples', () => {
  const messages = labelledMessages()

  it('name an open catalogue of at least 25 attributes, each with examples of its own and of what changes nothing', () => {
    expect(attributeNames.length).toBeGreaterThanOrEqual(25)
    for (const attribute of attributeNames) {
      const about = messages.filter((message) => message.attribute === attribute)
      expect(about.filter(({ stance }) => stance === 'current').length, attribute).toBeGreaterThanOrEqual(40)
      expect(about.filter(({ stance }) => stance !== 'current').length, attribute).toBeGreaterThanOrEqual(20)
    }
    for (const stance of stances)
      expect(
        messages.some((message) => message.stance === stance),
        stance,
      ).toBe(true)
  })

  it('come from several writers, and have questions for every attribute and questions that ask for none', () => {
    expect(new Set(messages.map(({ writer }) => writer)).size).toBeGreaterThanOrEqual(6)
    const questions = labelledQuestions()
    for (const attribute of attributeNames)
      expect(
        questions.filter((question) => question.attribute === attribute).length,
        attribute,
      ).toBeGreaterThanOrEqual(10)
    expect(questions.filter(({ attribute }) => attribute === null).length).toBeGreaterThanOrEqual(300)
  })
})
