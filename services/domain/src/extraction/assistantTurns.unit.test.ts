import { describe, expect, it } from 'vitest'
import {
  assistantStatementBudget,
  isAssistantSpeaker,
  isUserRole,
  selectAssistantStatements,
} from './assistantTurns.js'

const statements = (...contents: string[]) => contents.map((content) => ({ content }))

describe('assistant turns', () => {
  it('tells a model speaker from a person', () => {
    expect(isAssistantSpeaker('Assistant')).toBe(true)
    expect(isAssistantSpeaker('ChatGPT')).toBe(true)
    expect(isAssistantSpeaker('Caroline')).toBe(false)
    expect(isAssistantSpeaker(null)).toBe(false)
    expect(isUserRole('User')).toBe(true)
    expect(isUserRole('Caroline')).toBe(false)
  })

  it('keeps three statements of a short answer and five at most of a long one', () => {
    expect(assistantStatementBudget(500)).toBe(3)
    expect(assistantStatementBudget(4500)).toBe(5)
    expect(assistantStatementBudget(40_000)).toBe(5)
  })

  it('keeps the opening, the recommendation and the conclusion, in their order, and never courtesy', () => {
    const answer = statements(
      'Assistant said: Handling API rate limits needs a counter per minute and per day.',
      'Assistant said: A map is a data structure.',
      'Assistant said: Arrays have a length.',
      'Assistant said: I recommend exponential backoff with a maximum of 3 retries for your weather app.',
      'Assistant said: Loops repeat things.',
      'Assistant said: In summary, this approach keeps your app under the OpenWeather quota.',
      'Assistant said: Feel free to let me know if you have any more questions!',
    )
    expect(selectAssistantStatements(answer, 3).map(({ content }) => content)).toEqual([
      'Assistant said: Handling API rate limits needs a counter per minute and per day.',
      'Assistant said: I recommend exponential backoff with a maximum of 3 retries for your weather app.',
      'Assistant said: In summary, this approach keeps your app under the OpenWeather quota.',
    ])
    expect(selectAssistantStatements(answer.slice(6), 3)).toEqual([])
  })
})
