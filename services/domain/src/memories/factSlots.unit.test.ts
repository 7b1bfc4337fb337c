import { describe, expect, it } from 'vitest'
import { askedFactOf, factSlotOf } from './factSlots.js'

const slot = (content: string, speaker: string | null = null) => {
  const fact = factSlotOf(content, speaker)
  return fact ? `${fact.key}=${fact.value}` : null
}

describe('factSlotOf', () => {
  it('reads where someone lives, in the forms the extractors write', () => {
    expect(slot('Caroline lives in Lisbon.', 'Caroline')).toBe('caroline|residence=lisbon')
    expect(slot('Caroline moved to Porto last month (February 2024)!', 'Caroline')).toBe(
      'caroline|residence=porto',
    )
    expect(slot('Caroline finally relocated to New York.', 'Caroline')).toBe('caroline|residence=new york')
    expect(slot("Caroline's new apartment is in Berlin.", 'Caroline')).toBe('caroline|residence=berlin')
    expect(slot('Lena and her husband moved to Porto.', 'Lena')).toBeNull()
    expect(slot('We moved to Porto.', null)).toBe('self|residence=porto')
    expect(slot('Sam said: We moved to Porto.', 'Sam')).toBe('sam|residence=porto')
    expect(slot("We've moved to Porto.", 'Sam')).toBe('sam|residence=porto')
    expect(slot("They've moved to Porto.", 'Sam')).toBeNull()
    expect(slot('Sam moved in 3 weeks ago and the flat is tiny.', 'Sam')).toBeNull()
    expect(slot("Ok Sam's favourite food is officially pho now.", 'Sam')).toBe('sam|favorite:food=pho')
  })

  it('reads employers, occupations, relationships and favourites', () => {
    expect(slot('Ana works at Siemens.')).toBe('ana|employer=siemens')
    expect(slot('Ana just started a new job at Nordwind Logistics.', 'Ana')).toBe(
      'ana|employer=nordwind logistics',
    )
    expect(slot('Ana joined Google as an engineer.', 'Ana')).toBe('ana|employer=google')
    expect(slot('Ana works as a nurse at the clinic.', 'Ana')).toBe('ana|occupation=nurse')
    expect(slot('Ana became a teacher.', 'Ana')).toBe('ana|occupation=teacher')
    expect(slot('Tom and Ana got engaged.', 'Ana')).toBe('ana|relationship=engaged')
    expect(slot('Ana said: We broke up last week.', 'Ana')).toBe('ana|relationship=single')
    expect(slot('Ana is dating Marco.', 'Ana')).toBe('ana|relationship=in a relationship')
    expect(slot("Melanie's favorite color is blue now.", 'Melanie')).toBe('melanie|favorite:color=blue')
    expect(slot('My favourite band is The Cure these days.')).toBe('self|favorite:band=cure')
  })

  it('reads a favourite told by reference: "it", an apposition, or without its kind', () => {
    expect(slot("Watched Twin Peaks again and it's still Noor's favourite show.", 'Noor')).toBe(
      'noor|favorite:show=twin peaks',
    )
    expect(
      slot('Noor is rereading Middlemarch on the train, their favourite novel since college.', 'Noor'),
    ).toBe('noor|favorite:novel=middlemarch')
    expect(slot("The new Radiohead album floored Noor. It's Noor's favourite record now.", 'Noor')).toBe(
      'noor|favorite:record=radiohead',
    )
    expect(slot("The night market blew Noor away. It's Noor's favourite spot now.", 'Noor')).toBe(
      'noor|favorite:spot=night market',
    )
    // Without its kind: the kind is the favourite it replaced (factSupersession.ts).
    expect(slot('Honestly Dune has overtaken Emma as Noor’s all time favourite.', 'Noor')).toBe(
      'noor|favorite=dune',
    )
    expect(slot('Okay Blur has dethroned Oasis as their number one.', 'Noor')).toBe('noor|favorite=blur')
    expect(slot('Pulp has taken the top spot, on repeat all week.', 'Noor')).toBe('noor|favorite=pulp')
    // Someone's possessive is no favourite thing; "it" with nothing named before it tells nothing.
    expect(slot("Reading to Omar's kids and it's still Noor's favourite book.", 'Noor')).toBeNull()
    expect(slot("It's Noor's favourite show.", 'Noor')).toBeNull()
    expect(slot("Noor watched Twin Peaks and it's not Noor's favourite show.", 'Noor')).toBeNull()
  })

  it('states no fact for mentions, plans, questions, negations and pasts that are over', () => {
    expect(slot('Caroline visited Porto last summer.', 'Caroline')).toBeNull()
    expect(slot('Caroline wants to move to Porto.', 'Caroline')).toBeNull()
    expect(slot('Caroline will move to Porto next year.', 'Caroline')).toBeNull()
    expect(slot('Does Caroline live in Porto?', 'Caroline')).toBeNull()
    expect(slot("Caroline doesn't live in Lisbon anymore.", 'Caroline')).toBeNull()
    expect(slot('Caroline used to live in Lisbon.', 'Caroline')).toBeNull()
    expect(slot('Caroline is now happy.', 'Caroline')).toBeNull()
    expect(slot('Caroline is single-handedly running the shelter.', 'Caroline')).toBeNull()
    expect(slot('The team works at night.', null)).toBeNull()
  })
})

describe('factSlotOf, as people say it', () => {
  it('reads a time phrase before the subject, a possessive before the job, a date after the occupation', () => {
    expect(slot('These days Lena works as a nurse.', 'Lena')).toBe('lena|occupation=nurse')
    expect(slot('Since May, Lena lives in Porto.', 'Lena')).toBe('lena|residence=porto')
    expect(slot("Lena just started Lena's new job at Harborline Shipping!", 'Lena')).toBe(
      'lena|employer=harborline shipping',
    )
    expect(slot('Priya became a paramedic last month (October 2023)!', 'Priya')).toBe(
      'priya|occupation=paramedic',
    )
  })

  it("reads a contracted negation as one (can't, don't)", () => {
    expect(slot("Lena can't live in Porto.", 'Lena')).toBeNull()
    expect(slot("Lena don't work at Siemens.", 'Lena')).toBeNull()
  })
})

describe('factSlotOf, after a resolved date', () => {
  it('reads the statement after a relative date the extractor resolved', () => {
    expect(
      slot('Two weeks ago (the week of 13 May 2024) Priya moved to Porto, closer to the sea.', 'Priya'),
    ).toBe('priya|residence=porto')
    expect(slot('Last month (May 2024) Priya moved to Porto.', 'Priya')).toBe('priya|residence=porto')
    expect(slot('In March, Ana started working at Feedzai.', 'Ana')).toBe('ana|employer=feedzai')
  })
})

describe('askedFactOf', () => {
  it('names the attribute and the people a question asks about', () => {
    expect(askedFactOf('Where does Ana live now?')).toMatchObject({
      attribute: 'residence',
      subjects: ['ana'],
    })
    expect(askedFactOf("What is Lena's job?")).toMatchObject({ attribute: 'occupation', subjects: ['lena'] })
    expect(askedFactOf('Who does Jonas work for?')?.attribute).toBe('employer')
    expect(askedFactOf('Where does Jonas work?')?.attribute).toBe('employer')
    expect(askedFactOf('What does Jonas do for a living?')?.attribute).toBe('occupation')
    expect(askedFactOf('Is Oskar in a relationship now?')?.attribute).toBe('relationship')
    expect(askedFactOf("What is Kwame's favorite dish?")?.attribute).toBe('favorite:dish')
    expect(askedFactOf("Which dish is Kwame's favourite these days?")?.attribute).toBe('favorite:dish')
    expect(askedFactOf('Where is Jonas employed at the moment?')?.attribute).toBe('employer')
    expect(askedFactOf("What's Lena's trade?")?.attribute).toBe('occupation')
    expect(askedFactOf("What is Lena's role now?")?.attribute).toBe('occupation')
    expect(askedFactOf("What is Oskar's marital status?")?.attribute).toBe('relationship')
    expect(askedFactOf('When did Lena move to Porto?')).toMatchObject({
      attribute: 'residence',
      subjects: ['lena', 'porto'],
    })
  })

  it('asks about no fact when the question is about something else', () => {
    expect(askedFactOf('What did Caroline paint last week?')).toBeNull()
    expect(askedFactOf('How many kids does Melanie have?')).toBeNull()
  })
})
