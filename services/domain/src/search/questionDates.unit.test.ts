import { describe, expect, it } from 'vitest'
import { askedPeriodOf } from './questionDates.js'

const reference = '2026-11-26T10:00:00Z'
const asked = (question: string) => askedPeriodOf(question, reference)

describe('askedPeriodOf', () => {
  it('reads a day, from the day before to two days after it', () => {
    expect(asked('What painting did Melanie show to Caroline on October 13, 2023?')).toEqual({
      from: '2023-10-12T00:00:00.000Z',
      to: '2023-10-16T00:00:00.000Z',
      withoutDates: 'What painting did Melanie show to Caroline on?',
    })
    expect(asked('What movie did Tim finish watching on 8th December, 2023?')?.from).toBe(
      '2023-12-07T00:00:00.000Z',
    )
  })

  it('reads a month, to a week after it ends', () => {
    expect(asked('Where did Joanna travel to in July 2022?')).toMatchObject({
      from: '2022-07-01T00:00:00.000Z',
      to: '2022-08-08T00:00:00.000Z',
      withoutDates: 'Where did Joanna travel to in?',
    })
  })

  it('reads a year, to a week after it ends', () => {
    expect(asked('How many times has Melanie gone to the beach in 2023?')).toMatchObject({
      from: '2023-01-01T00:00:00.000Z',
      to: '2024-01-08T00:00:00.000Z',
      withoutDates: 'How many times has Melanie gone to the beach in?',
    })
  })

  it('joins several expressions into one window', () => {
    expect(asked('Where was John between August 11 and August 15 2023?')).toMatchObject({
      from: '2023-08-14T00:00:00.000Z',
      to: '2023-08-18T00:00:00.000Z',
    })
    expect(asked('What did Jon do between 1 May 2023 and 3 May 2023?')).toMatchObject({
      from: '2023-04-30T00:00:00.000Z',
      to: '2023-05-06T00:00:00.000Z',
    })
  })

  it('reads a period relative to the reference day, as documents are read', () => {
    expect(asked('What did Nate cook yesterday?')).toMatchObject({
      from: '2026-11-24T00:00:00.000Z',
      to: '2026-11-28T00:00:00.000Z',
    })
    // The Monday-to-Sunday week before the reference's (a Thursday), as in a memory that says "last week".
    expect(asked('Where did Nate go last week?')).toMatchObject({
      from: '2026-11-15T00:00:00.000Z',
      to: '2026-11-25T00:00:00.000Z',
    })
  })

  it('names no period when only a guess would give its year or direction, or nothing is a date', () => {
    expect(asked('When did Melanie go camping in June?')).toBeNull()
    expect(asked('What did Gina buy on May 7?')).toBeNull()
    expect(asked('What did Jon cook on Friday?')).toBeNull()
    expect(asked('What did Jon say at 5 pm?')).toBeNull()
    expect(asked('When did Gina go to 2 fairs?')).toBeNull()
    expect(asked('What is Caroline researching?')).toBeNull()
  })
})
