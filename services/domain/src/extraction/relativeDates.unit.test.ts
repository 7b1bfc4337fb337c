import { describe, expect, it } from 'vitest'
import { explicitDatesIn, finestStartOf, resolveDates } from './relativeDates.js'

// Monday 8 May 2023, the first LoCoMo session's date.
const monday = '2023-05-08T13:56:00.000Z'

describe('resolveDates', () => {
  it.each([
    ['I went to a support group yesterday.', 'yesterday (7 May 2023)', '2023-05-07'],
    ['We talked about it the day before yesterday.', 'the day before yesterday (6 May 2023)', '2023-05-06'],
    ['I watched a movie last night.', 'last night (7 May 2023)', '2023-05-07'],
    ['I have a meeting today.', 'today (8 May 2023)', '2023-05-08'],
    ['We are going out tonight.', 'tonight (8 May 2023)', '2023-05-08'],
    ['I am flying out tomorrow morning.', 'tomorrow morning (9 May 2023)', '2023-05-09'],
    ['I graduated last week!', 'last week (the week of 1 May 2023)', '2023-05-01'],
    ['It is a busy week this week.', 'this week (the week of 8 May 2023)', '2023-05-08'],
    ['The trip starts next week.', 'next week (the week of 15 May 2023)', '2023-05-15'],
    ['Last weekend I joined a program.', 'Last weekend (the weekend of 6 May 2023)', '2023-05-06'],
    ['This past weekend we hiked.', 'This past weekend (the weekend of 6 May 2023)', '2023-05-06'],
    ['We moved last month.', 'last month (April 2023)', '2023-04-01'],
    ['We are going camping next month.', 'next month (June 2023)', '2023-06-01'],
    ['I painted that lake sunrise last year!', 'last year (2022)', '2022-01-01'],
    ["This year's festival was huge.", "This year's (2023)", '2023-01-01'],
    ['I started three days ago.', 'three days ago (5 May 2023)', '2023-05-05'],
    ['I dyed my hair 2 weeks ago.', '2 weeks ago (the week of 24 April 2023)', '2023-04-24'],
    ['She left six months ago.', 'six months ago (November 2022)', '2022-11-01'],
    ['I started transitioning three years ago.', 'three years ago (2020)', '2020-01-01'],
    ['A friend made it ten years ago.', 'ten years ago (2013)', '2013-01-01'],
    ['I will know in two weeks.', 'in two weeks (22 May 2023)', '2023-05-22'],
    ['The lease ends in 3 months.', 'in 3 months (August 2023)', '2023-08-01'],
    ['I ran a charity race last Saturday.', 'last Saturday (6 May 2023)', '2023-05-06'],
    ['The office was closed last Monday.', 'last Monday (1 May 2023)', '2023-05-01'],
    ['The interview is next Tuesday.', 'next Tuesday (9 May 2023)', '2023-05-09'],
    ['We went out last summer.', 'last summer (summer 2022)', '2022-06-01'],
    ['We hope to ski this winter.', 'this winter (winter 2023–2024)', '2023-12-01'],
    ['We met last May.', 'last May (May 2022)', '2022-05-01'],
  ])('resolves %j', (sentence, annotated, occurredOn) => {
    const resolution = resolveDates(sentence, monday)
    expect(resolution.text).toContain(annotated)
    expect(resolution.occurredOn).toBe(occurredOn)
  })

  it('reads a weekday after "on" backwards in a past sentence and forwards in a future one', () => {
    expect(resolveDates('I went home on Friday.', monday).occurredOn).toBe('2023-05-05')
    expect(resolveDates('I will see him on Friday.', monday).occurredOn).toBe('2023-05-12')
    expect(resolveDates("I'm meeting them on Thursday.", monday).occurredOn).toBe('2023-05-11')
    expect(resolveDates('Please send it by Friday.', monday).occurredOn).toBe('2023-05-12')
    // Tenseless: the most recent one.
    expect(resolveDates('Friday night, the band.', monday).occurredOn).toBe('2023-05-05')
  })

  it('completes dates written without a year, looking back in the past tense and ahead in the future tense', () => {
    expect(resolveDates('May 7 was fun.', monday)).toMatchObject({ text: 'May 7 (7 May 2023) was fun.' })
    expect(resolveDates('The party was on 20 June.', monday).occurredOn).toBe('2022-06-20')
    expect(resolveDates('The party will be on 20 June.', monday).occurredOn).toBe('2023-06-20')
    expect(resolveDates('We will travel in September.', monday).text).toBe(
      'We will travel in September (September 2023).',
    )
    expect(resolveDates('We traveled in September.', monday).occurredOn).toBe('2022-09-01')
  })

  it('completes a year-less day without a tense, or with as many cues each way, to the nearest occurrence', () => {
    expect(resolveDates('The interview is on May 12.', monday).occurredOn).toBe('2023-05-12')
    expect(resolveDates('My follow-up with Greg is scheduled for May 20.', monday).occurredOn).toBe(
      '2023-05-20',
    )
    const mixed = resolveDates(
      "I'm getting ready for the interview on May 12; I submitted the letter on April 23.",
      monday,
    )
    expect(mixed.dates.map(({ start }) => start)).toEqual(['2023-05-12', '2023-04-23'])
    expect(resolveDates('Her birthday: March 3.', monday).occurredOn).toBe('2023-03-03')
    // A deadline lies ahead even in a past sentence.
    expect(
      resolveDates('I finished two chapters, my goal was to submit by March 3.', monday).occurredOn,
    ).toBe('2024-03-03')
  })

  it('reports explicit dates without repeating them', () => {
    expect(resolveDates('On 7 May 2023 we met.', monday)).toEqual({
      text: 'On 7 May 2023 we met.',
      occurredOn: '2023-05-07',
      dates: [
        {
          expression: '7 May 2023',
          label: '7 May 2023',
          start: '2023-05-07',
          granularity: 'day',
          approximate: false,
        },
      ],
    })
    expect(resolveDates('We met on May 7th, 2023.', monday).occurredOn).toBe('2023-05-07')
    expect(resolveDates('We met in May 2023.', monday).text).toBe('We met in May 2023.')
    expect(resolveDates('I lived there back in 2019.', monday)).toMatchObject({
      text: 'I lived there back in 2019.',
      occurredOn: '2019-01-01',
    })
    expect(resolveDates('That was the summer of 2019.', monday).occurredOn).toBe('2019-06-01')
    // ISO dates get a readable form, so "May" finds them.
    expect(resolveDates('Kickoff on 2023-05-07.', monday).text).toBe('Kickoff on 2023-05-07 (7 May 2023).')
  })

  it('marks quantities like "a few" and "a couple of" as approximate', () => {
    const resolution = resolveDates('I saw her a few days ago and a couple of years ago.', monday)
    expect(resolution.text).toBe(
      'I saw her a few days ago (around 5 May 2023) and a couple of years ago (around 2021).',
    )
    expect(resolution.dates.map((date) => date.approximate)).toEqual([true, true])
    expect(resolution.occurredOn).toBe('2023-05-05')
  })

  it('crosses month and year boundaries', () => {
    const newYear = '2024-01-01T10:00:00Z'
    expect(resolveDates('yesterday', newYear).occurredOn).toBe('2023-12-31')
    expect(resolveDates('last week', newYear).text).toBe('last week (the week of 25 December 2023)')
    expect(resolveDates('last month', newYear).text).toBe('last month (December 2023)')
    expect(resolveDates('last year', newYear).text).toBe('last year (2023)')
    expect(resolveDates('next month', '2023-12-15T10:00:00Z').text).toBe('next month (January 2024)')
    expect(resolveDates('a month ago', '2023-03-31T10:00:00Z').text).toBe('a month ago (February 2023)')
    // Sunday 1 January 2023: its own weekend began the day before.
    expect(resolveDates('last weekend', '2023-01-01T12:00:00Z').text).toBe(
      'last weekend (the weekend of 24 December 2022)',
    )
    expect(resolveDates('this weekend', '2023-01-01T12:00:00Z').occurredOn).toBe('2022-12-31')
    expect(resolveDates('last winter', '2023-01-15T12:00:00Z').occurredOn).toBe('2021-12-01')
    expect(resolveDates('this winter', '2023-01-15T12:00:00Z').text).toBe('this winter (winter 2022–2023)')
  })

  it('knows leap years', () => {
    expect(resolveDates('yesterday', '2024-03-01T08:00:00Z').text).toBe('yesterday (29 February 2024)')
    expect(resolveDates('yesterday', '2023-03-01T08:00:00Z').text).toBe('yesterday (28 February 2023)')
    expect(resolveDates('tomorrow', '2024-02-28T08:00:00Z').occurredOn).toBe('2024-02-29')
    expect(resolveDates('My birthday was February 29.', '2023-06-01T08:00:00Z').occurredOn).toBe('2020-02-29')
    // 2023 has no 29 February; what remains certain is the month.
    expect(resolveDates('We married on 29 February 2023.', '2023-06-01T08:00:00Z').occurredOn).toBe(
      '2023-02-01',
    )
  })

  it('takes the reference day as written in the timestamp, offset included', () => {
    // 23:30 in New York is already the next day in UTC; the writer's "yesterday" is still 7 May.
    expect(resolveDates('yesterday', '2023-05-08T23:30:00-05:00').occurredOn).toBe('2023-05-07')
    // 01:30 in Tokyo is the previous day in UTC.
    expect(resolveDates('yesterday', '2023-05-08T01:30:00+09:00').occurredOn).toBe('2023-05-07')
  })

  it('leaves the text alone when the reference date is not a date', () => {
    expect(resolveDates('I went yesterday.', 'not a date')).toEqual({
      text: 'I went yesterday.',
      occurredOn: null,
      dates: [],
    })
    expect(resolveDates('I went yesterday.', '2023-02-30T10:00:00Z').occurredOn).toBeNull()
  })

  it('does not take ordinary words for dates', () => {
    for (const text of [
      'I may go to the gym.',
      'We should march on.',
      'Good Friday was quiet.',
      'I swim on Fridays.',
      'It happened the other day.',
      'I have 2019 photos.',
    ]) {
      expect(resolveDates(text, monday), text).toEqual({ text, occurredOn: null, dates: [] })
    }
  })

  it('leaves habits undated: "every Sunday" is not one Sunday', () => {
    for (const text of [
      'Melanie plays the cello every Sunday.',
      'Caroline goes hiking each Saturday morning.',
      'We meet every other Friday.',
      'Every May we visit my aunt.',
    ]) {
      expect(resolveDates(text, monday), text).toEqual({ text, occurredOn: null, dates: [] })
    }
    // The habit stays undated while a date in the same sentence is still resolved.
    const mixed = resolveDates('Since last Friday I run every Tuesday.', monday)
    expect(mixed.dates.map((date) => date.expression)).toEqual(['last Friday'])
  })

  it('changes nothing when run on its own output', () => {
    const once = resolveDates('Yesterday I said we would meet next week and go out last night.', monday)
    const twice = resolveDates(once.text, monday)
    expect(twice.text).toBe(once.text)
    expect(twice.dates.map((date) => date.start)).toEqual(once.dates.map((date) => date.start))
  })

  it('dates a statement by its finest expression, the first among equals', () => {
    expect(resolveDates('Last year I started painting and yesterday I finished.', monday).occurredOn).toBe(
      '2023-05-07',
    )
    expect(resolveDates('Today and tomorrow.', monday).occurredOn).toBe('2023-05-08')
    expect(finestStartOf([])).toBeNull()
  })
})

describe('explicitDatesIn', () => {
  it('finds only dates stated in full, including earlier resolutions', () => {
    expect(
      explicitDatesIn('Caroline went yesterday (7 May 2023) and moved in 2019, not last week.').map(
        (date) => date.label,
      ),
    ).toEqual(['7 May 2023', '2019'])
  })
})
